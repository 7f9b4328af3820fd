import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { describeIssues } from '../../src/wire/index.js';
import { matchRoutes, routeFor } from './api.js';
import type { ApiReply } from './exchange.js';
import { type FaultSpec, Faults } from './faults.js';
import type { FlowDelays } from './flows.js';
import { FlowLifecycle, flowEnding } from './lifecycle.js';
import { mayAct, People, type Person, peopleControl, rolesFrom, SHARED_IDENTITY } from './people.js';
import { SEED } from './seed.js';
import { Store } from './store.js';
import { keepWorld } from './world-file.js';

export interface EmulatorOptions {
  port?: number;
  host?: string;
  token?: string;
  accountId?: string;
  /**
   * The first ID it hands out (a decimal string). By default each account's start apart, as a real
   * service's IDs are unique across its accounts; two emulators given the same stand for two services (two
   * tenants' own) that hand out the same IDs.
   */
  firstId?: string;
  flowDelays?: FlowDelays;
  /** Extensions on or off from the start and after every reset (all on by default). */
  features?: Partial<Features>;
  /**
   * A file that keeps the service's records across restarts (loaded at start, written after changes);
   * without it everything is in memory and a restart starts from the demo data.
   */
  stateFile?: string;
  /** Told when the state file cannot be read (it is set aside) or written. */
  onStateProblem?: (problem: string) => void;
}
export interface RunningEmulator {
  url: string;
  accountId: string;
  token: string;
  close(): Promise<void>;
}
export interface LoggedRequest {
  seq: number;
  /** ms since epoch when the request body had been read. */
  receivedAt: number;
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  contentType: string | null;
  /** The name of the person whose token made the request; null when it had no token the emulator knows. */
  user: string | null;
  /**
   * The W3C Trace Context the request carried (`traceparent`), as a service that traces would join it;
   * null when it carried none.
   */
  traceparent: string | null;
  status?: number;
  fault?: FaultSpec;
}

const MAX_BODY = 1_000_000;
/** The request log keeps the newest entries only, so a long benchmark cannot exhaust memory. */
const MAX_LOGGED = 10_000;
const DEFAULT_DELAYS: FlowDelays = { runningAfterMs: 1_000, completedAfterMs: 3_000 };

/** Emulator extensions that `PUT /_emulator/features` can switch off, to act like a service without them. */
export interface Features {
  /** `GET /api/1.3/accounts/{a}/flows/{id}`; off, it is 404 "no route" like any unknown path. */
  flowReadBack: boolean;
}
const DEFAULT_FEATURES: Features = { flowReadBack: true };

export async function startEmulator(o: EmulatorOptions = {}): Promise<RunningEmulator> {
  const token = o.token ?? SEED.token;
  const accountId = o.accountId ?? SEED.accountId;
  const store = new Store(accountId, Date.now, o.firstId);
  const faults = new Faults();
  const flows = new FlowLifecycle(store, o.flowDelays ?? DEFAULT_DELAYS);
  const people = new People(token);
  const kept = o.stateFile
    ? keepWorld(o.stateFile, { store, flows, people }, o.onStateProblem ?? (() => {}))
    : undefined;
  const initialFeatures: Features = { ...DEFAULT_FEATURES, ...o.features };
  const state: EmulatorState = {
    accountId,
    store,
    faults,
    flows,
    people,
    features: { ...initialFeatures },
    requests: [],
  };
  let seq = 0;
  /** Bumped by reset: a request delayed by injected latency across a reset is dropped, not applied to new state. */
  let epoch = 0;

  const reset = () => {
    flows.reset();
    store.reset();
    faults.clear();
    state.features = { ...initialFeatures };
    state.requests = [];
    seq = 0;
    epoch++;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://emulator');
    const path = url.pathname;
    const raw = await readBody(req);
    if (raw === null) return send(res, { status: 413, body: { message: 'body: larger than 1 MB' } });
    const body = parseBody(raw);
    if (path.startsWith('/_emulator/'))
      return send(
        res,
        body === INVALID_JSON
          ? { status: 400, body: { message: 'body: not valid JSON' } }
          : control(state, req, path, body, reset),
      );
    if (!path.startsWith('/api/'))
      return send(res, { status: 404, body: { message: `no route ${req.method} ${path}` } });

    const person = state.people.identify(req.headers.authorization);
    const entry: LoggedRequest = {
      seq: ++seq,
      receivedAt: Date.now(),
      method: req.method ?? '',
      path,
      query: Object.fromEntries(url.searchParams),
      body: body === INVALID_JSON ? raw : body,
      contentType: req.headers['content-type'] ?? null,
      user: person?.name ?? null,
      traceparent: typeof req.headers.traceparent === 'string' ? req.headers.traceparent : null,
    };
    state.requests.push(entry);
    if (state.requests.length > MAX_LOGGED) state.requests.splice(0, state.requests.length - MAX_LOGGED);
    const fault = faults.take({ method: entry.method, path, query: url.search.slice(1), body: raw });
    if (fault) entry.fault = fault;
    if (fault?.latencyMs) {
      const started = epoch;
      await sleep(fault.latencyMs, undefined, { ref: false });
      if (epoch !== started) return void req.socket.destroy();
    }
    if (fault?.reset === 'before') return void req.socket.destroy();
    if (fault?.status) {
      entry.status = fault.status;
      return sendInjected(res, fault, fault.status);
    }
    const reply = api(state, { req, person, path, url, body, raw });
    entry.status = reply.status;
    if (fault?.reset === 'after') return void req.socket.destroy();
    if (fault?.corrupt) return sendSpoilt(res, reply, fault.corrupt);
    send(res, reply);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent)
        send(res, {
          status: 500,
          body: { message: `emulator error: ${(err as Error)?.message ?? String(err)}` },
        });
    });
  });
  const host = o.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    accountId,
    token,
    close: async () => {
      kept?.close();
      reset();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** What the control and API routes read and change; reset replaces the features and the request log. */
interface EmulatorState {
  readonly accountId: string;
  readonly store: Store;
  readonly faults: Faults;
  readonly flows: FlowLifecycle;
  readonly people: People;
  features: Features;
  requests: LoggedRequest[];
}

/** The `/_emulator/…` routes tests and the sandbox use to watch and steer the service. */
function control(
  s: EmulatorState,
  req: IncomingMessage,
  path: string,
  body: unknown,
  reset: () => void,
): ApiReply {
  const route = `${req.method} ${path}`;
  const forPeople = peopleControl(s.people, route, body);
  if (forPeople) return forPeople;
  const finishing = /^POST \/_emulator\/flows\/([^/]+)\/finish$/.exec(route);
  if (finishing) {
    const ending = flowEnding.safeParse(body ?? {});
    if (!ending.success) return { status: 400, body: { message: describeIssues(ending.error) } };
    const r = s.flows.set(decodeURIComponent(finishing[1]!), ending.data);
    return r.ok ? { status: 200, body: r.flow } : { status: r.status, body: { message: r.message } };
  }
  switch (route) {
    case 'GET /_emulator/state':
      return { status: 200, body: { accountId: s.accountId, ...s.store.snapshot() } };
    case 'GET /_emulator/requests': {
      const since = Number(new URL(req.url ?? '/', 'http://emulator').searchParams.get('since') ?? '0');
      return { status: 200, body: s.requests.filter((r) => r.seq > since) };
    }
    case 'DELETE /_emulator/requests':
      s.requests = [];
      return { status: 204, body: undefined };
    case 'POST /_emulator/reset':
      reset();
      return { status: 204, body: undefined };
    case 'GET /_emulator/faults':
      return { status: 200, body: s.faults.describe() };
    case 'POST /_emulator/faults': {
      const r = s.faults.add(body);
      return r.ok ? { status: 201, body: { id: r.id } } : { status: 400, body: { message: r.message } };
    }
    case 'DELETE /_emulator/faults':
      s.faults.clear();
      return { status: 204, body: undefined };
    case 'PUT /_emulator/flow-delays': {
      const d = body as Partial<FlowDelays> | null;
      const ok = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;
      if (!d || !ok(d.runningAfterMs) || !ok(d.completedAfterMs))
        return {
          status: 400,
          body: { message: 'body: give non-negative integer runningAfterMs and completedAfterMs' },
        };
      s.flows.delays = { runningAfterMs: d.runningAfterMs!, completedAfterMs: d.completedAfterMs! };
      return { status: 200, body: s.flows.delays };
    }
    case 'GET /_emulator/flow-rules':
      return { status: 200, body: s.flows.describeRules() };
    case 'POST /_emulator/flow-rules': {
      const r = s.flows.addRule(body);
      return r.ok ? { status: 201, body: { id: r.id } } : { status: 400, body: { message: r.message } };
    }
    case 'DELETE /_emulator/flow-rules':
      s.flows.clearRules();
      return { status: 204, body: undefined };
    case 'GET /_emulator/features':
      return { status: 200, body: s.features };
    case 'PUT /_emulator/features': {
      const r = featuresPatch.safeParse(body);
      if (!r.success) return { status: 400, body: { message: describeIssues(r.error) } };
      s.features = { ...s.features, ...r.data };
      return { status: 200, body: s.features };
    }
    default:
      return { status: 404, body: { message: `no emulator control ${route}` } };
  }
}

/** One request to the service's API, read: who made it (undefined for no known token) and its body. */
interface ApiCall {
  req: IncomingMessage;
  person: Person | undefined;
  path: string;
  url: URL;
  body: unknown;
  raw: string;
}

/**
 * The service's own API: the bearer token, the account in the path, the body's type, the person's role,
 * then the route, whose records are stamped as the person's.
 */
function api(s: EmulatorState, { req, person, path, url, body, raw }: ApiCall): ApiReply {
  if (!person) return { status: 401, body: { message: 'access token missing, invalid or expired' } };
  const m = /^\/api\/([^/]+)\/accounts\/([^/]+)\/(.+)$/.exec(path);
  if (!m) return { status: 404, body: { message: `no route ${req.method} ${path}` } };
  const [, version, account, restText] = m as unknown as [string, string, string, string];
  let rest: string[];
  let accountInPath: string;
  try {
    rest = restText.split('/').map(decodeURIComponent);
    accountInPath = decodeURIComponent(account);
  } catch {
    return { status: 400, body: { message: 'path: malformed percent-encoding' } };
  }
  const routes = matchRoutes(version, rest).filter((r) => !r.feature || s.features[r.feature]);
  if (routes.length === 0) return { status: 404, body: { message: `no route ${req.method} ${path}` } };
  const route = routeFor(routes, req.method ?? '', body);
  if (!route)
    return {
      status: 405,
      body: { message: `method ${req.method} not allowed on ${path}` },
      headers: { allow: routes.map((r) => r.method).join(', ') },
    };
  if (accountInPath !== s.accountId)
    return { status: 404, body: { message: `account ${accountInPath} not found` } };
  if (raw !== '') {
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
      return { status: 415, body: { message: 'Content-Type must be application/json' } };
    if (body === INVALID_JSON) return { status: 400, body: { message: 'body: not valid JSON' } };
  } else if (req.method === 'POST' || req.method === 'PUT') {
    return { status: 400, body: { message: 'body: required' } };
  }
  const need = route.needs?.(body);
  if (need && !mayAct(person.role, need.role))
    return {
      status: 403,
      body: {
        message: `${need.doing} needs the ${rolesFrom(need.role)} role; ${person.name} is a ${person.role}`,
      },
    };
  // The shared identity made the demo data, so its records keep the demo principal as before.
  const principal = person.name === SHARED_IDENTITY ? SEED.principalId : person.name;
  return s.store.actingAs(principal, () =>
    route.handle({ method: req.method!, version, rest, query: url.searchParams, body }, s.store, (flow) =>
      s.flows.created(flow),
    ),
  );
}

const featuresPatch = z.strictObject({ flowReadBack: z.boolean().optional() });

const INVALID_JSON = Symbol('invalid JSON');

function parseBody(raw: string): unknown {
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return INVALID_JSON;
  }
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooBig = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) tooBig = true;
      else chunks.push(c);
    });
    req.on('end', () => resolve(tooBig ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The reply a fault with a status gives instead of handling the request. */
function sendInjected(res: ServerResponse, fault: FaultSpec, status: number): void {
  const headers: Record<string, string> = {};
  if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
  if (fault.body !== undefined) {
    res.writeHead(status, { ...headers, 'content-type': fault.contentType ?? 'text/plain' }).end(fault.body);
    return;
  }
  send(res, {
    status,
    body: { message: fault.message ?? `injected fault: HTTP ${status}` },
    headers,
  });
}

/** The handled reply's status and headers with a body a client cannot use. */
function sendSpoilt(res: ServerResponse, reply: ApiReply, how: NonNullable<FaultSpec['corrupt']>): void {
  const headers: Record<string, string> = { ...reply.headers, 'content-type': 'application/json' };
  let text: string;
  if (how === 'malformed-json') {
    const whole = JSON.stringify(reply.body ?? {});
    text = whole.slice(0, Math.max(1, Math.floor(whole.length / 2)));
  } else if (how === 'wrong-shape') {
    text = '{"ok":true}';
  } else {
    headers['content-type'] = 'text/html';
    text = '<html><body><h1>OK</h1></body></html>';
  }
  res.writeHead(reply.status, headers).end(text);
}

function send(res: ServerResponse, reply: ApiReply): void {
  const headers: Record<string, string> = { ...reply.headers };
  if (reply.body === undefined) {
    res.writeHead(reply.status, headers).end();
    return;
  }
  headers['content-type'] = 'application/json';
  res.writeHead(reply.status, headers).end(JSON.stringify(reply.body));
}
