import type { RespondArguments } from '@slack/bolt';
import type { Respond } from './deps.js';

const TIMEOUT_MS = 10_000;
/**
 * Connections per response_url origin (in Slack: one, hooks.slack.com). Unbounded, a burst of replies
 * opened one socket each (hundreds, with their buffers) when a few reused ones serve them as fast.
 */
const CONNECTIONS = 16;

type Undici = typeof import('undici');
let http: Promise<{ request: Undici['request']; dispatcher: import('undici').Agent }> | undefined;
const undici = () =>
  (http ??= import('undici').then(({ Agent, request }) => ({
    request,
    dispatcher: new Agent({ connections: CONNECTIONS }),
  })));

/**
 * Bolt's `respond()` for a `response_url`, outside a Bolt listener (the command worker). Same contract:
 * a string is `{text}`, and a non-2xx answer throws. It goes through undici, which the worker loads for
 * the service client anyway; Bolt's own `respond()` uses the global `fetch`, a second HTTP stack.
 * The URL is a capability: it is never logged.
 */
export function respondTo(responseUrl: string): Respond {
  return async (message: string | RespondArguments) => {
    const { request, dispatcher } = await undici();
    const body = JSON.stringify(typeof message === 'string' ? { text: message } : message);
    const res = await request(responseUrl, {
      method: 'POST',
      dispatcher,
      headers: { 'content-type': 'application/json' },
      body,
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    await res.body.dump();
    if (res.statusCode < 200 || res.statusCode > 299) {
      throw new Error(`Failed to respond to the response_url: ${res.statusCode}`);
    }
  };
}
