import type { TimeRange } from '../../../time/index.js';
import { describeRange, toNanos } from '../../../time/index.js';
import type { evalFlowFields, FlowRecord } from '../../../wire/index.js';
import { missingOutcome, ok, readArgs } from '../../grammar/args.js';
import { EXAMPLE_IDS as X } from '../../ids.js';
import { ASSESSMENT, DATASTREAM, ID_OUTPUT, MODEL, NAMES, RANGE, RANGE_OUTPUT } from '../../kinds/index.js';
import type { OpSuccess } from '../../outcome.js';
import { serviceFailure } from '../../service-errors.js';
import { NAME, PICK_HINT, pick, RANGE_ALIASES, rangesField, resourceArg } from './arguments.js';
import { returnedModel, typed } from './catalog-change.js';
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
import { type Argument, declareOutputs, flowTypeIs, type OperationEntry } from './entry.js';
import { findCommonModel } from './model-common.js';
import { resolveNamedRange } from './ranges.js';

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

const EVAL_ARGS: readonly Argument[] = [
  resourceArg(ASSESSMENT, 'assessment', 'The assessment whose live output is backfilled.', {
    channelDefault: true,
    positional: true,
    field: pick(
      'assessment',
      'Assessment',
      `For an anomaly model, the signal it assesses; its common model M[0] is looked up on submit. ${PICK_HINT}`,
    ),
  }),
  resourceArg(MODEL, 'model', "The assessment's live model.", {
    noun: 'live model',
    channelDefault: true,
    field: pick(
      'model',
      'Live model',
      `The assessment's live model; with an assessment chosen, its models are offered. ${PICK_HINT}`,
    ),
  }),
  resourceArg(DATASTREAM, 'datastream', 'The datastream it reads.', {
    channelDefault: true,
    field: pick('datastream', 'Datastream', PICK_HINT),
  }),
  {
    key: 'entities',
    aliases: ['entity'],
    kind: NAMES,
    required: true,
    help: 'The entities to evaluate, comma-separated.',
    noun: 'entity',
    example: 'pump-1,pump-2',
    said: ['entities', 'entity'],
    channelDefault: true,
    field: {
      name: 'entities',
      label: 'Entities',
      hint: 'Entity names, separated by commas or one per line, e.g. pump-7, pump-8',
      optional: false,
    },
  },
  {
    key: 'range',
    aliases: RANGE_ALIASES,
    kind: RANGE,
    required: true,
    help: 'One past time range, read in your zone.',
    freeText: true,
    oneRange: 'EVAL takes one time range; run one backfill per range.',
    field: rangesField(false),
  },
  NAME,
];

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

    // `run the model` is also scoring's: a sentence that says only that is asked about, never guessed.
    said: [{ phrases: ['backfill', 'fill in the output', 'eval', 'run the model', 'apply the model'] }],
  },
  args: EVAL_ARGS,
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
    const { values: v, missing } = readArgs(args, spec, EVAL_ARGS);
    const assessmentId = v.assessment as string | undefined;
    if (missing.length > 0) return missingOutcome('eval', spec, missing, args, 'assessment', assessmentId);
    return ok(
      {
        kind: 'eval',
        assessmentId: assessmentId!,
        modelId: v.model as string,
        datastreamId: v.datastream as string,
        entities: v.entities as string[],
        rangeText: v.range as string,
        name: v.name as string | undefined,
      },
      spec,
    );
  },
  resolve: resolveNamedRange('eval'),
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
      typed(ASSESSMENT, req.assessmentId),
      typed(MODEL, req.modelId, { assessment: req.assessmentId }),
      typed(DATASTREAM, req.datastreamId),
      ...returnedModel(r, 'service', { assessment: req.assessmentId }),
    ],
  }),
  // The range backfilled, and the live model and assessment it was for: what its next step takes.
  outputs: declareOutputs(
    [
      { name: 'backfilled', type: RANGE_OUTPUT, label: 'Backfilled', shown: {}, feeds: true },
      { name: 'model', type: ID_OUTPUT, label: 'Live model', shown: {}, feeds: 'model' },
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
