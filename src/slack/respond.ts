import type { Dispatcher } from 'undici';

const TIMEOUT_MS = 10_000;
/**
 * Connections per response_url origin (in Slack: one, hooks.slack.com). Unbounded, a burst of replies
 * opened one socket each (hundreds, with their buffers) when a few reused ones serve them as fast.
 */
const CONNECTIONS = 16;

type Undici = typeof import('undici');
let http: Promise<{ request: Undici['request']; dispatcher: Dispatcher }> | undefined;
// undici loads with the first reply: a bot that has not replied yet has not paid for it.
const undici = () =>
  (http ??= import('undici').then(({ Agent, request }) => ({
    request,
    dispatcher: new Agent({ connections: CONNECTIONS }),
  })));

/** A response_url Slack refused: expired, used up (5 uses in 30 minutes), or unknown. */
export class ResponseUrlError extends Error {
  constructor(readonly status: number) {
    super(`the response_url answered ${status}`);
    this.name = 'ResponseUrlError';
  }
}

/**
 * The bot's one way to post to a `response_url`: a JSON body, a non-2xx answer throws
 * `ResponseUrlError`. The URL is a capability: it is never logged.
 */
export async function postToResponseUrl(url: string, body: Record<string, unknown>): Promise<void> {
  const { request, dispatcher } = await undici();
  const res = await request(url, {
    method: 'POST',
    dispatcher,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS,
  });
  await res.body.dump();
  if (res.statusCode < 200 || res.statusCode > 299) throw new ResponseUrlError(res.statusCode);
}
