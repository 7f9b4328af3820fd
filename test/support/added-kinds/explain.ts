import { z } from 'zod';
import { missingOutcome, ok, readArgs } from '../../../src/core/grammar/args.js';
import type { SignalRef } from '../../../src/core/grammar/types.js';
import { EXAMPLE_IDS as X } from '../../../src/core/ids.js';
import { ID, ID_OUTPUT, IDS, MODEL, RANGE, RESOURCES, SIGNAL } from '../../../src/core/kinds/index.js';
import { NAME, PICK_HINT, pick, rangesField } from '../../../src/core/operations/registry/arguments.js';
import { typed } from '../../../src/core/operations/registry/catalog-change.js';
import { FLOW_CALL, startFlow } from '../../../src/core/operations/registry/describe.js';
import {
  type Argument,
  declareOutputs,
  flowTypeIs,
  type OperationEntry,
} from '../../../src/core/operations/registry/entry.js';
import { resolveNamedRange } from '../../../src/core/operations/registry/ranges.js';
import { describeRange, type TimeRange, toNanos } from '../../../src/time/index.js';
import {
  type FlowRecord,
  flowBody,
  flowRecord,
  idString,
  nameString,
  nanosString,
} from '../../../src/wire/index.js';
import { DURATION } from './duration.js';
import { ENTITY } from './entity.js';
import { RANKED, type Ranked } from './ranked.js';

/**
 * An operation the bot does not ship, declared by a test with kinds the bot does not ship either: a
 * duration (`window=6h`, a new kind of argument), entities given by name (a new kind of resource, which
 * the catalog learns from the names its own outputs give), and the signals that contributed most to a
 * model's anomalies, ranked (a new type of output). Its entry, its list line (`operations` below) and its
 * wire schema (`explainBody`) are all there is of it: no file of src/ names it or its kinds.
 */

/** Two entities of the test's service: their IDs, and the names its flows give them. */
export const ENTITIES = {
  pump: { id: '1490000000000000061', name: 'pump-1' },
  compressor: { id: '1490000000000000062', name: 'compressor-2' },
} as const;

export interface ExplainCommand {
  kind: 'test-explain';
  modelId: string;
  entities: string[];
  windowSeconds: number;
  rangeText: string;
  name?: string;
}

export interface ExplainRequest {
  kind: 'test-explain';
  name: string;
  modelId: string;
  entities: string[];
  windowSeconds: number;
  range: TimeRange;
}

// The grammar learns its parsed command as it learns the shipped ones: by declaration merging.
declare module '../../../src/core/grammar/types.js' {
  interface ServiceCommands {
    explainInTests: ExplainCommand;
  }
}

const FLOW_TYPE = flowTypeIs('ANOMALYEXPLAIN');

/** Its body: what the bot sends and what the test's service checks. */
export const explainBody = flowBody(FLOW_TYPE.all, {
  name: nameString,
  spec: z.strictObject({
    model: idString,
    entities: z.array(idString).min(1),
    windowSeconds: z.number().int().positive(),
    timeRange: z.strictObject({ startTime: nanosString, endTime: nanosString }),
  }),
});

const EXPLAIN_ARGS: readonly Argument[] = [
  {
    key: 'model',
    kind: ID,
    lookup: { names: MODEL },
    required: true,
    help: 'The anomaly model whose anomalies are explained.',
    positional: true,
    field: pick('model', 'Anomaly model', PICK_HINT),
  },
  {
    key: 'entities',
    kind: IDS,
    lookup: { names: ENTITY, list: true },
    required: true,
    help: 'The entities to look at, comma-separated.',
    noun: 'entity',
    field: pick('entities', 'Entities', `The entities to look at. ${PICK_HINT}`),
  },
  {
    key: 'window',
    kind: DURATION,
    required: true,
    help: 'How long before each anomaly to look for its causes.',
    noun: 'look-back window',
    example: '6h',
    field: { label: 'Look-back window', hint: 'e.g. 6h, 90m or 1h30m', placeholder: '6h', optional: false },
  },
  {
    key: 'range',
    kind: RANGE,
    required: true,
    help: 'The anomalies of this past range, read in your zone.',
    freeText: true,
    oneRange: 'It explains one range at a time.',
    field: rangesField(false),
  },
  NAME,
];

/** What the test's service writes in a finished flow's record: `entities.explanation`, with two lists. */
const ranked = (v: unknown): Ranked[] =>
  (Array.isArray(v) ? v : []).flatMap((x) =>
    x && typeof x === 'object' && typeof x.signal === 'string' && typeof x.score === 'number'
      ? [{ id: x.signal, ...(typeof x.name === 'string' ? { name: x.name } : {}), score: x.score }]
      : [],
  );
const named = (v: unknown) =>
  (Array.isArray(v) ? v : []).flatMap((x) =>
    x && typeof x === 'object' && typeof x.id === 'string'
      ? [{ id: x.id as string, ...(typeof x.name === 'string' ? { name: x.name as string } : {}) }]
      : [],
  );

export const explain: OperationEntry<
  ExplainCommand,
  ExplainRequest,
  z.infer<typeof explainBody>,
  FlowRecord
> = {
  parsedKind: 'test-explain',
  operationKind: 'test-explain',
  command: {
    id: 'explain',
    words: ['explain'],
    summary:
      "Rank the signals that contributed most to a model's anomalies on some entities (ANOMALYEXPLAIN).",
    examples: [
      `/tsai explain ${X.model} entities=${ENTITIES.pump.id},${ENTITIES.compressor.id} window=6h range="last week"`,
    ],
    mutating: true,
  },
  args: EXPLAIN_ARGS,
  form: {
    id: 'test-explain',
    title: 'Explain anomalies',
    submit: 'Explain',
    fields: [{ arg: 'model' }, { arg: 'entities' }, { arg: 'window' }, { arg: 'range' }, { arg: 'name' }],
    maxRanges: 1,
  },
  role: 'User',
  parse(args, spec) {
    const { values: v, missing } = readArgs(args, spec, EXPLAIN_ARGS);
    const modelId = v.model as string | undefined;
    if (missing.length > 0) return missingOutcome('test-explain', spec, missing, args, 'model', modelId);
    return ok(
      {
        kind: 'test-explain',
        modelId: modelId!,
        entities: (v.entities as SignalRef[]).map((e) => e.signal),
        windowSeconds: v.window as number,
        rangeText: v.range as string,
        name: v.name as string | undefined,
      },
      spec,
    );
  },
  resolve(command, ctx) {
    const resolved = resolveNamedRange('explain')(command, ctx);
    if (!resolved.ok) return resolved;
    // A rule across two arguments, which neither kind can check: said of the one to change.
    const { range } = resolved.operation;
    if (BigInt(command.windowSeconds) * 1_000_000_000n >= range.endNs - range.startNs)
      return {
        ok: false,
        message: 'The look-back window is as long as the range it explains, or longer: give a shorter one.',
        argument: 'window',
        example: 'window=6h',
      };
    return resolved;
  },
  wire: {
    ...FLOW_CALL,
    version: '1.3',
    flowType: FLOW_TYPE,
    schemas: async () => ({ body: explainBody, answer: { record: flowRecord } }),
  },
  execute: (req, { send, echo }) =>
    startFlow(send, req, {
      spec: {
        model: req.modelId,
        entities: req.entities,
        windowSeconds: req.windowSeconds,
        timeRange: { startTime: toNanos(req.range.startNs), endTime: toNanos(req.range.endNs) },
      },
      title: 'started an ANOMALYEXPLAIN flow',
      flowWhat: 'the ANOMALYEXPLAIN flow',
      facts: () => [
        { label: 'Name', value: req.name, code: true },
        { label: 'Model', value: req.modelId, code: true },
        { label: 'Entities', value: req.entities.join(', '), code: true },
        { label: 'Look-back window', value: `${req.windowSeconds} s` },
        { label: 'Time range', value: describeRange(req.range, echo.timeZone) },
      ],
    }),
  catalog: (req) => ({ add: [typed(MODEL, req.modelId), ...req.entities.map((e) => typed(ENTITY, e))] }),
  // The signals that contributed most (a new type), and the entities it looked at, named by the service:
  // both recorded in the catalog with those names, so that the entities can be typed by name next time.
  outputs: declareOutputs(
    [
      {
        name: 'contributors',
        type: RANKED,
        label: 'Contributing signals',
        shown: { heading: 'Signals that contributed most' },
        feeds: true,
        catalog: { kind: SIGNAL },
      },
      {
        name: 'entities',
        type: RESOURCES,
        label: 'Entities',
        shown: {},
        feeds: true,
        catalog: { kind: ENTITY },
      },
      { name: 'model', type: ID_OUTPUT, label: 'Model', shown: 'hidden', feeds: 'model' },
    ],
    ({ results, request }) => {
      const made = results?.others.find((o) => o.type === 'entities.explanation');
      const contributors = ranked(made?.fields?.contributors);
      const entities = named(made?.fields?.entities);
      return {
        ...(contributors.length ? { contributors } : {}),
        ...(entities.length ? { entities } : {}),
        ...(typeof request.modelId === 'string' ? { model: request.modelId } : {}),
      };
    },
  ),
};

/** What the bot's setup reads from this module (`BotSetup.operations`), on each of its threads. */
export const operations = [explain];
