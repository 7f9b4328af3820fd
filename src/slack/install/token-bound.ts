import type { webApi } from '@slack/bolt';
import { slackAuthError } from '../readiness.js';

/**
 * One installation's view of the bot's one Web API client: every call made through it carries the
 * installation's token, and one Slack refuses as no longer valid is reported (`refused`). The client, its
 * connections and its queue are shared by every installation, so an installation costs no client of its
 * own, however many there are; what is made for one is this small view, and only while it is used.
 */
export function tokenBound(
  client: webApi.WebClient,
  token: string,
  refused: (error: string) => void,
): webApi.WebClient {
  const withToken = <T>(made: Promise<T>): Promise<T> =>
    made.catch((e: unknown) => {
      const code = slackAuthError(e);
      if (code) refused(code);
      throw e;
    });
  const views = new WeakMap<object, object>();
  const view = (target: object): object => {
    const known = views.get(target);
    if (known) return known;
    const made = new Proxy(target, {
      get(t, key) {
        const v = Reflect.get(t, key) as unknown;
        if (key === 'apiCall' && typeof v === 'function')
          return (method: string, options?: Record<string, unknown>) =>
            withToken((v as webApi.WebClient['apiCall']).call(t, method, { ...options, token }));
        if (typeof v === 'function')
          return (options?: Record<string, unknown>) =>
            withToken(Promise.resolve((v as (o: unknown) => unknown).call(t, { ...options, token })));
        return v && typeof v === 'object' ? view(v) : v;
      },
    });
    views.set(target, made);
    return made;
  };
  return view(client) as webApi.WebClient;
}
