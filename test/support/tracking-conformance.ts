import { describe, expect, it } from 'vitest';
import type { NewTrackedFlow, Store } from '../../src/store/index.js';
import { type StoreLocation, storesForEachTest } from './fixtures/store.js';

const T0 = Date.UTC(2026, 10, 22, 9, 0, 0);
/** A flow of the team `newFlow` keeps its flows under. */
const key = (flowId: string) => ({ teamId: 'T0TEAM', flowId });

export function newFlow(n: number, over: Partial<NewTrackedFlow> = {}): NewTrackedFlow {
  return {
    flowId: `14000000000000${String(n).padStart(5, '0')}`,
    flowType: 'ANOMALYLEARN',
    teamId: 'T0TEAM',
    channelId: 'C0OPS',
    requesterId: 'U0ALICE',
    origin: 'command',
    asked: '/tsai learn workspace=1 signals=2 range=yesterday',
    request: { kind: 'learn', workspaceId: '1030000000000000001' },
    status: 'CREATED',
    createdAt: T0 + n,
    nextPollAt: T0 + 3_000,
    ...over,
  };
}

/** The tracked-flow part of the store contract, run against every implementation. */
export function trackingConformance(name: string, createLocation: () => Promise<StoreLocation>): void {
  describe(`Tracked flows: ${name}`, () => {
    const open = storesForEachTest(createLocation);

    it('keeps every field of a tracked flow; tracking it again changes nothing', async () => {
      const s = await open();
      const f = await s.trackFlow(newFlow(1, { approvalId: 'req-1', origin: 'approval' }));
      expect(f).toMatchObject({
        flowId: '1400000000000000001',
        flowType: 'ANOMALYLEARN',
        teamId: 'T0TEAM',
        channelId: 'C0OPS',
        requesterId: 'U0ALICE',
        origin: 'approval',
        approvalId: 'req-1',
        request: { kind: 'learn', workspaceId: '1030000000000000001' },
        status: 'CREATED',
        statusChangedAt: T0 + 1,
        polls: 0,
        announcement: null,
        leaseOwner: null,
        finishedAt: null,
        notifiedAt: null,
      });
      const again = await s.trackFlow(newFlow(1, { status: 'RUNNING', channelId: 'C0OTHER' }));
      expect(again).toEqual(f);
      // The trace of the request that created it, when tracing was on; none when it was off.
      expect(f.traceParent).toBeNull();
      const traced = await s.trackFlow(
        newFlow(2, { traceParent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' }),
      );
      expect((await s.getTrackedFlow(key(traced.flowId)))?.traceParent).toBe(
        '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      );
    });

    it('remembers where a flow was announced: a message (in a thread or not), or a response_url with its uses', async () => {
      const s = await open();
      await s.trackFlow(newFlow(1));
      await s.trackFlow(newFlow(2));
      await s.trackFlow(newFlow(3));
      const inThread = { kind: 'message', channelId: 'C0OPS', ts: '17.2', threadTs: '16.9' } as const;
      await s.setFlowAnnouncement(key('1400000000000000003'), inThread);
      expect((await s.getTrackedFlow(key('1400000000000000003')))?.announcement).toEqual(inThread);
      await s.setFlowAnnouncement(key('1400000000000000001'), {
        kind: 'message',
        channelId: 'C0OPS',
        ts: '17.1',
      });
      await s.setFlowAnnouncement(key('1400000000000000002'), {
        kind: 'response-url',
        url: 'https://hooks.slack.com/x',
        issuedAt: T0,
        uses: 1,
      });
      expect((await s.getTrackedFlow(key('1400000000000000001')))?.announcement).toEqual({
        kind: 'message',
        channelId: 'C0OPS',
        ts: '17.1',
      });
      expect((await s.getTrackedFlow(key('1400000000000000002')))?.announcement).toMatchObject({ uses: 1 });
      expect(
        await s.setFlowAnnouncement(key('1999999999999999999'), { kind: 'message', channelId: 'C', ts: '1' }),
      ).toBeNull();
    });

    it("keeps two tenants' flows of the same ID apart: each tracked, announced, leased, updated and pruned as its own", async () => {
      const s = await open();
      const acme = await s.trackFlow(newFlow(1, { teamId: 'T0ACME', asked: 'acme' }));
      const globex = await s.trackFlow(newFlow(1, { teamId: 'T0GLOBEX', asked: 'globex', channelId: 'C0G' }));
      expect([acme.teamId, acme.asked, globex.teamId, globex.asked]).toEqual([
        'T0ACME',
        'acme',
        'T0GLOBEX',
        'globex',
      ]);
      expect(await s.getTrackedFlow({ teamId: 'T0TEAM', flowId: acme.flowId })).toBeNull();
      expect(await s.getTrackedFlow({ flowId: acme.flowId })).toBeNull();
      await s.setFlowAnnouncement(globex, { kind: 'message', channelId: 'C0G', ts: '2.1' });
      expect((await s.getTrackedFlow(acme))?.announcement).toBeNull();
      expect((await s.getTrackedFlow(globex))?.announcement).toMatchObject({ ts: '2.1' });
      const leased = await s.claimDueFlows({ owner: 'A', now: T0 + 10_000, leaseMs: 60_000, limit: 5 });
      expect(leased.map((f) => f.teamId).sort()).toEqual(['T0ACME', 'T0GLOBEX']);
      await s.updateTrackedFlow(acme, 'A', {
        status: 'COMPLETED',
        endReason: 'ended',
        finishedAt: T0 + 11_000,
        release: true,
      });
      expect((await s.getTrackedFlow(globex))?.status).toBe('CREATED');
      expect(
        (await s.listTrackedFlows({ flowId: acme.flowId })).map((f) => [f.teamId, f.status]).sort(),
      ).toEqual([
        ['T0ACME', 'COMPLETED'],
        ['T0GLOBEX', 'CREATED'],
      ]);
      expect(await s.pruneTrackedFlows(T0 + 12_000, 10)).toBe(1);
      expect(await s.getTrackedFlow(acme)).toBeNull();
      expect(await s.getTrackedFlow(globex)).not.toBeNull();
    });

    it('keeps a flow without a team under no team, read only without one', async () => {
      const s = await open();
      const none = await s.trackFlow(newFlow(2, { teamId: undefined }));
      expect(none.teamId).toBeNull();
      expect(await s.getTrackedFlow({ flowId: none.flowId })).toMatchObject({ flowId: none.flowId });
      expect(await s.getTrackedFlow({ teamId: null, flowId: none.flowId })).not.toBeNull();
      expect(await s.getTrackedFlow({ teamId: 'T0TEAM', flowId: none.flowId })).toBeNull();
      expect((await s.listTrackedFlows({ teamId: 'T0TEAM' })).map((f) => f.flowId)).not.toContain(
        none.flowId,
      );
    });

    it('leases only due, unfinished, unleased flows; a lease that ran out can be taken by another owner', async () => {
      const s = await open();
      await s.trackFlow(newFlow(1));
      await s.trackFlow(newFlow(2, { nextPollAt: T0 + 60_000 }));
      await s.trackFlow(newFlow(3));
      const a = await s.claimDueFlows({ owner: 'A', now: T0 + 3_000, leaseMs: 30_000, limit: 10 });
      expect(a.map((f) => f.flowId).sort()).toEqual(['1400000000000000001', '1400000000000000003']);
      expect(a[0]).toMatchObject({ leaseOwner: 'A', leaseUntil: T0 + 33_000 });
      expect(await s.claimDueFlows({ owner: 'B', now: T0 + 10_000, leaseMs: 30_000, limit: 10 })).toEqual([]);
      await s.updateTrackedFlow(key('1400000000000000003'), 'A', {
        finishedAt: T0 + 4_000,
        endReason: 'ended',
      });
      const b = await s.claimDueFlows({ owner: 'B', now: T0 + 34_000, leaseMs: 30_000, limit: 10 });
      expect(b.map((f) => f.flowId)).toEqual(['1400000000000000001']);
      expect(b[0]!.leaseOwner).toBe('B');
    });

    it('only the holder of the lease can write a poll; release gives the lease back', async () => {
      const s = await open();
      await s.trackFlow(newFlow(1));
      await s.claimDueFlows({ owner: 'A', now: T0 + 3_000, leaseMs: 30_000, limit: 1 });
      expect(await s.updateTrackedFlow(key('1400000000000000001'), 'B', { status: 'RUNNING' })).toBeNull();
      const written = await s.updateTrackedFlow(key('1400000000000000001'), 'A', {
        status: 'COMPLETED',
        statusChangedAt: T0 + 5_000,
        shownStatus: 'COMPLETED',
        showNotBefore: null,
        polls: 1,
        nextPollAt: T0 + 10_000,
        finishedAt: T0 + 5_000,
        endReason: 'ended',
        result: { models: [{ id: '1070000000000000009', name: 'M[1]' }] },
        failure: null,
        notifiedAt: T0 + 5_000,
        release: true,
      });
      expect(written).toMatchObject({
        status: 'COMPLETED',
        shownStatus: 'COMPLETED',
        polls: 1,
        endReason: 'ended',
        result: { models: [{ id: '1070000000000000009', name: 'M[1]' }] },
        notifiedAt: T0 + 5_000,
        leaseOwner: null,
        leaseUntil: null,
      });
      // A finished flow is never leased again.
      expect(await s.claimDueFlows({ owner: 'A', now: T0 + 99_000, leaseMs: 1, limit: 5 })).toEqual([]);
    });

    it('the holder can extend its lease; once another owner has the flow it cannot', async () => {
      const s = await open();
      await s.trackFlow(newFlow(1));
      await s.claimDueFlows({ owner: 'A', now: T0 + 3_000, leaseMs: 30_000, limit: 1 });
      const held = await s.updateTrackedFlow(key('1400000000000000001'), 'A', { leaseUntil: T0 + 60_000 });
      expect(held).toMatchObject({ leaseOwner: 'A', leaseUntil: T0 + 60_000 });
      // Extended: not free at the first lease's end.
      expect(await s.claimDueFlows({ owner: 'B', now: T0 + 40_000, leaseMs: 30_000, limit: 1 })).toEqual([]);
      const b = await s.claimDueFlows({ owner: 'B', now: T0 + 61_000, leaseMs: 30_000, limit: 1 });
      expect(b.map((f) => f.leaseOwner)).toEqual(['B']);
      expect(
        await s.updateTrackedFlow(key('1400000000000000001'), 'A', { leaseUntil: T0 + 99_000 }),
      ).toBeNull();
      expect((await s.getTrackedFlow(key('1400000000000000001')))?.leaseUntil).toBe(T0 + 91_000);
    });

    it('gives back every lease of an owner at shutdown', async () => {
      const s = await open();
      for (let i = 1; i <= 3; i++) await s.trackFlow(newFlow(i));
      await s.claimDueFlows({ owner: 'A', now: T0 + 3_000, leaseMs: 600_000, limit: 2 });
      expect(await s.releaseFlowLeases('A')).toBe(2);
      const b = await s.claimDueFlows({ owner: 'B', now: T0 + 4_000, leaseMs: 600_000, limit: 5 });
      expect(b).toHaveLength(3);
    });

    it('prunes flows whose end was told before the cutoff; flows still followed never', async () => {
      const s = await open();
      for (let i = 1; i <= 4; i++) await s.trackFlow(newFlow(i));
      await s.claimDueFlows({ owner: 'A', now: T0 + 3_000, leaseMs: 600_000, limit: 4 });
      const end = (n: number, patch: Parameters<Store['updateTrackedFlow']>[2]) =>
        s.updateTrackedFlow(newFlow(n), 'A', { endReason: 'ended', notifiedAt: T0 + 9_000, ...patch });
      await end(1, { finishedAt: T0 + 10_000, release: true });
      await end(2, { finishedAt: T0 + 20_000, release: true });
      await end(3, {});
      expect(await s.pruneTrackedFlows(T0 + 15_000, 10)).toBe(1);
      expect(await s.getTrackedFlow(newFlow(1))).toBeNull();
      expect(await s.getTrackedFlow(newFlow(2))).not.toBeNull();
      expect(await s.pruneTrackedFlows(T0 + 1_000_000_000, 1)).toBe(1);
      expect(await s.pruneTrackedFlows(T0 + 1_000_000_000, 10)).toBe(0);
      const left = (await s.listTrackedFlows()).map((f) => f.flowId.slice(-1));
      expect(left).toEqual(['4', '3']);
    });

    it('lists flows newest first, by channel, requester, team, type and age', async () => {
      const s = await open();
      await s.trackFlow(newFlow(1));
      await s.trackFlow(newFlow(2, { channelId: 'C0ELSE', requesterId: 'U0BOB', flowType: 'STOPLIVEMODEL' }));
      await s.trackFlow(newFlow(3, { teamId: 'T0OTHER' }));
      const ids = (fs: { flowId: string }[]) => fs.map((f) => f.flowId.slice(-1));
      expect(ids(await s.listTrackedFlows())).toEqual(['3', '2', '1']);
      expect(ids(await s.listTrackedFlows({ channelId: 'C0OPS' }))).toEqual(['3', '1']);
      expect(ids(await s.listTrackedFlows({ requesterId: 'U0BOB' }))).toEqual(['2']);
      expect(ids(await s.listTrackedFlows({ teamId: 'T0TEAM', channelId: 'C0OPS' }))).toEqual(['1']);
      expect(ids(await s.listTrackedFlows({ since: T0 + 2 }))).toEqual(['3', '2']);
      expect(ids(await s.listTrackedFlows({ limit: 1 }))).toEqual(['3']);
      expect(ids(await s.listTrackedFlows({ flowTypes: ['STARTLIVEMODEL', 'STOPLIVEMODEL'] }))).toEqual([
        '2',
      ]);
      expect(ids(await s.listTrackedFlows({ flowTypes: ['ANOMALYLEARN'], limit: 1 }))).toEqual(['3']);
      expect(await s.listTrackedFlows({ flowTypes: [] })).toEqual([]);
    });

    it('two handles claiming at once never lease the same flow, and between them lease all', async () => {
      const first = await open();
      const second = await open();
      const n = 200;
      for (let i = 1; i <= n; i++) await first.trackFlow(newFlow(i));
      const claim = (s: Store, owner: string) =>
        s.claimDueFlows({ owner, now: T0 + 3_000, leaseMs: 60_000, limit: 25 });
      const a: string[] = [];
      const b: string[] = [];
      for (let round = 0; round < 8; round++) {
        const [x, y] = await Promise.all([claim(first, 'A'), claim(second, 'B')]);
        a.push(...x.map((f) => f.flowId));
        b.push(...y.map((f) => f.flowId));
      }
      expect(a.filter((id) => b.includes(id))).toEqual([]);
      expect(new Set([...a, ...b]).size).toBe(n);
    });
  });
}
