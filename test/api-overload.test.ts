import { afterEach, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClientOptions, ServiceError } from '../src/api/index.js';
import { serviceFailure } from '../src/core/service-errors.js';
import { SEED } from '../standins/emulator/index.js';
import { type Harness, startHarness } from './support/emulator.js';
import { named } from './support/service-calls.js';

const FLOWS_12 = `/api/1.2/accounts/${SEED.accountId}/flows`;
const live = (name: string) => ({ name, model: SEED.models.pressureCommon });

type Settled = { ok: true; name: string } | { ok: false; name: string; error: unknown };

function settle(name: string, p: Promise<unknown>): Promise<Settled> {
  return p.then(
    () => ({ ok: true as const, name }),
    (error: unknown) => ({ ok: false as const, name, error }),
  );
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function harness(o: Partial<ServiceClientOptions>) {
  h = await startHarness({ maxAttempts: 1, ...o });
  return h;
}

async function postedNames(harness: Harness): Promise<string[]> {
  const reqs = await harness.requests();
  return reqs
    .filter((r) => r.method === 'POST' && r.path === FLOWS_12)
    .map((r) => (r.body as { name: string }).name)
    .sort();
}

describe('client overload: bounded in-flight requests and queue', () => {
  it('fails requests beyond pool + queue at once as busy, sends none of them, and completes the queued ones', async () => {
    const t = await harness({ maxConnections: 2, maxQueued: 2, maxQueueWaitMs: 60_000 });
    await t.fault({ method: 'POST', path: '/flows', latencyMs: 400 });
    const names = ['a', 'b', 'c', 'd', 'e', 'f'];
    const results = await Promise.all(names.map((n) => settle(n, t.client.startLiveModel(live(n)))));

    expect(results.filter((r) => r.ok).map((r) => r.name)).toEqual(['a', 'b', 'c', 'd']);
    const failed = results.filter((r) => !r.ok);
    expect(failed.map((r) => r.name)).toEqual(['e', 'f']);
    for (const f of failed) {
      expect(f.error).toBeInstanceOf(ServiceError);
      const e = f.error as ServiceError;
      expect(e.kind).toBe('busy');
      expect(e.userMessage).toMatch(/nothing was sent/i);
      expect(e.userMessage).toMatch(/try again/i);
    }
    expect(await postedNames(t)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('a POST that waited for a connection past its queue wait is busy, not outcome-unknown, and never sent', async () => {
    const t = await harness({ maxConnections: 1, maxQueued: 10, maxQueueWaitMs: 100 });
    await t.fault({ method: 'POST', path: '/flows', latencyMs: 1_500, count: 1 });
    const [first, second] = await Promise.all([
      settle('slow', t.client.startLiveModel(live('slow'))),
      settle('queued', t.client.startLiveModel(live('queued'))),
    ]);
    expect(first.ok).toBe(true);
    expect(second.ok).toBe(false);
    const e = (second as { error: unknown }).error as ServiceError;
    expect(e).toBeInstanceOf(ServiceError);
    expect(e.kind).toBe('busy');
    expect(await postedNames(t)).toEqual(['slow']);
  });

  it('starts the request timeout only once a connection is held, so a queued POST is not cut short', async () => {
    // Each request alone takes 700 ms of a 1.2 s timeout; the second one waits ~700 ms for the single
    // connection first, which would have made it outcome-unknown if the timeout ran while it queued.
    const t = await harness({
      maxConnections: 1,
      maxQueued: 10,
      maxQueueWaitMs: 60_000,
      requestTimeoutMs: 1_200,
    });
    await t.fault({ method: 'POST', path: '/flows', latencyMs: 700, count: 2 });
    const results = await Promise.all([
      settle('one', t.client.startLiveModel(live('one'))),
      settle('two', t.client.startLiveModel(live('two'))),
    ]);
    expect(results).toEqual([
      { ok: true, name: 'one' },
      { ok: true, name: 'two' },
    ]);
    expect(await postedNames(t)).toEqual(['one', 'two']);
  });

  it('with no queue at all, a second concurrent GET is busy while the first succeeds', async () => {
    const t = await harness({ maxConnections: 1, maxQueued: 0 });
    await t.fault({ method: 'GET', path: '/workspace/', latencyMs: 300, count: 1 });
    const [a, b] = await Promise.all([
      settle('a', t.client.getWorkspace(SEED.workspaces.pumpStation)),
      settle('b', t.client.getWorkspace(SEED.workspaces.pumpStation)),
    ]);
    expect(a.ok).toBe(true);
    expect(((b as { error: unknown }).error as ServiceError).kind).toBe('busy');
    expect((await t.requests()).filter((r) => r.method === 'GET')).toHaveLength(1);
    // The slot is free again afterwards.
    await expect(t.client.getWorkspace(SEED.workspaces.pumpStation)).resolves.toMatchObject({
      id: SEED.workspaces.pumpStation,
    });
  });
});

describe('busy in the bot', () => {
  const busy = new ServiceError(
    'busy',
    'The bot is already waiting on too many requests to the service, so nothing was sent to it; try again in a few seconds.',
  );

  it('the user sentence says nothing was sent and is not an outcome-unknown (so approvals may Retry)', () => {
    const f = serviceFailure(busy, 'start the live model');
    expect(f).toEqual({
      ok: false,
      message: `Could not start the live model right now: ${busy.userMessage}`,
    });
    expect('outcomeUnknown' in f).toBe(false);
  });
});

describe('client lifecycle', () => {
  it('closes cleanly when no request was ever made, and sends nothing afterwards', async () => {
    const t = await harness({});
    const fresh = named(
      createServiceClient({ baseUrl: t.emu.url, accountId: t.emu.accountId, token: t.emu.token }),
    );
    await fresh.close();
    const e = await fresh.getWorkspace(SEED.workspaces.pumpStation).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(ServiceError);
    expect((await t.requests()).length).toBe(0);
  });
});
