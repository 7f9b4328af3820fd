import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError, type ServiceErrorKind } from '../src/api/index.js';
import { type FaultSpec, type LoggedRequest, SEED } from '../standins/emulator/index.js';
import { eventually, type Harness, startHarness } from './support/emulator.js';

// Every client method against every fault the emulator can inject, over real sockets: how many requests
// reached the emulator (the request log), which error the caller gets, what its sentence promises, whether
// a POST created anything, and that the same client works again once the fault is gone.
// Each operation has an emulator of its own, so one fault runs against every operation at once: the waits
// a timeout or a Retry-After costs overlap instead of adding up.

const S = SEED;
const MAX_ATTEMPTS = 2;
const TIMEOUT_MS = 1_000;
const LATENCY_MS = 1_500;

type Method = 'GET' | 'PUT' | 'POST';
interface Op {
  name: string;
  method: Method;
  /** Fault `path`: this operation's route only, so setup requests are never hit. */
  route: string;
  /** The collection a POST adds to. */
  creates?: 'flows' | 'workspaces';
  prepare?: (h: Harness) => Promise<string>;
  run: (h: Harness, prepared: string) => Promise<unknown>;
}

const inline = {
  name: 'matrix baseline',
  specs: [
    {
      timeRanges: [{ startTime: '2025-11-01T00:00:00Z', endTime: '2025-11-08T00:00:00Z' }],
      signals: [{ signal: S.signals.temperature, name: 'temperature' }],
    },
  ],
};
const FLOWS_12 = '/api/1\\.2/accounts/\\d+/flows$';
const FLOWS_13 = '/api/1\\.3/accounts/\\d+/flows$';

const ops: Op[] = [
  {
    name: 'createWorkspace',
    method: 'POST',
    route: '/workspace$',
    creates: 'workspaces',
    run: (h) => h.client.createWorkspace({ name: 'matrix' }),
  },
  {
    name: 'getWorkspace',
    method: 'GET',
    route: '/workspace/\\d+$',
    run: (h) => h.client.getWorkspace(S.workspaces.sandbox),
  },
  {
    name: 'moveModel',
    method: 'PUT',
    route: '/models/\\d+$',
    run: (h) => h.client.moveModel(S.models.temperatureAnomaly, S.workspaces.sandbox),
  },
  {
    name: 'findCommonModel',
    method: 'GET',
    route: '/models$',
    run: (h) => h.client.findCommonModel(S.assessments.temperature),
  },
  {
    name: 'createEvalFlow',
    method: 'POST',
    route: FLOWS_12,
    creates: 'flows',
    run: (h) =>
      h.client.createEvalFlow({
        name: 'matrix backfill',
        datastream: S.datastream,
        assessment: S.assessments.temperature,
        model: S.models.temperatureCommon,
        spec: {
          commonModelId: S.models.temperatureCommon,
          segments: [
            {
              entities: ['pump-1'],
              timeRange: { startTime: '1732176000000000000', endTime: '1732179600000000000' },
            },
          ],
          forLive: true,
          withEpisodes: true,
        },
      }),
  },
  {
    name: 'startLiveModel',
    method: 'POST',
    route: FLOWS_12,
    creates: 'flows',
    run: (h) => h.client.startLiveModel({ name: 'matrix start', model: S.models.pressureCommon }),
  },
  {
    name: 'stopLiveModel',
    method: 'POST',
    route: FLOWS_12,
    creates: 'flows',
    run: (h) => h.client.stopLiveModel({ name: 'matrix stop', model: S.models.temperatureCommon }),
  },
  {
    name: 'anomalyLearn',
    method: 'POST',
    route: FLOWS_13,
    creates: 'flows',
    run: (h) =>
      h.client.anomalyLearn({
        name: 'matrix learn',
        spec: { workspace: S.workspaces.sandbox, dataspec: inline },
      }),
  },
  {
    name: 'anomalyLearnIncremental',
    method: 'POST',
    route: FLOWS_13,
    creates: 'flows',
    run: (h) =>
      h.client.anomalyLearnIncremental({
        name: 'matrix learn more',
        spec: {
          model: S.models.temperatureAnomaly,
          workspace: S.workspaces.pumpStation,
          dataspec: { id: S.dataspec },
        },
      }),
  },
  {
    name: 'anomalyEval',
    method: 'POST',
    route: FLOWS_13,
    creates: 'flows',
    run: (h) =>
      h.client.anomalyEval({
        name: 'matrix eval',
        spec: {
          model: S.models.temperatureAnomaly,
          workspace: S.workspaces.pumpStation,
          dataspec: { id: S.dataspec },
          outputsignalPrefix: 'matrix',
        },
      }),
  },
  {
    name: 'getFlow',
    method: 'GET',
    route: '/flows/\\d+$',
    prepare: async (h) =>
      (await h.client.startLiveModel({ name: 'to read', model: S.models.pressureCommon })).id,
    run: async (h, id) => {
      const got = await h.client.getFlow(id);
      if (!got.supported || got.flow.id !== id) throw new Error(`getFlow answered ${JSON.stringify(got)}`);
      return got;
    },
  },
];

interface Outcome {
  /** Requests that reached the emulator for this one call. */
  attempts: number;
  kind: ServiceErrorKind;
  status?: number;
  /** Flows or workspaces a POST created (checked with a deadline where the emulator handles it late). */
  created?: 0 | 1;
  retryAfterMs?: number;
}
interface Case {
  name: string;
  fault: FaultSpec;
  /** GET and PUT: retried within their bounds where the fault may pass. */
  read: Outcome;
  /** POST: sent once, whatever happens. */
  post: Outcome;
}

const retried = (kind: ServiceErrorKind, status?: number): Outcome => ({
  attempts: MAX_ATTEMPTS,
  kind,
  ...(status ? { status } : {}),
});
const once = (kind: ServiceErrorKind, status?: number, created?: 0 | 1): Outcome => ({
  attempts: 1,
  kind,
  ...(status ? { status } : {}),
  ...(created !== undefined ? { created } : {}),
});

const cases: Case[] = [
  { name: '500', fault: { status: 500 }, read: once('http', 500), post: once('http', 500, 0) },
  { name: '502', fault: { status: 502 }, read: retried('http', 502), post: once('outcome-unknown', 502, 0) },
  { name: '503', fault: { status: 503 }, read: retried('http', 503), post: once('http', 503, 0) },
  { name: '504', fault: { status: 504 }, read: retried('http', 504), post: once('outcome-unknown', 504, 0) },
  {
    name: '429 with Retry-After',
    fault: { status: 429, retryAfter: 1 },
    read: { ...retried('http', 429), retryAfterMs: 1_000 },
    post: { ...once('http', 429, 0), retryAfterMs: 1_000 },
  },
  {
    name: 'latency past the timeout',
    fault: { latencyMs: LATENCY_MS },
    read: retried('timeout'),
    post: once('outcome-unknown', undefined, 1),
  },
  {
    name: 'reset before a response',
    fault: { reset: 'before' },
    read: retried('network'),
    post: once('outcome-unknown', undefined, 0),
  },
  {
    name: 'reset after handling',
    fault: { reset: 'after' },
    read: retried('network'),
    post: once('outcome-unknown', undefined, 1),
  },
  {
    name: 'malformed JSON on a 2xx',
    fault: { corrupt: 'malformed-json' },
    read: once('bad-response', 200),
    post: once('outcome-unknown', 201, 1),
  },
  {
    name: 'non-JSON 2xx',
    fault: { corrupt: 'non-json' },
    read: once('bad-response', 200),
    post: once('outcome-unknown', 201, 1),
  },
  {
    name: '2xx of the wrong shape',
    fault: { corrupt: 'wrong-shape' },
    read: once('bad-response', 200),
    post: once('outcome-unknown', 201, 1),
  },
  {
    name: 'non-JSON error body',
    fault: { status: 502, body: '<html><h1>502 Bad Gateway</h1></html>', contentType: 'text/html' },
    read: retried('http', 502),
    post: once('outcome-unknown', 502, 0),
  },
];

/** What the sentence must promise about side effects, by method and kind. */
function promise(method: Method, kind: ServiceErrorKind, status?: number): RegExp {
  if (method === 'POST')
    return kind === 'outcome-unknown'
      ? /may .*Activity view/
      : /nothing was created|should not have created anything/;
  if (method === 'PUT' && (kind === 'timeout' || kind === 'network' || kind === 'bad-response'))
    return /repeating it is safe/;
  // A gateway's answer to a change: the service behind it may have made it.
  if (method === 'PUT' && (status === 502 || status === 504))
    return /may or may not have been made; repeating it is safe/;
  if (kind === 'bad-response') return /nothing was changed/;
  return /try again/;
}

const harnesses = new Map<string, Harness>();

beforeAll(async () => {
  for (const op of ops)
    harnesses.set(
      op.name,
      await startHarness(
        {
          maxAttempts: MAX_ATTEMPTS,
          maxRetryTimeMs: 10_000,
          requestTimeoutMs: TIMEOUT_MS,
          retryBaseDelayMs: 10,
        },
        // Flows never end by themselves, so a stop flow can be created as often as needed.
        { runningAfterMs: 0, completedAfterMs: 3_600_000 },
      ),
    );
});
afterAll(async () => {
  await Promise.all([...harnesses.values()].map((h) => h.close()));
});

async function underFault(op: Op, c: Case): Promise<void> {
  const h = harnesses.get(op.name)!;
  await h.reset();
  const count = async (what: 'flows' | 'workspaces') => (await h.state())[what]!.length;
  const prepared = op.prepare ? await op.prepare(h) : '';
  const before = op.creates ? await count(op.creates) : 0;
  await h.control('DELETE', 'requests');
  await h.control('POST', 'faults', { method: op.method, path: op.route, ...c.fault });

  const error = await op.run(h, prepared).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error, op.name).toBeInstanceOf(ServiceError);
  const e = error as ServiceError;
  const want = op.method === 'POST' ? c.post : c.read;
  const log = (await h.requests()) as LoggedRequest[];
  expect(
    log.every((r) => r.method === op.method && new RegExp(op.route).test(r.path)),
    op.name,
  ).toBe(true);
  expect({ op: op.name, attempts: log.length, kind: e.kind, status: e.status }).toEqual({
    op: op.name,
    attempts: want.attempts,
    kind: want.kind,
    status: want.status,
  });
  if (want.retryAfterMs !== undefined) expect(e.retryAfterMs, op.name).toBe(want.retryAfterMs);
  if (want.retryAfterMs !== undefined && log.length > 1)
    // A lower bound only: the retry waited at least what Retry-After asked.
    expect(log[1]!.receivedAt - log[0]!.receivedAt, op.name).toBeGreaterThanOrEqual(want.retryAfterMs - 10);
  expect(e.userMessage, op.name).toMatch(promise(op.method, e.kind, e.status));
  expect(e.userMessage, op.name).toMatch(/\.$/);
  expect(`${e.userMessage} ${e.serviceMessage ?? ''}`, op.name).not.toContain(h.emu.token);
  if (c.fault.body !== undefined) expect(e.serviceMessage, op.name).toContain('502 Bad Gateway');

  if (op.creates && want.created !== undefined) {
    const expected = before + want.created;
    // Injected latency delays the handling past the client's timeout; the deadline only bounds a hang.
    await eventually(async () => ((await count(op.creates!)) === expected ? true : undefined));
  }

  // The client is healthy afterwards: the same call succeeds once the fault is gone.
  await h.control('DELETE', 'faults');
  await expect(op.run(h, prepared), op.name).resolves.toBeDefined();
  if (op.creates && want.created !== undefined)
    expect(await count(op.creates), op.name).toBe(before + want.created + 1);
}

describe('every operation under the fault matrix', () => {
  it.each(cases)('$name', async (c) => {
    const outcomes = await Promise.allSettled(ops.map((op) => underFault(op, c)));
    const failed = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
    if (failed.length > 0) throw failed[0];
  });
});
