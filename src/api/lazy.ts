import type { ServiceClient, ServiceClientOptions } from './client.js';

/**
 * A service client that loads the real one (`createServiceClient`: undici, the wire schemas) on its first
 * call. The bot's main thread calls the service only when an approval or a form is acted on, so its
 * start, which Slack's first ack waits for, does not pay for those modules (docs/performance.md).
 */
export function createLazyServiceClient(o: ServiceClientOptions): ServiceClient {
  let real: Promise<ServiceClient> | undefined;
  const client = () => (real ??= import('./client.js').then((m) => m.createServiceClient(o)));
  return {
    createWorkspace: async (input) => (await client()).createWorkspace(input),
    getWorkspace: async (id) => (await client()).getWorkspace(id),
    moveModel: async (modelId, workspaceId) => (await client()).moveModel(modelId, workspaceId),
    findCommonModel: async (id) => (await client()).findCommonModel(id),
    createEvalFlow: async (input) => (await client()).createEvalFlow(input),
    startLiveModel: async (input) => (await client()).startLiveModel(input),
    stopLiveModel: async (input) => (await client()).stopLiveModel(input),
    anomalyLearn: async (input) => (await client()).anomalyLearn(input),
    anomalyLearnIncremental: async (input) => (await client()).anomalyLearnIncremental(input),
    anomalyEval: async (input) => (await client()).anomalyEval(input),
    getFlow: async (id) => (await client()).getFlow(id),
    close: async () => {
      if (real) await (await real).close();
    },
  };
}
