// The one HTTP client the bot calls out with: the service's API (api/transport.ts) and Slack's
// response_urls (slack/respond.ts), each through a pooling Agent of its own.
//
// undici's package entry loads all of undici: fetch, WebSocket, EventSource, caches, mocks and their
// helpers, some 1.2 MB of source that the follow-up thread would keep in its heap for the life of the
// process (4.8 MB of heap against 1.9 MB for the two modules the bot uses: docs/performance.md).
// The bot uses two things, an Agent and `request`, so it loads those two of undici's own modules alone,
// on the first call. undici has no export map and the lockfile pins its version; test/http.test.ts fails
// if these files stop being the ones undici's entry exports.
import { createRequire } from 'node:module';
import type { Agent, Dispatcher } from 'undici';

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> & {
  method: Dispatcher.HttpMethod;
};

export interface PooledHttp {
  request(url: URL, options: RequestOptions): Promise<Dispatcher.ResponseData>;
  close(): Promise<void>;
}

/** Where undici's entry takes its Agent and its `request` from. */
export const UNDICI_PARTS = {
  agent: 'undici/lib/dispatcher/agent.js',
  api: 'undici/lib/api/index.js',
} as const;

type AgentClass = new (options?: Agent.Options) => Dispatcher;
type RequestMethod = (
  this: Dispatcher,
  options: Dispatcher.RequestOptions,
) => Promise<Dispatcher.ResponseData>;

/** A pool of keep-alive connections and a `request` through it, undici's own parts loaded on first use. */
export function pooledHttp(options: Agent.Options): PooledHttp {
  let agent: Dispatcher | undefined;
  let send: RequestMethod | undefined;
  const ready = () => {
    if (!agent || !send) {
      const require = createRequire(import.meta.url);
      const AgentImpl = require(UNDICI_PARTS.agent) as AgentClass;
      send = (require(UNDICI_PARTS.api) as { request: RequestMethod }).request;
      agent = new AgentImpl(options);
    }
    return { agent, send };
  };
  return {
    request(url, o) {
      const { agent, send } = ready();
      return send.call(agent, { ...o, origin: url.origin, path: `${url.pathname}${url.search}` });
    },
    async close() {
      await agent?.close();
    },
  };
}
