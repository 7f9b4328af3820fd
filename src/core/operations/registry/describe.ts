import type { output, ZodObject, ZodRawShape } from 'zod';
import type { Dataspec, FlowRecord, FlowResults } from '../../../api/index.js';
import { describeRanges, toIso } from '../../../time/index.js';
import { lazySchemas, type WireSchemas } from '../../../wire/call.js';
import type { Fact, OpOutcome, OpSuccess } from '../../outcome.js';
import { serviceFailure } from '../../service-errors.js';
import type { ResolvedData, ResolvedOutput } from '../requests.js';
import type { CompletedFlow, FlowOutputs, FormItem, RangeEcho } from './entry.js';

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

function named(x: { id: string; name?: string | undefined } | undefined) {
  return x ? { id: x.id, ...(x.name ? { name: x.name } : {}) } : undefined;
}

/** What a flow's record names besides what it yields: its first model and dataspec, for the catalog. */
export function usedBy(r: FlowResults): FlowOutputs['used'] {
  const model = named(r.models[0]);
  const dataspec = named(r.dataspecs[0]);
  return model || dataspec ? { ...(model ? { model } : {}), ...(dataspec ? { dataspec } : {}) } : undefined;
}

/** The workspace a request ran in, as stored. */
export function workspaceOf(request: { workspaceId?: unknown }): FlowOutputs['workspace'] {
  return typeof request.workspaceId === 'string' ? { id: request.workspaceId } : undefined;
}

/** ANOMALYLEARN yields a model (created, or taught more) and the dataspec it learned from. */
export function learnedOutputs({ results, request }: CompletedFlow<{ workspaceId: string }>): FlowOutputs {
  const model = results.models[0];
  const dataspec = named(results.dataspecs[0]);
  const workspace = workspaceOf(request);
  return {
    ...(model ? { model: { ...named(model)!, created: model.created !== false } } : {}),
    ...(dataspec ? { dataspec } : {}),
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
