import type {
  ServiceAccountClients,
  ServiceCalls,
  ServiceClient,
  ServiceClientOptions,
  TypedUrls,
} from './client.js';

/**
 * A service client that loads the real one (`createServiceClient`: undici, the wire schemas) on its first
 * call. The bot's main thread calls the service only when an approval or a form is acted on, so its
 * start, which Slack's first ack waits for, does not pay for those modules (docs/performance.md).
 */
export function createLazyServiceClient(o: ServiceClientOptions): ServiceClient {
  let real: Promise<ServiceClient> | undefined;
  const client = () => (real ??= import('./client.js').then((m) => m.createServiceClient(o)));
  return clientOnceMade(client, async () => {
    if (real) await (await real).close();
  });
}

/** `createServiceClients`, loaded on the first call of any account's client. */
export function createLazyServiceClients(
  o: Partial<ServiceClientOptions>,
  typed: TypedUrls,
): ServiceAccountClients {
  let real: Promise<ServiceAccountClients> | undefined;
  const clients = () => (real ??= import('./client.js').then((m) => m.createServiceClients(o, typed)));
  return {
    of(place) {
      let client: Promise<ServiceClient> | undefined;
      // Its connections are the shared ones, closed with them.
      return clientOnceMade(
        () => (client ??= clients().then((c) => c.of(place))),
        async () => undefined,
      );
    },
    close: async () => {
      if (real) await (await real).close();
    },
  };
}

/** A client whose every call, its own or a person's, waits for the real one `made` gives. */
function clientOnceMade(made: () => Promise<ServiceClient>, close: () => Promise<void>): ServiceClient {
  return { ...lazyCalls(made), as: (token) => lazyCalls(async () => (await made()).as(token)), close };
}

function lazyCalls(calls: () => Promise<ServiceCalls>): ServiceCalls {
  return {
    call: async (wire, input) => (await calls()).call(wire, input),
    getFlow: async (id) => (await calls()).getFlow(id),
  };
}
