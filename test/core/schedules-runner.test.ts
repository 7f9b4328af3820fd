import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCore } from '../../src/core/compose.js';
import { decideSchedule } from '../../src/core/schedules/approval.js';
import { changeSchedule } from '../../src/core/schedules/change.js';
import { type Asker, createSchedule, type SchedulingDeps } from '../../src/core/schedules/manage.js';
import { performScheduled } from '../../src/core/schedules/perform.js';
import { PARALLEL_RUNS, type ScheduleEvent, ScheduleRunner } from '../../src/core/schedules/runner.js';
import type { Store } from '../../src/store/index.js';
import { SEED } from '../../standins/emulator/index.js';
import { type Harness, startHarness } from '../support/emulator.js';
import { storeForEachTest } from '../support/fixtures/store.js';

const M = '1070000000000000002';
// Friday 27 November 2026, 05:00 UTC.
let now = Date.UTC(2026, 10, 27, 5);
const ALICE: Asker = { userId: 'U0ALICE', teamId: 'T0', channelId: 'C0OPS', person: { timeZone: 'UTC' } };

let emu: Harness;
beforeAll(async () => {
  emu = await startHarness({ maxAttempts: 1, retryBaseDelayMs: 1 });
});
afterAll(async () => {
  await emu.close();
});

describe('schedules in core: created as a typed command is read, run once per planned instant', () => {
  let store: Store;
  storeForEachTest((s) => {
    store = s;
  });
  beforeEach(async () => {
    await emu.reset();
    now = Date.UTC(2026, 10, 27, 5);
  });
  const setup = (o: { approvers?: string[]; operators?: string[] } = {}) => {
    const core = createCore({
      store,
      service: emu.client,
      now: () => new Date(now),
      log: { info: () => {}, error: () => {} },
      expandGroup: async () => [],
      policy: { operators: o.operators ?? [] },
      approvals: { approvers: o.approvers ?? ['U0BOB'] },
      timeZone: 'UTC',
    });
    const deps: SchedulingDeps = {
      store,
      operations: core.operations,
      now: () => new Date(now),
      limits: { perPerson: 1_000, perChannel: 1_000, minIntervalMs: 60_000 },
    };
    const events: ScheduleEvent[] = [];
    const runner = (owner: string) =>
      new ScheduleRunner({
        store,
        now: () => new Date(now),
        owner,
        catchUpMs: 3_600_000,
        perform: async (s, at) =>
          (await performScheduled({ store, operations: core.operations }, s, at)).report,
        tell: async (e) => void events.push(e),
        log: { info: () => {}, error: () => {} },
      });
    return { deps, runner, events };
  };
  const posts = async () => (await emu.requests()).filter((r) => r.method === 'POST');
  /** Alice's schedule of a workspace creation every day at 06:00. */
  const atSix = async (deps: Parameters<typeof createSchedule>[0], name: string) => {
    const made = await createSchedule(deps, ALICE, {
      kind: 'create',
      whenText: 'every day at 06:00',
      commandText: `workspace create "${name}"`,
    });
    if (!made.ok) throw new Error(made.message);
    return made;
  };

  it('a schedule typed in its owner’s language reads its range in it at every run', async () => {
    const { deps } = setup();
    const dirk: Asker = {
      userId: 'U0DIRK',
      teamId: 'T0',
      channelId: 'C0OPS',
      person: { timeZone: 'Europe/Berlin', locale: 'de-DE' },
    };
    const W = SEED.workspaces.pumpStation;
    const T = SEED.signals.temperature;
    const made = await createSchedule(deps, dirk, {
      kind: 'create',
      whenText: 'every day at 06:00',
      commandText: `learn workspace=${W} signals=${T} range="die letzten 8 Stunden"`,
    });
    if (!made.ok) throw new Error(made.message);
    const at = Date.UTC(2026, 10, 27, 5); // 06:00 in Berlin
    // Read without the owner's language, the German is not a range: the run is refused, nothing is sent.
    const blind = await performScheduled({ store, operations: deps.operations }, made.schedule, at);
    expect(blind.report).toMatchObject({
      outcome: 'failed',
      detail: expect.stringMatching(/could not read/),
    });
    expect(await posts()).toEqual([]);
    const run = await performScheduled(
      { store, operations: deps.operations, localeOf: async () => 'de-DE' },
      made.schedule,
      at,
    );
    expect(run.report.outcome).toBe('ok');
    const body = (await posts()).at(-1)?.body as {
      spec?: { dataspec?: { specs?: { timeRanges?: unknown }[] } };
    };
    expect(body.spec?.dataspec?.specs?.[0]?.timeRanges).toEqual([
      { startTime: '2026-11-26T21:00:00Z', endTime: '2026-11-27T05:00:00Z' },
    ]);
  });

  it('two runners racing over the same due schedule run its planned instant once', async () => {
    const { deps, runner } = setup();
    const made = await atSix(deps, 'made at six');
    now = Date.UTC(2026, 10, 27, 6, 0, 1);
    await Promise.all([runner('A').round(), runner('B').round(), runner('C').round()]);
    expect(await posts()).toHaveLength(1);
    const s = await store.getSchedule(made.schedule.id);
    expect(s).toMatchObject({ lastOutcome: 'ok', nextRunAt: Date.UTC(2026, 10, 28, 6), leaseOwner: null });
    await runner('A').round();
    expect(await posts()).toHaveLength(1);
  });

  it('refuses a person the access policy refuses, and a live schedule when nobody can approve it', async () => {
    const notOperator = await createSchedule(setup({ operators: ['U0BOB'] }).deps, ALICE, {
      kind: 'create',
      whenText: 'every day at 06:00',
      commandText: `workspace create "not mine to make"`,
    });
    expect(notOperator).toMatchObject({ ok: false, message: expect.stringMatching(/Nothing was scheduled/) });
    const noApprovers = await createSchedule(setup({ approvers: [] }).deps, ALICE, {
      kind: 'create',
      whenText: 'every day at 06:00',
      commandText: `live start ${M}`,
    });
    expect(noApprovers).toMatchObject({ ok: false, message: expect.stringMatching(/no approvers/) });
    expect(await store.listSchedules()).toEqual([]);
  });

  it('only the owner or an approver changes a schedule; approving is once, and not by its owner', async () => {
    // Alice is an approver too, but not of her own schedule.
    const { deps } = setup({ approvers: ['U0BOB', 'U0ALICE'] });
    const made = await createSchedule(deps, ALICE, {
      kind: 'create',
      whenText: 'every day at 07:00',
      commandText: `live start ${M}`,
    });
    if (!made.ok) throw new Error(made.message);
    expect(made).toMatchObject({
      needsApproval: true,
      schedule: { status: 'awaiting-approval', nextRunAt: null },
    });
    const carol = { ...ALICE, userId: 'U0CAROL' };
    expect(await changeSchedule(deps, carol, { kind: 'change', action: 'delete', ref: '1' })).toMatchObject({
      ok: false,
    });
    const decide = async (userId: string, decision: 'approve' | 'reject') =>
      decideSchedule(
        {
          store,
          approvers: deps.operations.approvers,
          now: deps.now,
          audit: deps.operations.auditLog,
        },
        { schedule: await store.getSchedule(made.schedule.id), userId, decision },
      );
    expect(await decide('U0ALICE', 'approve')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/cannot approve it yourself/),
    });
    expect(await decide('U0CAROL', 'approve')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/not an approver/),
    });
    const [first, second] = await Promise.all([decide('U0BOB', 'approve'), decide('U0BOB', 'reject')]);
    expect([first.ok, second.ok].filter(Boolean)).toHaveLength(1);
    const audit = await store.listAudit({ operationPrefixes: ['schedule.'] });
    expect(
      audit
        .filter((a) => a.outcome === 'ok')
        .map((a) => a.operation)
        .sort(),
    ).toEqual(['schedule.create', first.ok ? 'schedule.approve' : 'schedule.reject'].sort());
    expect(audit.filter((a) => a.outcome === 'refused').map((a) => [a.userId, a.error])).toEqual([
      ['U0CAROL', 'not-approver'],
      ['U0ALICE', 'self-approval'],
    ]);
  });

  it('a run whose process died after claiming it is marked outcome unknown once, the owner told, never run again', async () => {
    const { deps, runner, events } = setup();
    const made = await createSchedule(deps, ALICE, {
      kind: 'create',
      whenText: 'every day at 06:00',
      commandText: 'workspace create "cut off"',
    });
    if (!made.ok) throw new Error(made.message);
    const at = Date.UTC(2026, 10, 27, 6);
    // A replica claimed the 06:00 run and died before anything more.
    expect(
      await store.claimScheduleRun({ scheduleId: made.schedule.id, plannedAt: at, owner: 'dead', at }),
    ).toBe(true);
    now = at + 20 * 60_000;
    const survivor = runner('alive');
    await survivor.round();
    expect(await posts()).toEqual([]);
    expect(await survivor.sweepInterrupted()).toHaveLength(1);
    expect(await survivor.sweepInterrupted()).toHaveLength(0);
    expect(events.map((e) => e.kind)).toEqual(['interrupted']);
    expect((await store.listScheduleRuns({ scheduleIds: [made.schedule.id] }))[0]).toMatchObject({
      plannedAt: at,
      state: 'unknown',
    });
    expect(await store.getSchedule(made.schedule.id)).toMatchObject({ nextRunAt: Date.UTC(2026, 10, 28, 6) });
  });

  /** `count` schedules of a workspace creation, all due at 06:00, and the clock just after it. */
  const dueAtSix = async (count: number) => {
    const { deps } = setup();
    for (let i = 0; i < count; i++) await atSix(deps, `burst ${i}`);
    now = Date.UTC(2026, 10, 27, 6, 0, 1);
  };
  /**
   * A round whose runs each wait until let go: every run but the first is let go as it starts, the first
   * only once all the others have started (what the service is slow to answer must not hold back the rest).
   */
  const roundHoldingTheFirst = async (count: number, batch?: number) => {
    const started: string[] = [];
    const waiting = new Map<string, () => void>();
    let inFlight = 0;
    let most = 0;
    const runner = new ScheduleRunner({
      store,
      now: () => new Date(now),
      owner: 'burst',
      catchUpMs: 3_600_000,
      ...(batch ? { batch } : {}),
      perform: (s) => {
        started.push(s.id);
        most = Math.max(most, ++inFlight);
        return new Promise((resolve) =>
          waiting.set(s.id, () => {
            inFlight--;
            resolve({ outcome: 'ok' });
          }),
        );
      },
      tell: async () => {},
      log: { info: () => {}, error: () => {} },
    });
    const round = runner.round();
    const until = async (what: string, ok: () => boolean) => {
      for (let i = 0; i < 2000 && !ok(); i++) await new Promise((r) => setImmediate(r));
      if (!ok()) throw new Error(`never: ${what}`);
    };
    await until('the first runs under way', () => started.length === Math.min(count, batch ?? PARALLEL_RUNS));
    const first = started[0]!;
    while (started.length < count) {
      await until('a run to let go', () => [...waiting.keys()].some((id) => id !== first));
      for (const [id, go] of [...waiting]) {
        if (id === first) continue;
        waiting.delete(id);
        go();
      }
    }
    const mostBeforeTheFirstEnded = most;
    waiting.get(first)!();
    return { started, most: mostBeforeTheFirstEnded, handled: await round };
  };

  it('keeps its runs under way side by side: a run the service holds never holds back the others', async () => {
    const count = PARALLEL_RUNS + 20;
    await dueAtSix(count);
    const r = await roundHoldingTheFirst(count);
    expect(r.started).toHaveLength(count);
    expect(r.most).toBe(PARALLEL_RUNS);
    expect(r.handled).toBe(count);
  });

  it('leases the next batch once the leased runs have all started, not once the slowest has ended', async () => {
    await dueAtSix(25);
    const r = await roundHoldingTheFirst(25, 10);
    expect(new Set(r.started).size).toBe(25);
    expect(r.most).toBeLessThanOrEqual(10);
    expect(r.handled).toBe(25);
  });
});
