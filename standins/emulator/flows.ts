import type { z } from 'zod';
import type {
  anomalyEvalFields,
  anomalyLearnFields,
  Dataspec,
  FlowOutput,
  flowBody,
} from '../../src/wire/index.js';
import { commonModelOf } from './assessments.js';
import { type Rec, SEED } from './seed.js';
import type { Collection, Store } from './store.js';

/**
 * What the flow types share (standins/emulator/flow-types.ts lists them, each with its checks and its
 * completion): a refusal at creation, the references checked, the outputs written on completion.
 */

type LearnBody = z.infer<ReturnType<typeof flowBody<['ANOMALYLEARN'], typeof anomalyLearnFields>>>;
type ScoreBody = z.infer<ReturnType<typeof flowBody<['ANOMALYEVAL'], typeof anomalyEvalFields>>>;

export interface FlowDelays {
  runningAfterMs: number;
  completedAfterMs: number;
}
/** A refusal at creation time: 404 for unknown IDs, 400 for a consistency error. */
export class Refusal extends Error {
  constructor(
    readonly status: 400 | 404,
    message: string,
  ) {
    super(message);
  }
}

/** The record a body refers to; a Refusal (404) naming it when the service does not know it. */
export function need(store: Store, c: Collection, id: string, what: string): Rec {
  const rec = store.get(c, id);
  if (!rec) throw new Refusal(404, `${what} ${id} not found`);
  return rec;
}

export function checkDataspec(store: Store, ds: Dataspec): void {
  if ('id' in ds) {
    if (!store.get('dataspecs', ds.id)) throw new Refusal(404, `dataspec ${ds.id} not found`);
    return;
  }
  for (const spec of ds.specs)
    for (const s of spec.signals)
      if (!store.get('signals', s.signal)) throw new Refusal(404, `signal ${s.signal} not found`);
}

export function failed(message: string) {
  return { status: 'FAILED', message };
}

export function completed(outputs: FlowOutput[]) {
  return { status: 'COMPLETED', outputs };
}

export function modelOutput(model: Rec, created: boolean): FlowOutput {
  return {
    type: 'entities.model',
    id: model.id,
    name: String(model.name ?? ''),
    created,
    live: model.live === true,
    ...(typeof model.assessment === 'string' ? { assessment: model.assessment } : {}),
  };
}

function dataspecOutput({ rec, created }: { rec: Rec; created: boolean }): FlowOutput {
  return { type: 'entities.dataspec', id: rec.id, name: String(rec.name ?? ''), created };
}

/** Inline dataspecs become a stored dataspec with its own ID; references are reused as they are. */
function materialise(store: Store, ds: Dataspec): { rec: Rec; created: boolean } | undefined {
  if ('id' in ds) {
    const rec = store.get('dataspecs', ds.id);
    return rec && { rec, created: false };
  }
  const rec = store.create('dataspecs', { type: 'entities.dataspec', name: ds.name, specs: ds.specs });
  return { rec, created: true };
}

export function completeLearn(store: Store, flowId: string, body: LearnBody) {
  const ws = store.get('workspaces', body.spec.workspace);
  const used = materialise(store, body.spec.dataspec);
  if (!ws || !used) return failed('the workspace or dataspec of this flow no longer exists');
  const ds = used.rec;
  const entry = { flow: flowId, dataspec: ds.id, specs: ds.specs };
  if (body.spec.model) {
    const model = store.get('models', body.spec.model);
    if (!model) return failed(`model ${body.spec.model} no longer exists`);
    const extended = store.update('models', model.id, {
      history: [...((model.history as unknown[]) ?? []), entry],
    });
    return completed([modelOutput(extended, false), dataspecOutput(used)]);
  }
  const built = store
    .all('models')
    .filter((m) => m.workspace === ws.id && m.modelType === 'anomaly')
    .map((m) => Number(m.index ?? 0));
  const index = Math.max(0, ...built) + 1;
  // For anomaly models the assessment is the signal: the model belongs to its first one, and is that
  // assessment's common model M[0] when the assessment has none yet (live output goes to M[0]).
  const firstSignal = ds.specs
    ? (ds.specs as { signals: { signal: string }[] }[])[0]?.signals[0]?.signal
    : undefined;
  const model = store.create('models', {
    type: 'entities.model',
    name: body.spec.modelName ?? `${String(ws.name)}/anomaly/M[${index}]`,
    modelType: 'anomaly',
    workspace: ws.id,
    assessment: firstSignal,
    isCommonModel: firstSignal !== undefined && commonModelOf(store, firstSignal) === undefined,
    index,
    live: false,
    outputSchema: [...SEED.anomalyOutputSchema],
    history: [entry],
  });
  return completed([modelOutput(model, true), dataspecOutput(used)]);
}

export function completeEval(store: Store, flowId: string, body: ScoreBody) {
  const used = materialise(store, body.spec.dataspec);
  if (!used || !store.get('models', body.spec.model))
    return failed('the model or dataspec of this flow no longer exists');
  const outputSignals = body.spec.outputsignals
    ? body.spec.outputsignals.map((o) => ({
        signal: o.signal,
        name: String(store.get('signals', o.signal)?.name ?? o.name),
        output: o.name,
        created: false,
      }))
    : SEED.anomalyOutputSchema.map((output) => {
        const signal = store.create('signals', {
          type: 'entities.signal',
          name: `${body.spec.outputsignalPrefix}/${output}`,
          unit: '',
          datastream: SEED.datastream,
        });
        return { signal: signal.id, name: String(signal.name), output, created: true };
      });
  const evalRec = store.create('evals', {
    type: 'entities.eval',
    name: body.name,
    workspace: body.spec.workspace,
    model: body.spec.model,
    flow: flowId,
    inputSignalset: { dataspec: used.rec.id },
    outputSignalset: { signals: outputSignals.map((s) => s.signal) },
  });
  return completed([
    { type: 'entities.eval', id: evalRec.id, name: body.name, outputSignals },
    dataspecOutput(used),
  ]);
}
