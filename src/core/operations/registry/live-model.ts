import type { ApprovalAction } from '../../../store/index.js';
import type { FlowRecord, liveModelFlowFields } from '../../../wire/index.js';
import { Bad, ok, readArgs, takePositional } from '../../grammar/args.js';
import { EXAMPLE_IDS as X } from '../../ids.js';
import { ASSESSMENT, FLAG, MODEL, RESOURCE, TEXT } from '../../kinds/index.js';
import { serviceFailure } from '../../service-errors.js';
import { resourceArg } from './arguments.js';
import { typed } from './catalog-change.js';
import {
  ASSESSMENT_OUTPUT,
  FLOW_CALL,
  type FlowBodyOf,
  flowOf,
  schemasOf,
  usedBy,
  usedOutputs,
} from './describe.js';
import { type Argument, declareOutputs, type OperationEntry } from './entry.js';

export interface LiveCommand {
  kind: 'live';
  action: 'start' | 'stop';
  modelId?: string;
  assessmentId?: string;
  reason?: string;
}

/** A request to start or stop a live model, filed for an approver: what the command resolves to. */
export interface LiveRequest {
  kind: 'live-request';
  action: ApprovalAction;
  modelId?: string;
  assessmentId?: string;
  reason?: string;
}

/** The STARTLIVEMODEL/STOPLIVEMODEL flow of a request an approver has approved. */
export interface LiveModel {
  kind: 'live-model';
  action: ApprovalAction;
  modelId: string;
  name: string;
  approvalId: string;
  /** Who asked for it (the approver runs it). */
  requesterId?: string;
  /** The assessment whose M[0] it is, when the request named the model that way. */
  assessmentId?: string;
}

const FLOW_TYPE = { start: 'STARTLIVEMODEL', stop: 'STOPLIVEMODEL' } as const;

const LIVE_ARGS: readonly Argument[] = [
  resourceArg(MODEL, 'model', 'The model to start or stop (or `assessment=`).', {
    required: false,
    positional: true,
    shape: '<model_id>',
  }),
  resourceArg(ASSESSMENT, 'assessment', 'The assessment whose M[0] it is.', { required: false }),
  {
    key: 'reason',
    kind: TEXT,
    required: false,
    help: 'Why, for the approver.',
    freeText: true,
    said: ['because', 'reason'],
  },
];
const FLOW_TYPES = [FLOW_TYPE.start, FLOW_TYPE.stop] as const;

/**
 * STARTLIVEMODEL/STOPLIVEMODEL: the command files a request (an approver decides it); the flow is created
 * when the request is approved.
 */
export const liveModel: OperationEntry<
  LiveCommand,
  LiveModel,
  FlowBodyOf<(typeof FLOW_TYPES)[number], typeof liveModelFlowFields>,
  FlowRecord,
  LiveRequest
> = {
  parsedKind: 'live',
  operationKind: 'live-model',
  command: {
    id: 'live',
    words: ['live'],
    summary: 'Ask for a live model to be started or stopped (needs approval).',
    lead: 'start|stop',
    forms: [
      ['model', 'reason'],
      ['assessment', 'reason'],
    ],
    examples: [
      `/tsai live start ${X.model} reason="new baseline"`,
      `/tsai live stop assessment=${X.assessment}`,
    ],
    mutating: true,

    said: [
      {
        phrases: ['take live', 'go live', 'put live', 'start the model', 'turn on the model', 'live start'],
        word: 'start',
      },
      {
        phrases: ['stop the model', 'take offline', 'turn off the model', 'live stop', 'stop live'],
        word: 'stop',
      },
    ],
  },
  args: LIVE_ARGS,
  parse(args, spec) {
    const action = takePositional(args)?.value.toLowerCase();
    if (action !== 'start' && action !== 'stop') {
      throw new Bad(
        action
          ? `\`${action}\` is not a \`live\` action: use \`start\` or \`stop\`.`
          : '`live` needs `start` or `stop`.',
      );
    }
    const { values } = readArgs(args, spec, LIVE_ARGS);
    const { model: modelId, assessment: assessmentId, reason } = values as Record<string, string | undefined>;
    if (modelId && assessmentId)
      throw new Bad('Give either a model (its ID or name) or `assessment=`, not both.', 'assessment');
    if (!modelId && !assessmentId)
      throw new Bad(`\`live ${action}\` needs a model (its ID or name) or \`assessment=<id>\`.`, 'model');
    return ok({ kind: 'live', action, modelId, assessmentId, reason }, spec);
  },
  role: 'Manager',
  resolve(command) {
    const { kind: _, ...rest } = command;
    return { ok: true, operation: { kind: 'live-request', ...rest } };
  },
  wire: {
    ...FLOW_CALL,
    version: '1.2',
    schemas: schemasOf((w) => ({
      body: w.flowBody(FLOW_TYPES, w.liveModelFlowFields),
      answer: { record: w.flowRecord },
    })),
    flowType: { all: FLOW_TYPES, of: (req) => FLOW_TYPE[req.action] },
  },
  async execute(req, { send }) {
    const verb = req.action === 'start' ? 'start' : 'stop';
    try {
      const flow = await send({ body: { name: req.name, spec: { model: req.modelId } } });
      return {
        ok: true,
        kind: 'service',
        visibility: 'channel',
        title: `${verb === 'start' ? 'started' : 'stopped'} live model ${req.modelId}`,
        flow: flowOf(flow),
        facts: [
          { label: 'Model', value: req.modelId, code: true },
          { label: 'Name', value: req.name, code: true },
        ],
      };
    } catch (e) {
      return serviceFailure(e, `${verb} the live model`, { what: 'flow', name: req.name });
    }
  },
  catalog: (req) => ({
    add: [
      typed(MODEL, req.modelId, req.assessmentId ? { assessment: req.assessmentId } : undefined),
      ...(req.assessmentId ? [typed(ASSESSMENT, req.assessmentId)] : []),
    ],
  }),
  // The model whose live state the flow changed, that state, and the model's assessment (for a backfill).
  outputs: declareOutputs(
    [
      { name: 'model', type: RESOURCE, label: 'Model', shown: {}, feeds: 'model' },
      {
        name: 'live',
        type: FLAG,
        label: 'Model is live',
        shown: {
          heading: 'Live monitoring',
          words: ['stopped: the model is not live', 'running: the model is now live'],
        },
        feeds: true,
      },
      ASSESSMENT_OUTPUT,
      ...usedOutputs(false),
    ],
    ({ results, request }) => {
      const record = results?.models.find((m) => m.id === request.modelId) ?? results?.models[0];
      const modelId = typeof request.modelId === 'string' ? request.modelId : record?.id;
      const name = record?.id === modelId ? record?.name : undefined;
      const assessment =
        (record?.id === modelId ? record?.assessment : undefined) ??
        (typeof request.assessmentId === 'string' ? request.assessmentId : undefined);
      return {
        ...(modelId
          ? {
              model: { id: modelId, ...(name ? { name } : {}) },
              live: request.action === 'start',
            }
          : {}),
        ...(assessment ? { assessment } : {}),
        ...usedBy(results),
      };
    },
  ),
  // What comes next in a model's life, as its state allows: take it live, or stop it.
  next: [
    { word: 'start', label: 'Take it live', needs: ['model'], when: { live: false } },
    { word: 'stop', label: 'Stop it', needs: ['model'], when: { live: true } },
  ],
  approval: true,
};
