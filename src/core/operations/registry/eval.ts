import type { TimeRange } from '../../../time/index.js';
import { describeRange, toNanos } from '../../../time/index.js';
import type { evalFlowFields, FlowRecord } from '../../../wire/index.js';
import { returnedModel } from '../../catalog/returned-model.js';
import { typed } from '../../catalog/upserts.js';
import { idFrom, missingOutcome, ok, parseEntities, text, tooMany } from '../../grammar/args.js';
import { EXAMPLE_IDS as X } from '../../ids.js';
import type { OpSuccess } from '../../outcome.js';
import { serviceFailure } from '../../service-errors.js';
import { NAME, PICK_HINT, pick, rangesField } from './arguments.js';
import {
  ACTIVITY_VIEW_HINT,
  ASSESSMENT_OUTPUT,
  FLOW_CALL,
  type FlowBodyOf,
  flowOf,
  modelSeen,
  schemasOf,
  usedBy,
  usedOutputs,
} from './describe.js';
import { declareOutputs, flowTypeIs, type OperationEntry } from './entry.js';
import { findCommonModel } from './model-common.js';
import { isFailure, nameOr, resolveRange } from './ranges.js';

export interface EvalCommand {
  kind: 'eval';
  assessmentId: string;
  modelId: string;
  datastreamId: string;
  entities: string[];
  rangeText: string;
  name?: string;
}

export interface EvalRequest {
  kind: 'eval';
  name: string;
  assessmentId: string;
  modelId: string;
  datastreamId: string;
  entities: string[];
  range: TimeRange;
}

/** EVAL: a live model's output backfilled for a past range, the assessment's M[0] looked up first. */
const FLOW_TYPE = flowTypeIs('EVAL');

export const evalFlow: OperationEntry<
  EvalCommand,
  EvalRequest,
  FlowBodyOf<'EVAL', typeof evalFlowFields>,
  FlowRecord
> = {
  parsedKind: 'eval',
  operationKind: 'eval',
  command: {
    id: 'eval',
    words: ['eval'],
    summary:
      "Backfill a live model's output for a past time range (EVAL flow; the common model M[0] is looked up for you).",
    examples: [
      `/tsai eval ${X.assessment} model=${X.model} datastream=${X.datastream} entities=pump-1,pump-2 range="yesterday 09:00 to 17:00"`,
    ],
    mutating: true,
  },
  args: [
    {
      key: 'assessment',
      kind: 'id',
      required: true,
      help: 'The assessment whose live output is backfilled.',
      channelDefault: true,
      positional: true,
      field: pick(
        'assessment',
        'assessment',
        'Assessment',
        `For an anomaly model, the signal it assesses; its common model M[0] is looked up on submit. ${PICK_HINT}`,
      ),
    },
    {
      key: 'model',
      kind: 'id',
      required: true,
      help: "The assessment's live model.",
      noun: 'live model',
      channelDefault: true,
      field: pick(
        'model',
        'model',
        'Live model',
        `The assessment's live model; with an assessment chosen, its models are offered. ${PICK_HINT}`,
      ),
    },
    {
      key: 'datastream',
      kind: 'id',
      required: true,
      help: 'The datastream it reads.',
      channelDefault: true,
      field: pick('datastream', 'datastream', 'Datastream', PICK_HINT),
    },
    {
      key: 'entities',
      kind: 'entities',
      required: true,
      help: 'The entities to evaluate, comma-separated.',
      channelDefault: true,
      field: {
        name: 'entities',
        kind: { input: 'text', multiline: true },
        label: 'Entities',
        hint: 'Entity names, separated by commas or one per line, e.g. pump-7, pump-8',
        optional: false,
      },
    },
    {
      key: 'range',
      kind: 'range',
      required: true,
      help: 'One past time range, read in your zone.',
      freeText: true,
      oneRange: 'EVAL takes one time range; run one backfill per range.',
      field: rangesField(false),
    },
    NAME,
  ],
  form: {
    id: 'eval',
    title: 'Backfill model output',
    submit: 'Start backfill',
    notes: [
      {
        id: 'overwrite_warning',
        text:
          ':warning: *Output for time ranges that live monitoring already evaluated is overwritten.* ' +
          'Backfill only ranges the live model has not covered yet. Ranges must be in the past.',
      },
    ],
    fields: [
      { arg: 'assessment' },
      { arg: 'datastream' },
      { arg: 'model' },
      { arg: 'entities' },
      { arg: 'range' },
      { arg: 'name' },
    ],
    maxRanges: 1,
    shortcut: true,
  },
  role: 'User',
  parse(args, spec) {
    const assessmentId = idFrom(args, 'assessment', 'assessment', true);
    tooMany(args, 0, spec);
    const modelId = idFrom(args, 'model', 'live model', false);
    const datastreamId = idFrom(args, 'datastream', 'datastream', false);
    const entities = args.options.entities !== undefined ? parseEntities(args.options.entities) : undefined;
    const rangeText = args.options.range;
    const name = text(args, 'name');
    const missing: string[] = [];
    if (!assessmentId) missing.push('assessment');
    if (!modelId) missing.push('model');
    if (!datastreamId) missing.push('datastream');
    if (!entities) missing.push('entities');
    if (rangeText === undefined) missing.push('range');
    if (!assessmentId || !modelId || !datastreamId || !entities || rangeText === undefined) {
      return missingOutcome('eval', spec, missing, args, 'assessment', assessmentId);
    }
    return ok({ kind: 'eval', assessmentId, modelId, datastreamId, entities, rangeText, name }, spec);
  },
  resolve(command, ctx) {
    const range = resolveRange(command.rangeText, ctx);
    if (isFailure(range)) return range;
    const { rangeText: _, ...rest } = command;
    return { ok: true, operation: { ...rest, name: nameOr(command.name, 'eval', ctx), range } };
  },
  wire: {
    ...FLOW_CALL,
    version: '1.2',
    flowType: FLOW_TYPE,
    schemas: schemasOf((w) => ({
      body: w.flowBody(FLOW_TYPE.all, w.evalFlowFields),
      answer: { record: w.flowRecord },
    })),
  },
  async execute(req, { send, service, echo }) {
    let commonModelId: string;
    let m0Seen: OpSuccess['seen'];
    try {
      const m0 = await findCommonModel(service, req.assessmentId);
      if (!m0) {
        return {
          ok: false,
          message: `Assessment ${req.assessmentId} has no common model (M[0]), so there is no live output to backfill. Check the assessment ID.`,
        };
      }
      commonModelId = m0.id;
      m0Seen = modelSeen(m0);
    } catch (e) {
      return serviceFailure(e, `look up the common model of assessment ${req.assessmentId}`);
    }
    try {
      const flow = await send({
        body: {
          name: req.name,
          datastream: req.datastreamId,
          assessment: req.assessmentId,
          model: req.modelId,
          spec: {
            commonModelId,
            segments: [
              {
                entities: req.entities,
                timeRange: { startTime: toNanos(req.range.startNs), endTime: toNanos(req.range.endNs) },
              },
            ],
            forLive: true,
            withEpisodes: true,
          },
        },
      });
      return {
        ok: true,
        kind: 'service',
        visibility: 'channel',
        title: 'started an EVAL flow (backfill of live model output)',
        flow: flowOf(flow),
        seen: m0Seen,
        facts: [
          { label: 'Name', value: req.name, code: true },
          { label: 'Assessment', value: req.assessmentId, code: true },
          { label: 'Live model', value: req.modelId, code: true },
          { label: 'Common model M[0]', value: commonModelId, code: true },
          { label: 'Datastream', value: req.datastreamId, code: true },
          { label: req.entities.length === 1 ? 'Entity' : 'Entities', value: req.entities.join(', ') },
          {
            label: 'Time range',
            value: describeRange(req.range, echo.timeZone, echo.now ? { now: echo.now } : {}),
          },
        ],
        notes: [`Output for ranges already evaluated live is overwritten. ${ACTIVITY_VIEW_HINT}`],
      };
    } catch (e) {
      return serviceFailure(e, 'create the EVAL flow', { what: 'flow', name: req.name });
    }
  },
  catalog: (req, r) => ({
    add: [
      typed('assessment', req.assessmentId),
      typed('model', req.modelId, { assessment: req.assessmentId }),
      typed('datastream', req.datastreamId),
      ...returnedModel(r, 'service', { assessment: req.assessmentId }),
    ],
  }),
  // The range backfilled, and the live model and assessment it was for: what its next step takes.
  outputs: declareOutputs(
    [
      { name: 'backfilled', type: 'range', label: 'Backfilled', shown: {}, feeds: true },
      { name: 'model', type: 'id', label: 'Live model', shown: {}, feeds: 'model' },
      ASSESSMENT_OUTPUT,
      ...usedOutputs(false),
    ],
    ({ results, request }) => {
      const r = request.range;
      const ns = (iso: string) => BigInt(Date.parse(iso)) * 1_000_000n;
      const range = r?.startNs && r.endNs ? { startNs: ns(r.startNs), endNs: ns(r.endNs) } : undefined;
      return {
        ...(range ? { backfilled: range } : {}),
        ...(typeof request.modelId === 'string' ? { model: request.modelId } : {}),
        ...(typeof request.assessmentId === 'string' ? { assessment: request.assessmentId } : {}),
        ...usedBy(results),
      };
    },
  ),
  // Backfilling writes a live model's output for a past range: offered once the model is live.
  next: [{ label: 'Backfill its output', needs: ['model', 'assessment'], when: { live: true } }],
};
