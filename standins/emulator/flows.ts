import type { Dataspec, FlowOutput } from '../../src/wire/index.js';
import { commonModelOf, knownAssessment } from './assessments.js';
import type { AnomalyEvalBody, AnomalyLearnBody, EvalFlowBody, LiveModelFlowBody } from './flow-types.js';
import { type Rec, SEED } from './seed.js';
import type { Store } from './store.js';

export type FlowBody = EvalFlowBody | LiveModelFlowBody | AnomalyLearnBody | AnomalyEvalBody;
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

/** Checks every ID the body refers to; throws a Refusal naming the first unknown or inconsistent one. */
export function checkReferences(store: Store, body: FlowBody): void {
  const need = (c: Parameters<Store['get']>[0], id: string, what: string): Rec => {
    const rec = store.get(c, id);
    if (!rec) throw new Refusal(404, `${what} ${id} not found`);
    return rec;
  };
  switch (body.flowType) {
    case 'EVAL': {
      const ds = need('datastreams', body.datastream, 'datastream');
      if (!knownAssessment(store, body.assessment))
        throw new Refusal(404, `assessment ${body.assessment} not found`);
      const live = need('models', body.model, 'model');
      if (live.assessment !== body.assessment)
        throw new Refusal(400, `model: model ${live.id} does not belong to assessment ${body.assessment}`);
      const common = need('models', body.spec.commonModelId, 'model');
      if (common.assessment !== body.assessment || common.isCommonModel !== true)
        throw new Refusal(
          400,
          `spec.commonModelId: model ${common.id} is not the common model M[0] of assessment ${body.assessment}`,
        );
      const known = new Set(ds.entities as string[]);
      body.spec.segments.forEach((seg, i) => {
        seg.entities.forEach((e, j) => {
          if (!known.has(e))
            throw new Refusal(
              400,
              `spec.segments[${i}].entities[${j}]: entity "${e}" is not in datastream ${ds.id}`,
            );
        });
      });
      return;
    }
    case 'STARTLIVEMODEL':
    case 'STOPLIVEMODEL':
      need('models', body.spec.model, 'model');
      return;
    case 'ANOMALYLEARN':
      need('workspaces', body.spec.workspace, 'workspace');
      if (body.spec.model) need('models', body.spec.model, 'model');
      checkDataspec(store, body.spec.dataspec);
      return;
    case 'ANOMALYEVAL': {
      need('workspaces', body.spec.workspace, 'workspace');
      const model = need('models', body.spec.model, 'model');
      checkDataspec(store, body.spec.dataspec);
      if (body.spec.outputsignals) {
        for (const o of body.spec.outputsignals)
          if (!store.get('signals', o.signal)) throw new Refusal(404, `signal ${o.signal} not found`);
        const schema = [...((model.outputSchema as string[]) ?? [])].sort();
        const given = body.spec.outputsignals.map((o) => o.name).sort();
        if (schema.join('\n') !== given.join('\n'))
          throw new Refusal(
            400,
            `spec.outputsignals: names must match the model's output schema exactly (${schema.join(', ')}), got (${given.join(', ')})`,
          );
      }
      return;
    }
  }
}

function checkDataspec(store: Store, ds: Dataspec): void {
  if ('id' in ds) {
    if (!store.get('dataspecs', ds.id)) throw new Refusal(404, `dataspec ${ds.id} not found`);
    return;
  }
  for (const spec of ds.specs)
    for (const s of spec.signals)
      if (!store.get('signals', s.signal)) throw new Refusal(404, `signal ${s.signal} not found`);
}

/** The record returned on create; EVAL gets every field the spec lists, including those added to spec. */
export function flowRecordFields(body: FlowBody): Omit<Rec, 'id'> {
  const base = { type: 'entities.flow', status: 'CREATED', ...body };
  if (body.flowType !== 'EVAL') return base;
  return {
    ...base,
    spec: {
      ...body.spec,
      isBatch: true,
      datastreamStats: {},
      model: body.model,
      assessmentRate: 1,
      config: {},
      inputList: [],
      forEpisode: body.spec.withEpisodes,
      tolerateNoData: false,
    },
  };
}

/** Applies a flow's completion effects; returns the fields to merge into the flow record. */
export function complete(store: Store, flow: Rec): Record<string, unknown> {
  const body = flow as unknown as FlowBody;
  switch (body.flowType) {
    case 'EVAL':
      return completed(
        body.spec.segments.map((seg) => ({
          type: 'segment',
          model: body.model,
          entities: seg.entities,
          timeRange: seg.timeRange,
        })),
      );
    case 'STARTLIVEMODEL':
    case 'STOPLIVEMODEL': {
      const model = store.get('models', body.spec.model);
      if (!model) return failed(`model ${body.spec.model} no longer exists`);
      const start = body.flowType === 'STARTLIVEMODEL';
      if (!start && model.live !== true)
        return failed(`model ${model.id} is not live, so it cannot be stopped`);
      const updated = store.update('models', model.id, { live: start });
      return completed([modelOutput(updated, false)]);
    }
    case 'ANOMALYLEARN':
      return completeLearn(store, flow.id, body);
    case 'ANOMALYEVAL':
      return completeEval(store, flow.id, body);
  }
}

function failed(message: string) {
  return { status: 'FAILED', message };
}

function completed(outputs: FlowOutput[]) {
  return { status: 'COMPLETED', outputs };
}

function modelOutput(model: Rec, created: boolean): FlowOutput {
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

function completeLearn(store: Store, flowId: string, body: AnomalyLearnBody) {
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

function completeEval(store: Store, flowId: string, body: AnomalyEvalBody) {
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
