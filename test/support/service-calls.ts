import type { ServiceCalls, ServiceClient } from '../../src/api/index.js';
import { anomalyEval } from '../../src/core/operations/registry/anomaly-eval.js';
import { anomalyLearn } from '../../src/core/operations/registry/anomaly-learn.js';
import { anomalyRelearn } from '../../src/core/operations/registry/anomaly-relearn.js';
import { evalFlow } from '../../src/core/operations/registry/eval.js';
import { liveModel } from '../../src/core/operations/registry/live-model.js';
import { findCommonModel } from '../../src/core/operations/registry/model-common.js';
import { modelMove } from '../../src/core/operations/registry/model-move.js';
import { workspaceCreate } from '../../src/core/operations/registry/workspace-create.js';
import { workspaceShow } from '../../src/core/operations/registry/workspace-show.js';
import type { BodyOf } from '../../src/wire/call.js';
import type { CreateWorkspaceBody } from '../../src/wire/index.js';

type EvalFlowBody = BodyOf<typeof evalFlow.wire>;
type AnomalyLearnBody = BodyOf<typeof anomalyLearn.wire>;
type AnomalyEvalBody = BodyOf<typeof anomalyEval.wire>;

type Input<B> = Omit<B, 'flowType'>;

/**
 * The service's calls by name, for the client's own tests: each sends a registry entry's declared call
 * through the one generic `call`, as the bot does, with the body as the test writes it (the flow type
 * put in as the entry's `execute` path does).
 */
export function namedCalls(c: ServiceCalls) {
  return {
    createWorkspace: (input: CreateWorkspaceBody) => c.call(workspaceCreate.wire, { body: input }),
    getWorkspace: (workspaceId: string) => c.call(workspaceShow.wire, { ids: { workspace: workspaceId } }),
    moveModel: (modelId: string, workspaceId: string) =>
      c.call(modelMove.wire, { ids: { model: modelId }, body: { workspace: workspaceId } }),
    findCommonModel: (assessmentId: string) => findCommonModel(c, assessmentId),
    createEvalFlow: (input: Input<EvalFlowBody>) =>
      c.call(evalFlow.wire, { body: { flowType: 'EVAL', ...input } }),
    startLiveModel: (input: { name: string; model: string }) =>
      c.call(liveModel.wire, {
        body: { flowType: 'STARTLIVEMODEL', name: input?.name, spec: { model: input?.model } },
      }),
    stopLiveModel: (input: { name: string; model: string }) =>
      c.call(liveModel.wire, {
        body: { flowType: 'STOPLIVEMODEL', name: input?.name, spec: { model: input?.model } },
      }),
    anomalyLearn: (input: Input<AnomalyLearnBody>) =>
      c.call(anomalyLearn.wire, { body: { flowType: 'ANOMALYLEARN', ...input } }),
    anomalyLearnIncremental: (input: Input<AnomalyLearnBody>) =>
      c.call(anomalyRelearn.wire, { body: { flowType: 'ANOMALYLEARN', ...input } }),
    anomalyEval: (input: Input<AnomalyEvalBody>) =>
      c.call(anomalyEval.wire, { body: { flowType: 'ANOMALYEVAL', ...input } }),
    getFlow: (flowId: string) => c.getFlow(flowId),
    call: c.call.bind(c),
  };
}

export type NamedCalls = ReturnType<typeof namedCalls>;

export interface NamedClient extends NamedCalls {
  as(token: string): NamedCalls;
  close(): Promise<void>;
  /** The client as the bot holds it. */
  client: ServiceClient;
}

/** A client whose calls can also be made by name (`namedCalls`). */
export function named(client: ServiceClient): NamedClient {
  return {
    ...namedCalls(client),
    as: (token) => namedCalls(client.as(token)),
    close: () => client.close(),
    client,
  };
}
