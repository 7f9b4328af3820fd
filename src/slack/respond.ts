import { pooledHttp } from '../http.js';
import { inSpan } from '../tracing/trace.js';

const TIMEOUT_MS = 10_000;
/**
 * Connections per response_url origin (in Slack: one, hooks.slack.com). Unbounded, a burst of replies
 * opened one socket each (hundreds, with their buffers) when a few reused ones serve them as fast.
 */
const CONNECTIONS = 16;

// Loaded with the first reply: a bot that has not replied yet has not paid for an HTTP client.
const http = pooledHttp({ connections: CONNECTIONS });

/**
 * A response_url Slack refused: expired, used up (5 uses in 30 minutes) or unknown (404), the message
 * refused (400 `invalid_blocks`, …), rate-limited (429) or Slack failing (5xx). `error` is Slack's code
 * when the answer names one.
 */
export class ResponseUrlError extends Error {
  constructor(
    readonly status: number,
    readonly error?: string,
    readonly retryAfterMs?: number,
  ) {
    super(`the response_url answered ${status}${error ? ` ${error}` : ''}`);
    this.name = 'ResponseUrlError';
  }
}

/** Slack's error code in a response_url's answer: `{"ok":false,"error":"…"}`, or a bare code as text. */
function errorCode(text: string): string | undefined {
  const t = text.trim();
  try {
    const j = JSON.parse(t) as { error?: unknown };
    return typeof j?.error === 'string' ? j.error : undefined;
  } catch {
    return /^[a-z][a-z0-9_]{0,60}$/.test(t) ? t : undefined;
  }
}

/** Where Slack's response_urls are: https://hooks.slack.com/… */
const SLACK_HOOKS = 'https://hooks.slack.com';
let standIn: string | undefined;

/**
 * The stand-in Slack's origin (from SLACK_API_URL, which only a local stand-in sets), whose response_urls
 * count as Slack's in the sandbox and the tests. Set by the composition on each thread.
 */
export function acceptResponseUrlsOf(apiUrl: string | undefined): void {
  standIn = apiUrl ? new URL(apiUrl).origin : undefined;
}

/**
 * Whether a response_url is Slack's. Some are read back from the store (a flow's announcement): one a
 * store's writer replaced would otherwise make the bot post a person's results wherever it points.
 */
export function isSlackResponseUrl(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  return u.origin === SLACK_HOOKS || (standIn !== undefined && u.origin === standIn);
}

/**
 * The bot's one way to post to a `response_url`: a JSON body, a non-2xx answer throws
 * `ResponseUrlError`, and so does a URL that is not Slack's (nothing is sent). The URL is a capability:
 * it is never logged.
 */
export function postToResponseUrl(url: string, body: Record<string, unknown>): Promise<void> {
  // Its path is a secret of the message it answers: the span names only the host.
  return inSpan(
    'slack response_url',
    {
      'http.request.method': 'POST',
      'server.address': URL.canParse(url) ? new URL(url).hostname : undefined,
    },
    (span) =>
      posting(url, body).catch((e: unknown) => {
        if (e instanceof ResponseUrlError) {
          span.set({ 'http.response.status_code': e.status || undefined });
          span.failed(e.error ?? `HTTP ${e.status}`, `Slack answered ${e.error ?? `HTTP ${e.status}`}`);
        }
        throw e;
      }),
    { kind: 'client', inTraceOnly: true },
  );
}

async function posting(url: string, body: Record<string, unknown>): Promise<void> {
  if (!isSlackResponseUrl(url)) throw new ResponseUrlError(0, 'not_a_slack_response_url');
  const res = await http.request(new URL(url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS,
  });
  if (res.statusCode >= 200 && res.statusCode <= 299) return void (await res.body.dump());
  const text = await res.body.text().catch(() => '');
  const retryAfter = Number(res.headers['retry-after']);
  throw new ResponseUrlError(
    res.statusCode,
    errorCode(text.slice(0, 1000)),
    res.statusCode === 429 && Number.isFinite(retryAfter) ? Math.max(0, retryAfter) * 1000 : undefined,
  );
}
