import type { z } from 'zod';
import {
  anomalyEvalFields,
  anomalyLearnFields,
  evalFlowFields,
  flowBody,
  liveModelFlowFields,
} from '../../src/wire/index.js';
import { knownAssessment } from './assessments.js';
import {
  checkDataspec,
  completed,
  completeEval,
  completeLearn,
  failed,
  modelOutput,
  need,
  Refusal,
} from './flows.js';
import type { Role } from './people.js';
import type { Rec } from './seed.js';
import type { Store } from './store.js';

/**
 * The flow types the emulator serves, one entry each, as the service API specifies them: the version that
 * serves it (spec section 9), the body it checks (built from the same fields the bot's registry entries
 * send), the role it needs, the references it checks at creation, and what it does when it completes.
 * A new flow type is one entry here; the routes, the roles and the lifecycle read this table.
 */
export interface FlowTypeSpec<Body extends { flowType: string }> {
  version: '1.2' | '1.3';
  body: z.ZodType<Body>;
  /** The least role that may create it, and what a refusal calls it doing; any role when absent. */
  needs?: { role: Role; doing: string };
  /** Checks every ID the body refers to; throws a Refusal naming the first unknown or inconsistent one. */
  check(store: Store, body: Body): void;
  /** Applies its completion effects; returns the fields to merge into the flow record. */
  complete(store: Store, flow: Rec & Body): Record<string, unknown>;
  /** What the record returned on create holds besides the body and its status (EVAL's added spec fields). */
  record?(body: Body): Record<string, unknown>;
}

const evalBody = flowBody(['EVAL'], evalFlowFields);
const liveBody = flowBody(['STARTLIVEMODEL', 'STOPLIVEMODEL'], liveModelFlowFields);
const learnBody = flowBody(['ANOMALYLEARN'], anomalyLearnFields);
const anomalyEvalBody = flowBody(['ANOMALYEVAL'], anomalyEvalFields);

export type EvalFlowBody = z.infer<typeof evalBody>;
export type LiveModelFlowBody = z.infer<typeof liveBody>;
export type AnomalyLearnBody = z.infer<typeof learnBody>;
export type AnomalyEvalBody = z.infer<typeof anomalyEvalBody>;

/** STARTLIVEMODEL and STOPLIVEMODEL: the same body and checks; they differ in the state they set. */
function liveFlow(start: boolean, doing: string): FlowTypeSpec<LiveModelFlowBody> {
  return {
    version: '1.2',
    body: liveBody,
    // Live start and stop change what runs in production; every other flow only analyses.
    needs: { role: 'Manager', doing },
    check: (store, body) => void need(store, 'models', body.spec.model, 'model'),
    complete(store, flow) {
      const model = store.get('models', flow.spec.model);
      if (!model) return failed(`model ${flow.spec.model} no longer exists`);
      if (!start && model.live !== true)
        return failed(`model ${model.id} is not live, so it cannot be stopped`);
      return completed([modelOutput(store.update('models', model.id, { live: start }), false)]);
    },
  };
}

const EVAL: FlowTypeSpec<EvalFlowBody> = {
  version: '1.2',
  body: evalBody,
  check(store, body) {
    const ds = need(store, 'datastreams', body.datastream, 'datastream');
    if (!knownAssessment(store, body.assessment))
      throw new Refusal(404, `assessment ${body.assessment} not found`);
    const live = need(store, 'models', body.model, 'model');
    if (live.assessment !== body.assessment)
      throw new Refusal(400, `model: model ${live.id} does not belong to assessment ${body.assessment}`);
    const common = need(store, 'models', body.spec.commonModelId, 'model');
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
  },
  complete: (_store, flow) =>
    completed(
      flow.spec.segments.map((seg) => ({
        type: 'segment',
        model: flow.model,
        entities: seg.entities,
        timeRange: seg.timeRange,
      })),
    ),
  // The record of a created EVAL echoes the request and adds what the spec lists to `spec`.
  record: (body) => ({
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
  }),
};

const ANOMALYLEARN: FlowTypeSpec<AnomalyLearnBody> = {
  version: '1.3',
  body: learnBody,
  check(store, body) {
    need(store, 'workspaces', body.spec.workspace, 'workspace');
    if (body.spec.model) need(store, 'models', body.spec.model, 'model');
    checkDataspec(store, body.spec.dataspec);
  },
  complete: (store, flow) => completeLearn(store, flow.id, flow),
};

const ANOMALYEVAL: FlowTypeSpec<AnomalyEvalBody> = {
  version: '1.3',
  body: anomalyEvalBody,
  check(store, body) {
    need(store, 'workspaces', body.spec.workspace, 'workspace');
    const model = need(store, 'models', body.spec.model, 'model');
    checkDataspec(store, body.spec.dataspec);
    if (!body.spec.outputsignals) return;
    for (const o of body.spec.outputsignals)
      if (!store.get('signals', o.signal)) throw new Refusal(404, `signal ${o.signal} not found`);
    const schema = [...((model.outputSchema as string[]) ?? [])].sort();
    const given = body.spec.outputsignals.map((o) => o.name).sort();
    if (schema.join('\n') !== given.join('\n'))
      throw new Refusal(
        400,
        `spec.outputsignals: names must match the model's output schema exactly (${schema.join(', ')}), got (${given.join(', ')})`,
      );
  },
  complete: (store, flow) => completeEval(store, flow.id, flow),
};

export const FLOW_TYPES = {
  EVAL,
  STARTLIVEMODEL: liveFlow(true, 'Starting a live model (a STARTLIVEMODEL flow)'),
  STOPLIVEMODEL: liveFlow(false, 'Stopping a live model (a STOPLIVEMODEL flow)'),
  ANOMALYLEARN,
  ANOMALYEVAL,
} as const;

export type FlowType = keyof typeof FLOW_TYPES;

/** A flow type's entry, as the routes and the lifecycle read it (its body checked by its own schema). */
export function flowTypeOf(name: unknown): FlowTypeSpec<{ flowType: string }> | undefined {
  return typeof name === 'string' && Object.hasOwn(FLOW_TYPES, name)
    ? (FLOW_TYPES[name as FlowType] as unknown as FlowTypeSpec<{ flowType: string }>)
    : undefined;
}

/** The flow types served at an API version, in the table's order. */
export function flowTypesAt(version: string): string[] {
  return Object.entries(FLOW_TYPES).flatMap(([name, t]) => (t.version === version ? [name] : []));
}
