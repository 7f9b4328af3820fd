import type { z } from 'zod';
import type { AnswerSchema, CallInput, WireCall } from '../wire/call.js';
import { describeIssues, type FlowRecord, flowRecord, ID_PATTERN, listElements } from '../wire/index.js';
import { addressAllowlist, vettedLookup } from './address.js';
import { CHECK_ACTIVITY_VIEW, isIdempotentChange, redact, ServiceError, trimForDisplay } from './errors.js';
import { type FlowView, readFlow } from './flow-view.js';
import { type Call, type Reply, Transport } from './transport.js';

export interface ServiceClientOptions {
  baseUrl: string;
  accountId: string;
  /** The bot's shared token (TSAI_TOKEN); absent: calls are made only through `as(token)`. */
  token?: string;
  connectTimeoutMs?: number;
  requestTimeoutMs?: number;
  maxAttempts?: number;
  maxRetryTimeMs?: number;
  /** First retry waits a random time up to this, doubling per attempt (default 250 ms). */
  retryBaseDelayMs?: number;
  /** Parallel connections (and requests in flight) to the service (default 128). */
  maxConnections?: number;
  /** Requests that may wait for a free connection; beyond that they fail at once as 'busy' (default 256). */
  maxQueued?: number;
  /** Longest wait for a free connection before failing as 'busy' (default 5 s). */
  maxQueueWaitMs?: number;
}

/**
 * Where the service is, for a call made with a token other than the client's; `typed`: the URL is a
 * tenant's admin's, and the connection's address is checked (address.ts).
 */
export type ClientOptionsForCheck = Pick<
  ServiceClientOptions,
  'baseUrl' | 'accountId' | 'connectTimeoutMs'
> & {
  typed?: TypedUrls;
};

/**
 * `supported: false`: the service has no flow read-back route (404 "no route" or 405), so the flow can only
 * be followed in the service's Activity view. Otherwise `flow` is the record as sent and `view` the client's
 * tolerant reading of its status, reason and results.
 */
export type GetFlowResult = { supported: true; flow: FlowRecord; view: FlowView } | { supported: false };

/**
 * The service's calls, made with one identity: `call` sends any declared call (a registry entry's
 * `wire`), checking its IDs and body before anything is sent and reading its answer by its schema;
 * `getFlow` reads a flow back, for following it.
 */
export interface ServiceCalls {
  call<Body, Answer>(wire: WireCall<Body, Answer>, input: CallInput<Body>): Promise<Answer>;
  getFlow(flowId: string): Promise<GetFlowResult>;
}

/**
 * The client: its calls use the shared token; `as(token)` makes the same calls with a person's own token,
 * over the same connections, limiter and retry policy.
 */
export interface ServiceClient extends ServiceCalls {
  as(token: string): ServiceCalls;
  close(): Promise<void>;
}

/** The client's defaults: the same as the bot's configuration (a config test keeps them so). */
export const CLIENT_DEFAULTS = {
  connectTimeoutMs: 5_000,
  requestTimeoutMs: 15_000,
  maxAttempts: 3,
  maxRetryTimeMs: 20_000,
  maxQueued: 256,
} as const;

export function createServiceClient(o: ServiceClientOptions): ServiceClient {
  const transport = transportOf(o);
  return clientOver(transport, o.accountId, o.token, () => transport.close());
}

/** The clients of many accounts, each with its own token: "Add to Slack", a service account per tenant. */
export interface ServiceAccountClients {
  of(place: { baseUrl: string; accountId: string; token: string }): ServiceClient;
  /** Closes the connections of every account's client. */
  close(): Promise<void>;
}

/** What a URL someone typed may reach beside public addresses (TSAI_SERVICE_ALLOWED_ADDRESSES' entries). */
export interface TypedUrls {
  allowed: readonly string[];
}

/**
 * Clients of many accounts over one transport per service URL: the connections, the queue and the retry
 * policy are the bot's, shared; an account's client adds only its path and its token. A pool per account
 * would hold a connection per tenant, and, past the clients kept, open and close one per call. `o` is the
 * bot's own settings, of which only the bounds are used. The URLs are the tenants' admins' (typed), so
 * every connection's address is checked as it is made (address.ts).
 */
export function createServiceClients(
  o: Partial<ServiceClientOptions>,
  typed: TypedUrls,
): ServiceAccountClients {
  // The bot's own settings may be passed whole: their shared token is no tenant's.
  const bounds: Partial<ServiceClientOptions> = { ...o };
  delete bounds.token;
  const lookup = vettedLookup(addressAllowlist(typed.allowed));
  const transports = new Map<string, Transport>();
  return {
    of({ baseUrl, accountId, token }) {
      let transport = transports.get(baseUrl);
      if (!transport) {
        transport = transportOf({ ...bounds, baseUrl, accountId }, lookup);
        transports.set(baseUrl, transport);
      }
      // Closing one account's client leaves the connections the others share.
      return clientOver(transport, accountId, token, async () => undefined);
    },
    async close() {
      const all = [...transports.values()];
      transports.clear();
      await Promise.allSettled(all.map((t) => t.close()));
    },
  };
}

/** The connections to one service URL, with the client's bounds. */
function transportOf(o: ServiceClientOptions, lookup?: ReturnType<typeof vettedLookup>): Transport {
  return new Transport({
    ...(lookup ? { lookup } : {}),
    baseUrl: o.baseUrl,
    ...(o.token !== undefined ? { token: o.token } : {}),
    connectTimeoutMs: o.connectTimeoutMs ?? CLIENT_DEFAULTS.connectTimeoutMs,
    requestTimeoutMs: o.requestTimeoutMs ?? CLIENT_DEFAULTS.requestTimeoutMs,
    maxAttempts: o.maxAttempts ?? CLIENT_DEFAULTS.maxAttempts,
    maxRetryTimeMs: o.maxRetryTimeMs ?? CLIENT_DEFAULTS.maxRetryTimeMs,
    retryBaseDelayMs: o.retryBaseDelayMs ?? 250,
    maxConnections: o.maxConnections ?? 128,
    maxQueued: o.maxQueued ?? CLIENT_DEFAULTS.maxQueued,
    maxQueueWaitMs: o.maxQueueWaitMs ?? 5_000,
  });
}

/** An account's calls over `transport`, with `token` unless a call names a person's own. */
function clientOver(
  transport: Transport,
  accountId: string,
  token: string | undefined,
  close: () => Promise<void>,
): ServiceClient {
  const account = checkId(accountId, 'account');
  const base = (version: '1.2' | '1.3') => `/api/${version}/accounts/${encodeURIComponent(account)}`;
  const readBack = { unsupported: false };
  const callsWith = (t: string | undefined) =>
    serviceCalls({ transport, base, readBack, ...(t !== undefined ? { token: t } : {}) });
  return { ...callsWith(token), as: (t) => callsWith(t), close };
}

interface CallsContext {
  transport: Transport;
  base: (version: '1.2' | '1.3') => string;
  /** Shared by every identity: whether the service showed it has no flow read-back route. */
  readBack: { unsupported: boolean };
  token?: string;
}

/** Every call, each request carrying `token` (the shared one when absent). */
function serviceCalls({ transport, base, readBack, token }: CallsContext): ServiceCalls {
  const withToken = (c: Call): Call => (token !== undefined ? { ...c, token } : c);
  return {
    async call(wire, input) {
      const schemas = await wire.schemas();
      const c = callOf(wire, schemas.body, input, base(wire.version));
      const reply = await transport.send(withToken(c));
      return readAnswer(reply, schemas.answer, c);
    },
    getFlow: flowReader((c) => transport.send(withToken(c)), base('1.3'), readBack, token ?? ''),
  };
}

/** The request a declared call makes: its IDs checked and put in its path, its body checked. */
function callOf<Body>(
  wire: WireCall<Body, unknown>,
  schema: z.ZodType<Body> | undefined,
  input: CallInput<Body>,
  accountPath: string,
): Call {
  const ids: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.ids ?? {})) ids[name] = checkId(value, name);
  const given = input.body;
  const fields = given && typeof given === 'object' ? (given as Record<string, unknown>) : {};
  const fill = (template: string, encode: (v: string) => string) =>
    template.replace(/\{(\w+)\}/g, (_, name: string) => {
      const v = ids[name] ?? fields[name];
      return typeof v === 'string' ? encode(v) : `{${name}}`;
    });
  const body = schema
    ? validate(
        schema,
        given,
        fill(wire.label, (x) => x),
      )
    : undefined;
  const query = wire.query
    ? Object.fromEntries(Object.entries(wire.query).map(([k, v]) => [k, fill(v, (x) => x)]))
    : undefined;
  return {
    method: wire.method,
    path: `${accountPath}${fill(wire.path, encodeURIComponent)}`,
    ...(query ? { query } : {}),
    ...(body !== undefined ? { body } : {}),
    what: fill(wire.what, (x) => x),
  };
}

/** A call's answer, read by its schema: one record, or the first of a list (`null` for none). */
function readAnswer<Answer>(reply: Reply, answer: AnswerSchema<Answer>, c: Call): Answer {
  if (!('firstOf' in answer)) return parseRecord(reply, answer.record, c);
  const items = reply.unreadable === undefined ? listElements(reply.body) : null;
  if (items === null) throw unreadable(reply, c, reply.unreadable ?? `not a list of ${answer.listOf}`);
  return items.length === 0 ? (null as Answer) : parseRecord({ ...reply, body: items[0] }, answer.firstOf, c);
}

/**
 * Reads a flow back; once the service shows it has no read-back route, later reads answer unsupported
 * without asking again.
 */
function flowReader(
  send: (c: Call) => Promise<Reply>,
  accountPath: string,
  readBack: { unsupported: boolean },
  token: string,
): ServiceCalls['getFlow'] {
  return async (flowId) => {
    const id = checkId(flowId, 'flow');
    if (readBack.unsupported) return { supported: false };
    const c: Call = {
      method: 'GET',
      path: `${accountPath}/flows/${encodeURIComponent(id)}`,
      what: `flow ${id}`,
    };
    let reply: Reply;
    try {
      reply = await send(c);
    } catch (err) {
      if (isMissingRoute(err, id)) {
        readBack.unsupported = true;
        return { supported: false };
      }
      throw err;
    }
    const raw = unwrapFlow(reply.body);
    const flow = parseRecord({ ...reply, body: raw }, flowRecord, c);
    // The view reads the raw record, so a status of an unexpected type is still shown as sent.
    const view = readFlow({ ...(raw as Record<string, unknown>), id: flow.id }, (t) => redact(t, token));
    return { supported: true, flow, view };
  };
}

function validate<T>(schema: z.ZodType<T>, body: unknown, label: string): T {
  const r = schema.safeParse(body);
  if (!r.success) throw invalid(label, describeIssues(r.error));
  return r.data;
}

function invalid(label: string, detail: string): ServiceError {
  return new ServiceError('invalid-request', `The ${label} was not sent because it is invalid: ${detail}.`);
}

function checkId(value: unknown, what: string): string {
  if (typeof value === 'string' && ID_PATTERN.test(value)) return value;
  const shown = typeof value === 'string' ? JSON.stringify(trimForDisplay(value, 40)) : typeof value;
  throw new ServiceError(
    'bad-id',
    `${shown} is not a valid ${what} ID: it must be 1 to 128 characters with no "/", spaces or control characters, e.g. "1353853719423311872".`,
  );
}

function parseRecord<T>(reply: Reply, schema: z.ZodType<T>, c: Call): T {
  if (reply.unreadable !== undefined) throw unreadable(reply, c, reply.unreadable);
  const r = schema.safeParse(reply.body);
  if (r.success) return r.data;
  throw unreadable(reply, c, reply.body === undefined ? 'an empty answer' : 'not a record with an id');
}

/**
 * A success status whose answer cannot be used. A POST then created something the bot cannot name, so its
 * outcome is unknown; a GET changed nothing; a PUT probably took effect and is safe to repeat.
 */
function unreadable(reply: Reply, c: Call, why: string): ServiceError {
  const status = reply.status;
  if (c.method === 'POST')
    return new ServiceError(
      'outcome-unknown',
      `The service accepted the request (HTTP ${status}) but the bot cannot read its answer (${why}), so it may have created something the bot cannot name; ${CHECK_ACTIVITY_VIEW}.`,
      { status },
    );
  return new ServiceError(
    'bad-response',
    isIdempotentChange(c.method)
      ? `The service answered (HTTP ${status}) but the bot cannot read its answer (${why}), so it cannot confirm the change; it has probably been made, and repeating it is safe.`
      : `The service answered (HTTP ${status}) but the bot cannot read its answer (${why}); nothing was changed, so trying again later is safe.`,
    { status },
  );
}

/** A record that has no id of its own but wraps one under `flow` or `data` is read as that one. */
function unwrapFlow(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body) || 'id' in body) return body;
  for (const key of ['flow', 'data', 'item']) {
    const inner = (body as Record<string, unknown>)[key];
    if (inner && typeof inner === 'object' && 'id' in inner) return inner;
  }
  return body;
}

/**
 * 405, or a 404 that does not name the flow, means the service has no read-back route. A 404 naming the flow
 * ID (not as part of a path, e.g. "flow 1400… not found") means the route exists and the flow does not.
 */
function isMissingRoute(err: unknown, id: string): boolean {
  if (!(err instanceof ServiceError) || err.kind !== 'http') return false;
  if (err.status === 405) return true;
  if (err.status !== 404) return false;
  const said = err.serviceMessage ?? '';
  if (/\bno route\b|\bno handler\b|\bcannot get\b/i.test(said)) return true;
  for (let i = said.indexOf(id); i >= 0; i = said.indexOf(id, i + 1)) if (said[i - 1] !== '/') return false;
  return true;
}
