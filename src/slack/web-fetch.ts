import type { webApi } from '@slack/bolt';
import { type PooledHttp, pooledHttp } from '../http.js';

type FetchFunction = NonNullable<webApi.WebClientOptions['fetch']>;
type FetchResponse = Awaited<ReturnType<FetchFunction>>;

/**
 * Connections per Web API origin (in Slack: one, slack.com). The Web API client's default, the global
 * `fetch`, opens a socket for every call in flight (its queue lets 100 through) and loads Node's own copy
 * of undici's fetch into each thread that calls; a burst of replies then held a hundred idle sockets
 * besides. A few kept-alive connections serve a burst as fast, through the client the bot already loads.
 */
const CONNECTIONS = 16;

let http: PooledHttp | undefined;

/**
 * The `fetch` the Web API clients call Slack with: the bot's pooled HTTP client (http.ts) for the
 * form-encoded POSTs every Web API method sends. A body that is not text (a file upload's multipart form)
 * goes through the global `fetch`, which builds its multipart encoding.
 */
export const webApiFetch: FetchFunction = async (input, init = {}) => {
  if (init.body !== undefined && typeof init.body !== 'string') return fetch(input, init);
  if (init.redirect === 'follow') return fetch(input, init);
  http ??= pooledHttp({ connections: CONNECTIONS });
  const url = typeof input === 'string' ? new URL(input) : input;
  const res = await http.request(url, {
    method: (init.method ?? 'GET') as 'GET',
    ...(init.headers ? { headers: init.headers } : {}),
    ...(init.body !== undefined ? { body: init.body } : {}),
    ...(init.signal ? { signal: init.signal } : {}),
  });
  // Read whole at once: every Web API answer is a small JSON document, and an unread body holds its socket.
  const bytes = Buffer.from(await res.body.arrayBuffer());
  return responseOf(url.href, res.statusCode, res.headers, bytes);
};

function responseOf(
  url: string,
  status: number,
  raw: Record<string, string | string[] | undefined>,
  bytes: Buffer,
): FetchResponse {
  const headers = new Map<string, string>();
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : value);
  }
  const text = () => bytes.toString('utf8');
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText: '',
    url,
    headers: { get: (name) => headers.get(name.toLowerCase()) ?? null, entries: () => headers.entries() },
    arrayBuffer: async () =>
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
    text: async () => text(),
    json: async () => JSON.parse(text()) as unknown,
  };
}
