import type { output, ZodObject, ZodRawShape } from 'zod';
import type { Dataspec, FlowRecord, FlowResults } from '../../../api/index.js';
import { describeRanges, toIso } from '../../../time/index.js';
import { lazySchemas, type WireSchemas } from '../../../wire/call.js';
import { ASSESSMENT, DATASPEC, FLAG, ID_OUTPUT, MODEL, RESOURCE, WORKSPACE } from '../../kinds/index.js';
import type { Fact, OpOutcome, OpSuccess } from '../../outcome.js';
import { serviceFailure } from '../../service-errors.js';
import type { ResolvedData, ResolvedOutput } from '../requests.js';
import { declareOutputs, type Finished, type FormItem, type OutputSpec, type RangeEcho } from './entry.js';

export type { RangeEcho } from './entry.js';

/** What the entries share to describe a result: facts about data and outputs, and the service's records. */

/** A Slack section field holds 2,000 characters; the ranges' echo stays under that. */
const RANGES_FACT_CHARS = 1900;

export const ACTIVITY_VIEW_HINT = "Track its progress in the service's Activity view.";

export function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

export function modelSeen(m: { id: string; name?: unknown; workspace?: unknown }): OpSuccess['seen'] {
  return {
    id: m.id,
    ...(str(m.name) ? { name: str(m.name)! } : {}),
    ...(str(m.workspace) ? { workspace: str(m.workspace)! } : {}),
  };
}

export function flowOf(record: FlowRecord): { id: string; status: string } {
  return { id: record.id, status: str(record.status) ?? 'unknown' };
}

export function toDataspec(data: ResolvedData): Dataspec {
  if (data.kind === 'dataspec') return { id: data.dataspecId };
  return {
    name: data.dataspecName,
    specs: [
      {
        timeRanges: data.ranges.map((r) => ({ startTime: toIso(r.startNs), endTime: toIso(r.endNs) })),
        signals: data.signals.map((s) => ({ signal: s.signal, name: s.name })),
      },
    ],
  };
}

export function dataFacts(data: ResolvedData, echo: RangeEcho): Fact[] {
  if (data.kind === 'dataspec') return [{ label: 'Dataspec', value: data.dataspecId, code: true }];
  return [
    {
      label: data.signals.length === 1 ? 'Signal' : 'Signals',
      value: data.signals.map((s) => (s.name === s.signal ? s.signal : `${s.signal} (${s.name})`)).join('\n'),
    },
    {
      label: data.ranges.length === 1 ? 'Time range' : 'Time ranges',
      value: describeRanges(data.ranges, echo.timeZone, {
        maxChars: RANGES_FACT_CHARS,
        ...(echo.now ? { now: echo.now } : {}),
      }),
    },
  ];
}

export function outputFacts(output: ResolvedOutput): Fact[] {
  if (output.kind === 'prefix') {
    return [{ label: 'Outputs', value: `new signals named ${output.prefix}/<output name>` }];
  }
  return [
    {
      label: 'Outputs',
      value: output.signals
        .map((s) => (s.name === s.signal ? s.signal : `${s.name} → ${s.signal}`))
        .join('\n'),
    },
  ];
}

/** What a flow run on an existing model names first: the flow, the model and its workspace. */
export function modelRunFacts(req: { name: string; modelId: string; workspaceId: string }): Fact[] {
  return [
    { label: 'Name', value: req.name, code: true },
    { label: 'Model', value: req.modelId, code: true },
    { label: 'Workspace', value: req.workspaceId, code: true },
  ];
}

export function described(description: string | undefined): Fact[] {
  return description ? [{ label: 'Description', value: description }] : [];
}

/** The wire schemas, as a call's `schemas` loads them. */
export type Wire = typeof import('../../../wire/index.js');

/** A call's schemas, picked from the wire schemas when it is first made (never at start). */
export function schemasOf<Body, Answer>(
  pick: (wire: Wire) => WireSchemas<Body, Answer>,
): () => Promise<WireSchemas<Body, Answer>> {
  return lazySchemas(async () => pick(await import('../../../wire/index.js')));
}

/** Every flow is created by a POST to the account's flows, answered with the flow's record. */
export const FLOW_CALL = {
  method: 'POST',
  path: '/flows',
  label: '{flowType} flow',
  what: 'an object the flow refers to',
} as const;

/** A flow body's type: its flow type, then the fields its schema in wire/ holds. */
export type FlowBodyOf<F extends string, Fields extends ZodRawShape> = { flowType: F } & output<
  ZodObject<Fields>
>;

/** The data of an anomaly flow in its form: new signals and ranges, or an existing dataspec. */
export const DATA_FORM: readonly FormItem[] = [
  { header: 'Data', id: 'data_header' },
  { choice: 'data' },
  { arg: 'signals' },
  { arg: 'range' },
  { arg: 'dataspec-name' },
  { arg: 'dataspec' },
];

const named = (x: { id: string; name?: string | undefined } | undefined) =>
  x ? { id: x.id, ...(x.name ? { name: x.name } : {}) } : undefined;

/** The workspace a flow ran in: handed on and recorded, not shown (its request names it). */
export const WORKSPACE_OUTPUT = {
  name: 'workspace',
  type: ID_OUTPUT,
  label: 'Workspace',
  shown: 'hidden',
  feeds: 'workspace',
  catalog: { kind: WORKSPACE },
} as const satisfies OutputSpec;

/** The assessment a model belongs to (for an anomaly model, its signal): what a backfill of it takes. */
export const ASSESSMENT_OUTPUT = {
  name: 'assessment',
  type: ID_OUTPUT,
  label: 'Assessment',
  shown: 'hidden',
  feeds: 'assessment',
  catalog: { kind: ASSESSMENT },
} as const satisfies OutputSpec;

/** The workspace a request ran in, as stored. */
export function workspaceOf(request: { workspaceId?: unknown }): string | undefined {
  return typeof request.workspaceId === 'string' ? request.workspaceId : undefined;
}

/**
 * What a flow's record names besides what it yields (the model and dataspec a scoring used): recorded in
 * the catalog, neither shown nor handed on. `inWorkspace`: the entry declares the flow's workspace, which
 * the dataspec is linked to.
 */
export function usedOutputs<const W extends boolean>(inWorkspace: W) {
  return [
    {
      name: 'used_model',
      type: RESOURCE,
      label: 'Model used',
      shown: 'hidden',
      feeds: false,
      catalog: { kind: MODEL },
    },
    {
      name: 'used_dataspec',
      type: RESOURCE,
      label: 'Dataspec used',
      shown: 'hidden',
      feeds: false,
      catalog: {
        kind: DATASPEC,
        links: inWorkspace ? { model: 'used_model', workspace: 'workspace' } : { model: 'used_model' },
      },
    },
  ] as const satisfies readonly OutputSpec[];
}

/** What a flow's record names: its first model and dataspec, for the catalog. */
export function usedBy(r: FlowResults | undefined): { used_model?: Named; used_dataspec?: Named } {
  const model = named(r?.models[0]);
  const dataspec = named(r?.dataspecs[0]);
  return { ...(model ? { used_model: model } : {}), ...(dataspec ? { used_dataspec: dataspec } : {}) };
}

type Named = { id: string; name?: string };

/** The workspace a create or a lookup named, for a later step. */
export const workspaceReturned = declareOutputs(
  [{ name: 'workspace', type: RESOURCE, label: 'Workspace', shown: {}, feeds: 'workspace' }],
  ({ returned, request }: Finished<Record<string, unknown>>) => {
    const name = returned?.name ?? str(request.name);
    return returned ? { workspace: { id: returned.id, ...(name ? { name } : {}) } } : {};
  },
);

/** The model a move or a lookup named, and the workspace it is in (the service's word, else the request's). */
export const MODEL_RETURNED = [
  { name: 'model', type: RESOURCE, label: 'Model', shown: {}, feeds: 'model' },
  { name: 'workspace', type: ID_OUTPUT, label: 'Workspace', shown: {}, feeds: 'workspace' },
] as const satisfies readonly OutputSpec[];

export function modelReturnedValues({ returned, request }: Finished<Record<string, unknown>>) {
  const workspace = returned?.workspace ?? workspaceOf(request);
  return returned ? { model: named(returned)!, ...(workspace ? { workspace } : {}) } : {};
}

export const modelReturned = declareOutputs(MODEL_RETURNED, modelReturnedValues);

/**
 * What an ANOMALYLEARN yields, new model or taught more (`heading`: how its end notice names the model):
 * the model, linked in the catalog to the workspace only when the flow created it there; the dataspec it
 * learned from; the model's assessment (for an anomaly model, its signal) and whether it is live, which
 * decide what comes next in its life (score it, take it live, backfill it once live).
 */
export function learnedOutputs(o: { created: boolean; heading: string }) {
  return declareOutputs(learnedDeclared(o), learnedValues);
}

/** What an ANOMALYLEARN's outputs are declared as (for an entry that yields a learned model and more). */
export function learnedDeclared(o: { created: boolean; heading: string }) {
  return [
    {
      name: 'model',
      type: RESOURCE,
      label: 'Model',
      shown: { heading: o.heading },
      feeds: 'model',
      catalog: {
        kind: MODEL,
        links: o.created
          ? { workspace: 'workspace', assessment: 'assessment' }
          : { assessment: 'assessment' },
      },
    },
    {
      name: 'dataspec',
      type: RESOURCE,
      label: 'Dataspec',
      shown: {},
      feeds: 'dataspec',
      catalog: { kind: DATASPEC, links: { model: 'model', workspace: 'workspace' } },
    },
    { ...ASSESSMENT_OUTPUT, shown: { heading: 'Assessment (its signal)' } },
    { name: 'live', type: FLAG, label: 'Model is live', shown: 'hidden', feeds: true },
    WORKSPACE_OUTPUT,
  ] as const satisfies readonly OutputSpec[];
}

/** What an ANOMALYLEARN's record and request give its declared outputs. */
export function learnedValues({ results, request }: Finished<{ workspaceId?: string }>) {
  const model = results?.models[0];
  const workspace = workspaceOf(request);
  return {
    ...(model ? { model: named(model)! } : {}),
    ...(results?.dataspecs[0] ? { dataspec: named(results.dataspecs[0])! } : {}),
    ...(model?.assessment ? { assessment: model.assessment } : {}),
    ...(typeof model?.live === 'boolean' ? { live: model.live } : {}),
    ...(workspace ? { workspace } : {}),
  };
}

/**
 * The `execute` of an entry that starts a flow: the body sent (its name and description, and the spec),
 * the flow it started shown with its facts, or the service's refusal explained. `flowWhat`: the flow as
 * a failure names it ("the ANOMALYEVAL flow").
 */
export async function startFlow<Spec>(
  send: (input: { body: { name: string; description?: string; spec: Spec } }) => Promise<FlowRecord>,
  req: { name: string; description?: string },
  o: { spec: Spec; title: string; flowWhat: string; facts: () => Fact[] },
): Promise<OpOutcome> {
  try {
    const flow = await send({
      body: { name: req.name, ...(req.description ? { description: req.description } : {}), spec: o.spec },
    });
    return {
      ok: true,
      kind: 'service',
      visibility: 'channel',
      title: o.title,
      flow: flowOf(flow),
      facts: o.facts(),
    };
  } catch (e) {
    return serviceFailure(e, `create ${o.flowWhat}`, { what: 'flow', name: req.name });
  }
}
