import { setTimeout as sleep } from 'node:timers/promises';
import { type PooledHttp, pooledHttp } from '../http.js';
import { countRetry } from '../metrics/metrics.js';
import { inSpan, traceHeaders, tracingOn } from '../tracing/trace.js';
import { parseJsonLossless } from '../wire/index.js';
import { ADDRESS_REFUSED, type vettedLookup } from './address.js';
import {
  CHECK_ACTIVITY_VIEW,
  httpUserMessage,
  isIdempotentChange,
  type Method,
  redact,
  ServiceError,
  trimForDisplay,
} from './errors.js';
import { Limiter, LimiterBusy } from './limiter.js';

export interface TransportOptions {
  baseUrl: string;
  /** The bot's shared token; absent: every call names its own. */
  token?: string;
  connectTimeoutMs: number;
  requestTimeoutMs: number;
  maxAttempts: number;
  maxRetryTimeMs: number;
  retryBaseDelayMs: number;
  /** Parallel connections to the service, and requests in flight at once. */
  maxConnections: number;
  /** Requests that may wait for a free connection; more fail at once as 'busy'. */
  maxQueued: number;
  /** Longest wait for a free connection before failing as 'busy'. */
  maxQueueWaitMs: number;
  /**
   * A URL someone typed (a tenant's): each connection resolves its host through here and is refused when
   * it resolves to an address it may not reach (address.ts `vettedLookup`). Absent: the system's lookup.
   */
  lookup?: ReturnType<typeof vettedLookup>;
}

export interface Call {
  method: Method;
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  /** Names the target for a 404 sentence, e.g. "workspace 123". */
  what: string;
  /** A person's own token, instead of the shared one. */
  token?: string;
}

export interface Reply {
  status: number;
  body: unknown;
  /** Why a non-empty 2xx body could not be parsed (then `body` is undefined), e.g. "not valid JSON". */
  unreadable?: string;
}

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
/** A gateway's answer: the service behind it may have carried out the request without its reply getting through. */
const GATEWAY_STATUSES = new Set([502, 504]);
/** Errors raised before a single byte of the request left this machine: safe to retry even a POST. */
const NEVER_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

type Failure = { error: ServiceError; retryable: boolean; retryAfterMs?: number };

export class Transport {
  /** Loaded on the first request: a bot that never calls the service does not pay for an HTTP client. */
  private readonly http: PooledHttp;
  private closed = false;
  private readonly limiter: Limiter;
  private readonly origin: string;
  private readonly prefix: string;

  constructor(private readonly o: TransportOptions) {
    const url = parseBaseUrl(o.baseUrl);
    this.origin = url.origin;
    this.prefix = url.pathname.replace(/\/+$/, '');
    this.limiter = new Limiter(o.maxConnections, o.maxQueued, o.maxQueueWaitMs);
    this.http = pooledHttp({
      connect: { timeout: o.connectTimeoutMs, ...(o.lookup ? { lookup: o.lookup } : {}) },
      // Shorter than common server idle timeouts, so a POST rarely meets a socket the server is closing.
      keepAliveTimeout: 4_000,
      keepAliveMaxTimeout: 60_000,
      // The limiter keeps in-flight requests at this number, so none ever queues inside undici.
      connections: o.maxConnections,
    });
  }

  /**
   * One call, retries included, as a `service.call` span of the request's trace when tracing is on; each
   * attempt carries its W3C `traceparent`, so a service that traces joins the same trace.
   */
  send(call: Call): Promise<Reply> {
    if (!tracingOn()) return this.sending(call);
    const url = new URL(this.origin + this.prefix + call.path);
    return inSpan(
      'service.call',
      {
        'http.request.method': call.method,
        'server.address': url.hostname,
        'server.port': Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
        'url.path': url.pathname,
      },
      (span) =>
        this.sending(call).then(
          (reply) => {
            span.set({ 'http.response.status_code': reply.status });
            return reply;
          },
          (e: unknown) => {
            if (e instanceof ServiceError) {
              span.set({ 'http.response.status_code': e.status });
              span.failed(
                e.kind,
                `the service call failed: ${e.kind}${e.status ? ` (HTTP ${e.status})` : ''}`,
              );
            }
            throw e;
          },
        ),
      { kind: 'client' },
    );
  }

  private async sending(call: Call): Promise<Reply> {
    const started = performance.now();
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.limitedAttempt(call);
      if ('status' in outcome) return outcome;
      const elapsed = performance.now() - started;
      const backoff = Math.random() * this.o.retryBaseDelayMs * 2 ** (attempt - 1);
      const delay = Math.max(outcome.retryAfterMs ?? 0, backoff);
      if (!outcome.retryable || attempt >= this.o.maxAttempts || elapsed + delay > this.o.maxRetryTimeMs)
        throw outcome.error;
      countRetry('service');
      await sleep(delay);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.http.close();
  }

  /** One attempt holding a connection slot; 'busy' (never sent, not retried here) when none is free in time. */
  private async limitedAttempt(call: Call): Promise<Reply | Failure> {
    let release: () => void;
    try {
      release = await this.limiter.acquire();
    } catch (err) {
      if (!(err instanceof LimiterBusy)) throw err;
      return {
        retryable: false,
        error: new ServiceError(
          'busy',
          'The bot is already waiting on too many requests to the service, so nothing was sent to it; try again in a few seconds.',
        ),
      };
    }
    try {
      return await this.attempt(call);
    } finally {
      release();
    }
  }

  private async attempt(call: Call): Promise<Reply | Failure> {
    if (this.closed)
      return {
        retryable: false,
        error: new ServiceError('network', 'The service client is closed; nothing was sent to the service.'),
      };
    const token = call.token ?? this.o.token;
    if (token === undefined)
      return {
        retryable: false,
        error: new ServiceError(
          'invalid-request',
          'The bot has no service token to call the service with, so nothing was sent.',
        ),
      };
    const url = new URL(this.origin + this.prefix + call.path);
    for (const [k, v] of Object.entries(call.query ?? {})) url.searchParams.set(k, v);
    const headers: Record<string, string> = {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      ...traceHeaders(),
    };
    let payload: string | undefined;
    if (call.body !== undefined) {
      payload = JSON.stringify(call.body);
      headers['content-type'] = 'application/json';
    }
    let status: number;
    let text: string;
    let retryAfter: string | undefined;
    let contentType: string | undefined;
    try {
      const res = await this.http.request(url, {
        method: call.method,
        headers,
        body: payload,
        headersTimeout: this.o.requestTimeoutMs,
        bodyTimeout: this.o.requestTimeoutMs,
        signal: AbortSignal.timeout(this.o.requestTimeoutMs),
      });
      status = res.statusCode;
      const ra = res.headers['retry-after'];
      retryAfter = Array.isArray(ra) ? ra[0] : ra;
      const ct = res.headers['content-type'];
      contentType = Array.isArray(ct) ? ct[0] : ct;
      text = await res.body.text();
    } catch (err) {
      return this.networkFailure(call, err);
    }
    if (status >= 200 && status < 300) {
      // An unreadable 2xx body is left to the caller, which knows whether something was created.
      try {
        return { status, body: text.trim() === '' ? undefined : parseJsonLossless(text) };
      } catch {
        const html = /html/i.test(contentType ?? '') || /^\s*</.test(text);
        return { status, body: undefined, unreadable: html ? 'an HTML page, not JSON' : 'not valid JSON' };
      }
    }
    // Scrubbed whole, before any cut: a token cut in half by the cut would survive scrubbing.
    const serviceMessage = extractMessage(this.scrub(text, token), contentType);
    const retryAfterMs = parseRetryAfter(retryAfter);
    const extra = {
      status,
      ...(serviceMessage !== undefined ? { serviceMessage } : {}),
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    };
    // A POST creates something: any answer means it reached the service, so it is never retried.
    if (call.method === 'POST' && GATEWAY_STATUSES.has(status))
      return {
        retryable: false,
        error: new ServiceError(
          'outcome-unknown',
          `The service's gateway answered HTTP ${status} instead of the service, so the request may or may not have been carried out; ${CHECK_ACTIVITY_VIEW}.`,
          extra,
        ),
      };
    const error = new ServiceError(
      'http',
      this.scrub(
        httpUserMessage(status, call.what, serviceMessage, { method: call.method, retryAfterMs }),
        token,
      ),
      extra,
    );
    const retryable = call.method !== 'POST' && RETRY_STATUSES.has(status);
    return { error, retryable, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
  }

  private networkFailure(call: Call, err: unknown): Failure {
    const code = errorCode(err);
    if (code === ADDRESS_REFUSED)
      return {
        retryable: false,
        error: new ServiceError(
          'network',
          `The bot did not connect to the service at ${this.origin}: its name now leads into the bot's own network, which a service URL may not reach, so nothing was sent. One of this workspace's admins checks the service's URL with \`/tsai setup\`.`,
        ),
      };
    const neverSent = (code !== undefined && NEVER_SENT_CODES.has(code)) || isTlsCode(code);
    const timedOut = isTimeout(err, code);
    if (call.method === 'POST' && !neverSent) {
      return {
        retryable: false,
        error: new ServiceError(
          'outcome-unknown',
          `The request may have reached the service but no answer came back; ${CHECK_ACTIVITY_VIEW}.`,
        ),
      };
    }
    // A PUT or DELETE here may have been applied; it is idempotent, so saying so and repeating it are both safe.
    const maybeChanged = isIdempotentChange(call.method)
      ? ', so the change may or may not have been made; repeating it is safe'
      : '';
    const ms = this.o.requestTimeoutMs;
    const within = ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
    const shownCode = code ?? 'network error';
    let error: ServiceError;
    if (timedOut)
      error = new ServiceError(
        'timeout',
        `The service at ${this.origin} did not answer within ${within}${maybeChanged || '; try again later'}.`,
      );
    else if (neverSent)
      error = new ServiceError(
        'network',
        `The bot could not reach the service at ${this.origin} (${shownCode}), so nothing was sent; try again later.`,
      );
    else
      error = new ServiceError(
        'network',
        `The connection to the service at ${this.origin} failed before it answered (${shownCode})${maybeChanged || '; try again later'}.`,
      );
    return { retryable: true, error };
  }

  /** Neither the token the call used nor the shared one is ever repeated. */
  private scrub<T extends string | undefined>(text: T, token: string): T {
    if (text === undefined) return text;
    return redact(redact(text, token), this.o.token ?? '') as T;
  }
}

function errorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function isTlsCode(code: string | undefined): boolean {
  return (
    code !== undefined &&
    (code.startsWith('ERR_TLS_') ||
      code.startsWith('ERR_SSL_') ||
      code.startsWith('CERT_') ||
      code === 'DEPTH_ZERO_SELF_SIGNED_CERT' ||
      code === 'SELF_SIGNED_CERT_IN_CHAIN' ||
      code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE')
  );
}

function isTimeout(err: unknown, code: string | undefined): boolean {
  const name = (err as { name?: unknown } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError' || (code !== undefined && TIMEOUT_CODES.has(code));
}

function extractMessage(text: string, contentType: string | undefined): string | undefined {
  if (text.trim() === '') return undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object') {
      const m =
        (parsed as { message?: unknown; error?: unknown }).message ?? (parsed as { error?: unknown }).error;
      if (typeof m === 'string') return trimForDisplay(m);
    }
  } catch {
    // not JSON: the raw text is the message
  }
  if (/html/i.test(contentType ?? '') || /^\s*<(!doctype\s+html|html|head|body)\b/i.test(text)) {
    const page = htmlText(text);
    return page === '' ? undefined : trimForDisplay(page);
  }
  return trimForDisplay(text);
}

/** How much of an HTML error page is read for its words. */
const HTML_READ = 20_000;

/**
 * An HTML error page (a proxy's or a gateway's, typically) as the words a person would read on it: its
 * title, else its text without markup. Its markup is no message, and would only clutter the reply.
 */
function htmlText(html: string): string {
  const page = html.slice(0, HTML_READ);
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(page)?.[1]?.trim();
  const words = title || page.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ').replace(/<[^>]*>/g, ' ');
  return words
    .replace(/&(lt|gt|amp|quot|#39|nbsp);/g, (_, e: string) => HTML_ENTITIES[e] ?? ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
const HTML_ENTITIES: Record<string, string> = {
  lt: '<',
  gt: '>',
  amp: '&',
  quot: '"',
  '#39': "'",
  nbsp: ' ',
};

/** Retry-After as delta-seconds or an HTTP-date, in ms; undefined when absent or unparseable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function parseBaseUrl(text: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password)
    throw new ServiceError(
      'invalid-request',
      'The service base URL is not a valid http or https URL without credentials, e.g. "https://tsai.example.com".',
    );
  return url;
}
