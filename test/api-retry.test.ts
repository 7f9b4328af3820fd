import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServiceClient, ServiceError } from '../src/api/index.js';
import { SEED } from '../standins/emulator/index.js';
import { type Harness, startHarness } from './support/emulator.js';
import { named } from './support/service-calls.js';

const WS_PATH = `/api/1.3/accounts/${SEED.accountId}/workspace/${SEED.workspaces.pumpStation}`;
const FLOWS_12 = `/api/1.2/accounts/${SEED.accountId}/flows`;
const startLive = { name: 'go live', model: SEED.models.pressureCommon };

async function failure(p: Promise<unknown>): Promise<ServiceError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ServiceError);
  return e as ServiceError;
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ maxAttempts: 4, maxRetryTimeMs: 5_000, requestTimeoutMs: 2_000 });
});
beforeEach(() => h.reset());
afterAll(() => h.close());

describe('retries of reads and moves', () => {
  it('retries a GET through two 503s and then succeeds', async () => {
    await h.fault({ method: 'GET', path: '/workspace/', status: 503, count: 2 });
    const ws = await h.client.getWorkspace(SEED.workspaces.pumpStation);
    expect(ws.id).toBe(SEED.workspaces.pumpStation);
    const reqs = await h.requests();
    expect(reqs.map((r) => [r.method, r.path, r.status])).toEqual([
      ['GET', WS_PATH, 503],
      ['GET', WS_PATH, 503],
      ['GET', WS_PATH, 200],
    ]);
  });

  it('waits at least the Retry-After of a 429 before the next attempt', async () => {
    await h.fault({ method: 'GET', path: '/workspace/', status: 429, retryAfter: 1, count: 1 });
    await h.client.getWorkspace(SEED.workspaces.pumpStation);
    const reqs = await h.requests();
    expect(reqs.map((r) => r.status)).toEqual([429, 200]);
    // Lower bound only (a sleep never ends early by more than timer rounding); no upper bound is asserted.
    expect(reqs[1]!.receivedAt - reqs[0]!.receivedAt).toBeGreaterThanOrEqual(990);
  });

  it('gives up at once when Retry-After exceeds the retry time budget', async () => {
    await h.fault({ method: 'GET', status: 429, retryAfter: 60, count: 1 });
    const e = await failure(h.client.getWorkspace(SEED.workspaces.pumpStation));
    expect(e).toMatchObject({ kind: 'http', status: 429, retryAfterSeconds: 60 });
    expect(await h.requests()).toHaveLength(1);
  });

  it('stops after maxAttempts and reports the last failure', async () => {
    await h.fault({ method: 'GET', status: 502 });
    const e = await failure(h.client.findCommonModel(SEED.assessments.temperature));
    expect(e).toMatchObject({ kind: 'http', status: 502 });
    expect(e.userMessage).toMatch(/service failed/);
    expect(await h.requests()).toHaveLength(4);
  });

  it('retries a GET after a connection reset', async () => {
    await h.fault({ method: 'GET', reset: 'before', count: 1 });
    await expect(h.client.getWorkspace(SEED.workspaces.pumpStation)).resolves.toMatchObject({
      id: SEED.workspaces.pumpStation,
    });
    expect(await h.requests()).toHaveLength(2);
  });

  it('retries a PUT after a 504 and a timeout', async () => {
    await h.fault({ method: 'PUT', status: 504, count: 1 });
    await h.fault({ method: 'PUT', latencyMs: 6_000, count: 1 });
    const m = await h.client.moveModel(SEED.models.temperatureAnomaly, SEED.workspaces.sandbox);
    expect(m.workspace).toBe(SEED.workspaces.sandbox);
    const reqs = await h.requests();
    expect(reqs.map((r) => r.method)).toEqual(['PUT', 'PUT', 'PUT']);
  });

  it('does not retry a 404 or 400', async () => {
    const e = await failure(h.client.getWorkspace('1399999999999999999'));
    expect(e).toMatchObject({ kind: 'http', status: 404 });
    expect(e.userMessage).toContain('workspace 1399999999999999999');
    expect(await h.requests()).toHaveLength(1);
  });
});

describe('flow creation is never duplicated', () => {
  it('a POST reset after the service handled it is not retried: outcome unknown, exactly one flow', async () => {
    await h.fault({ method: 'POST', path: '/flows$', reset: 'after', count: 1 });
    const e = await failure(h.client.startLiveModel(startLive));
    expect(e.kind).toBe('outcome-unknown');
    expect(e.userMessage).toMatch(/Activity view/);
    const reqs = await h.requests();
    expect(reqs.map((r) => [r.method, r.path])).toEqual([['POST', FLOWS_12]]);
    expect((await h.state()).flows).toHaveLength(1);
  });

  it('a POST that timed out is not retried: outcome unknown', async () => {
    await h.fault({ method: 'POST', latencyMs: 6_000, count: 1 });
    const e = await failure(h.client.startLiveModel(startLive));
    expect(e.kind).toBe('outcome-unknown');
    expect(await h.requests()).toHaveLength(1);
  });

  it('a POST answered 503 or 429 is not retried', async () => {
    await h.fault({ method: 'POST', status: 503, count: 1 });
    await h.fault({ method: 'POST', status: 429, retryAfter: 0, count: 1 });
    expect(await failure(h.client.startLiveModel(startLive))).toMatchObject({ kind: 'http', status: 503 });
    expect(await failure(h.client.startLiveModel(startLive))).toMatchObject({ kind: 'http', status: 429 });
    expect(await h.requests()).toHaveLength(2);
    expect((await h.state()).flows).toHaveLength(0);
  });

  it('a POST to a port nobody listens on is a network error (provably never sent), not outcome unknown', async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((r) => server.close(() => r()));
    const client = named(
      createServiceClient({
        baseUrl: `http://127.0.0.1:${port}`,
        accountId: SEED.accountId,
        token: 'some-secret-token-value',
        retryBaseDelayMs: 5,
      }),
    );
    const e = await failure(client.startLiveModel(startLive));
    await client.close();
    expect(e.kind).toBe('network');
    expect(e.userMessage).toContain('ECONNREFUSED');
  });
});
