import { describe, expect, it } from 'vitest';
import type { NewSchedule } from '../../src/store/index.js';
import { type StoreLocation, storesForEachTest } from './fixtures/store.js';

const T0 = Date.UTC(2026, 10, 23, 6, 0, 0);

export function newSchedule(over: Partial<NewSchedule> = {}): NewSchedule {
  return {
    teamId: 'T0TEAM',
    channelId: 'C0OPS',
    ownerId: 'U0ALICE',
    name: 'score every weekday at 06:00',
    kind: 'command',
    command: 'score 1353853719423311873 workspace=1353853719423311872 range="last 8 hours"',
    whenText: 'every weekday at 06:00',
    rule: { kind: 'cron', pattern: '0 6 * * 1-5' },
    timeZone: 'Europe/Berlin',
    status: 'active',
    createdAt: T0 - 60_000,
    nextRunAt: T0,
    ...over,
  };
}

/** The schedules part of the store contract, run against every implementation. */
export function scheduleConformance(name: string, createLocation: () => Promise<StoreLocation>): void {
  describe(`Schedules: ${name}`, () => {
    const open = storesForEachTest(createLocation);

    it('keeps every field of a schedule, lists a channel’s oldest first and leaves deleted ones out', async () => {
      const s = await open();
      const a = await s.createSchedule(newSchedule({ approvalId: 'req-1' }));
      expect(a).toMatchObject({
        teamId: 'T0TEAM',
        channelId: 'C0OPS',
        ownerId: 'U0ALICE',
        kind: 'command',
        rule: { kind: 'cron', pattern: '0 6 * * 1-5' },
        timeZone: 'Europe/Berlin',
        status: 'active',
        approvalId: 'req-1',
        nextRunAt: T0,
        lastOutcome: null,
        leaseOwner: null,
      });
      expect(a.id).toMatch(/^[0-9a-f]{12}$/);
      // The trace of the request that made it, which each run links to; none when tracing was off.
      expect(a.traceParent).toBeNull();
      const traced = await s.createSchedule(
        newSchedule({
          channelId: 'C0TRACED',
          traceParent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
        }),
      );
      expect((await s.getSchedule(traced.id))?.traceParent).toBe(
        '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      );
      const b = await s.createSchedule(newSchedule({ createdAt: T0, ownerId: 'U0BOB' }));
      await s.createSchedule(newSchedule({ channelId: 'C0ELSE' }));
      expect((await s.listSchedules({ channelId: 'C0OPS' })).map((x) => x.id)).toEqual([a.id, b.id]);
      expect((await s.listSchedules({ teamId: 'T0TEAM', ownerId: 'U0BOB' })).map((x) => x.id)).toEqual([
        b.id,
      ]);
      await s.setScheduleStatus(a.id, { status: 'deleted', by: 'U0ALICE', at: T0, nextRunAt: null });
      expect((await s.listSchedules({ channelId: 'C0OPS' })).map((x) => x.id)).toEqual([b.id]);
      expect((await s.getSchedule(a.id))?.status).toBe('deleted');
    });

    it('changes a status only from the expected ones (compare-and-set)', async () => {
      const s = await open();
      const a = await s.createSchedule(newSchedule({ status: 'awaiting-approval', nextRunAt: null }));
      const approved = await s.setScheduleStatus(a.id, {
        status: 'active',
        by: 'U0CAROL',
        at: T0,
        nextRunAt: T0 + 1000,
        from: ['awaiting-approval'],
      });
      expect(approved).toMatchObject({ status: 'active', statusBy: 'U0CAROL', nextRunAt: T0 + 1000 });
      const again = await s.setScheduleStatus(a.id, {
        status: 'rejected',
        by: 'U0DAVE',
        at: T0,
        nextRunAt: null,
        from: ['awaiting-approval'],
      });
      expect(again).toBeNull();
      const paused = await s.setScheduleStatus(a.id, {
        status: 'paused',
        reason: 'Paused by Alice.',
        by: 'U0ALICE',
        at: T0,
        nextRunAt: null,
      });
      expect(paused).toMatchObject({ status: 'paused', statusReason: 'Paused by Alice.', nextRunAt: null });
    });

    it('keeps who decides a schedule, and changes it, and its owner, only with a compare-and-set', async () => {
      const s = await open();
      const plain = await s.createSchedule(newSchedule());
      expect(plain).toMatchObject({ approversWorkspace: null, approversStrictest: false, modelDoubt: null });
      const live = await s.createSchedule(
        newSchedule({
          status: 'awaiting-approval',
          nextRunAt: null,
          approversWorkspace: { id: '1030000000000000001', name: 'Pump station A' },
        }),
      );
      expect((await s.getSchedule(live.id))?.approversWorkspace).toEqual({
        id: '1030000000000000001',
        name: 'Pump station A',
      });
      const unseen = await s.createSchedule(newSchedule({ approversStrictest: true, modelDoubt: 'unseen' }));
      expect(await s.getSchedule(unseen.id)).toMatchObject({
        approversStrictest: true,
        modelDoubt: 'unseen',
      });

      // Taken over by Bob while Alice owns it: back to the approvers, whose rule is now the bot's.
      const taken = await s.setScheduleStatus(live.id, {
        status: 'awaiting-approval',
        from: ['awaiting-approval', 'paused'],
        fromOwner: 'U0ALICE',
        ownerId: 'U0BOB',
        approvers: { approversWorkspace: null, approversStrictest: false, modelDoubt: 'no-workspace' },
        by: 'U0BOB',
        at: T0,
        nextRunAt: null,
      });
      expect(taken).toMatchObject({
        ownerId: 'U0BOB',
        approversWorkspace: null,
        approversStrictest: false,
        modelDoubt: 'no-workspace',
      });
      // A second take-over that still expects Alice changes nothing.
      expect(
        await s.setScheduleStatus(live.id, {
          status: 'awaiting-approval',
          fromOwner: 'U0ALICE',
          ownerId: 'U0CAROL',
          by: 'U0CAROL',
          at: T0,
          nextRunAt: null,
        }),
      ).toBeNull();
      // A change that names no approvers keeps them.
      const paused = await s.setScheduleStatus(unseen.id, {
        status: 'paused',
        by: 'system',
        at: T0,
        nextRunAt: null,
      });
      expect(paused).toMatchObject({ ownerId: 'U0ALICE', approversStrictest: true, modelDoubt: 'unseen' });
    });

    it('counts and pages a channel’s schedules, and finds one by its name whatever its case', async () => {
      const s = await open();
      const made = [];
      for (let i = 0; i < 105; i++)
        made.push(await s.createSchedule(newSchedule({ name: `Bulk ${i + 1}`, createdAt: T0 + i })));
      await s.createSchedule(newSchedule({ channelId: 'C0ELSE' }));
      await s.setScheduleStatus(made[0]!.id, { status: 'deleted', by: 'U0ALICE', at: T0, nextRunAt: null });
      expect(await s.countSchedules({ channelId: 'C0OPS', teamId: 'T0TEAM' })).toBe(104);
      expect(await s.countSchedules({ ownerId: 'U0ALICE' })).toBe(105);
      const page = await s.listSchedules({ channelId: 'C0OPS', limit: 20, offset: 100 });
      expect(page.map((x) => x.name)).toEqual(['Bulk 102', 'Bulk 103', 'Bulk 104', 'Bulk 105']);
      expect((await s.listSchedules({ channelId: 'C0OPS', offset: 103, limit: 1 }))[0]?.id).toBe(
        made[104]!.id,
      );
      expect((await s.listSchedules({ channelId: 'C0OPS', name: 'bulk 103' })).map((x) => x.id)).toEqual([
        made[102]!.id,
      ]);
      expect(await s.listSchedules({ channelId: 'C0OPS', name: 'bulk 1' })).toEqual([]);
    });

    it('leases due active schedules to one replica at a time; a lapsed lease is taken over', async () => {
      const [a, b] = [await open(), await open()];
      const due = await a.createSchedule(newSchedule());
      await a.createSchedule(newSchedule({ nextRunAt: T0 + 60_000 }));
      await a.createSchedule(newSchedule({ status: 'paused', nextRunAt: T0 - 1 }));
      const [first, second] = await Promise.all([
        a.claimDueSchedules({ owner: 'A', now: T0, leaseMs: 30_000, limit: 10 }),
        b.claimDueSchedules({ owner: 'B', now: T0, leaseMs: 30_000, limit: 10 }),
      ]);
      expect([...first, ...second].map((x) => x.id)).toEqual([due.id]);
      expect(await b.claimDueSchedules({ owner: 'B', now: T0 + 29_000, leaseMs: 30_000, limit: 10 })).toEqual(
        [],
      );
      const taken = await b.claimDueSchedules({ owner: 'B', now: T0 + 31_000, leaseMs: 30_000, limit: 10 });
      expect(taken.map((x) => [x.id, x.leaseOwner])).toEqual([[due.id, 'B']]);
      // The old holder's advance is fenced off.
      expect(
        await a.advanceSchedule({ id: due.id, owner: 'A', nextRunAt: T0 + 86_400_000, at: T0 }),
      ).toBeNull();
      const moved = await b.advanceSchedule({
        id: due.id,
        owner: 'B',
        nextRunAt: T0 + 86_400_000,
        at: T0 + 31_000,
        last: { at: T0, outcome: 'failed', detail: 'The model does not exist.' },
      });
      expect(moved).toMatchObject({
        nextRunAt: T0 + 86_400_000,
        leaseOwner: null,
        lastRunAt: T0,
        lastOutcome: 'failed',
        lastDetail: 'The model does not exist.',
      });
    });

    it('claims each planned run once, across handles racing for it', async () => {
      const stores = [await open(), await open(), await open()];
      const s = await stores[0]!.createSchedule(newSchedule());
      const claims = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          stores[i % 3]!.claimScheduleRun({ scheduleId: s.id, plannedAt: T0, owner: `R${i}`, at: T0 }),
        ),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(
        await stores[1]!.claimScheduleRun({
          scheduleId: s.id,
          plannedAt: T0 + 86_400_000,
          owner: 'X',
          at: T0,
        }),
      ).toBe(true);
      const runs = await stores[2]!.listScheduleRuns({ scheduleIds: [s.id] });
      expect(runs.map((r) => [r.plannedAt, r.state])).toEqual([
        [T0 + 86_400_000, 'claimed'],
        [T0, 'claimed'],
      ]);
    });

    it('finishes a claimed run once; a skipped run is recorded finished', async () => {
      const s = await open();
      const sc = await s.createSchedule(newSchedule());
      await s.claimScheduleRun({ scheduleId: sc.id, plannedAt: T0, owner: 'A', at: T0 });
      const done = await s.finishScheduleRun({
        scheduleId: sc.id,
        plannedAt: T0,
        state: 'ok',
        at: T0 + 500,
        flowId: '1400000000000000001',
      });
      expect(done).toMatchObject({ state: 'ok', flowId: '1400000000000000001', finishedAt: T0 + 500 });
      expect(
        await s.finishScheduleRun({ scheduleId: sc.id, plannedAt: T0, state: 'failed', at: T0 }),
      ).toBeNull();
      const skipped = await s.claimScheduleRun({
        scheduleId: sc.id,
        plannedAt: T0 - 86_400_000,
        owner: 'A',
        at: T0,
        state: 'skipped',
        detail: 'missed',
      });
      expect(skipped).toBe(true);
      const runs = await s.listScheduleRuns({ since: T0 - 86_400_000 });
      expect(runs.map((r) => [r.state, r.finishedAt, r.detail])).toEqual([
        ['ok', T0 + 500, null],
        ['skipped', T0, 'missed'],
      ]);
    });

    it('marks runs whose process died after the claim outcome unknown, once', async () => {
      const [a, b] = [await open(), await open()];
      const sc = await a.createSchedule(newSchedule());
      await a.claimScheduleRun({ scheduleId: sc.id, plannedAt: T0, owner: 'A', at: T0 });
      await a.claimScheduleRun({ scheduleId: sc.id, plannedAt: T0 + 1, owner: 'A', at: T0 + 10_000 });
      const [x, y] = await Promise.all([
        a.markInterruptedRuns(T0 + 5_000, T0 + 6_000),
        b.markInterruptedRuns(T0 + 5_000, T0 + 6_000),
      ]);
      expect([...x, ...y].map((r) => [r.plannedAt, r.state])).toEqual([[T0, 'unknown']]);
      // Never claimed again.
      expect(await b.claimScheduleRun({ scheduleId: sc.id, plannedAt: T0, owner: 'B', at: T0 + 7_000 })).toBe(
        false,
      );
    });
  });
}
