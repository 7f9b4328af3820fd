import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, type NewApprovalRequest, type Store } from '../../src/store/index.js';

/** One database; `open()` may be called several times for separate handles (restarts, replicas). */
export interface StoreLocation {
  open(): Promise<Store>;
  cleanup(): Promise<void>;
}

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 22, 9, 0, 0);

export function newRequest(over: Partial<NewApprovalRequest> = {}): NewApprovalRequest {
  return {
    action: 'start',
    modelId: '1353853719423311872',
    assessmentId: '1353853719423311999',
    reason: 'commissioning line 3',
    requesterId: 'U0REQ',
    teamId: 'T0TEAM',
    originChannelId: 'C0ORIGIN',
    approvalsChannelId: 'C0APPROVALS',
    createdAt: T0,
    expiresAt: T0 + 4 * HOUR,
    ...over,
  };
}

/** The one conformance suite every Store implementation must pass. */
export function storeConformance(name: string, createLocation: () => Promise<StoreLocation>): void {
  describe(`Store conformance: ${name}`, () => {
    let location: StoreLocation;
    const opened: Store[] = [];
    const open = async () => {
      const s = await location.open();
      opened.push(s);
      return s;
    };

    beforeEach(async () => {
      location = await createLocation();
    });
    afterEach(async () => {
      for (const s of opened.splice(0)) await s.close().catch(() => {});
      await location.cleanup();
    });

    it('applies every migration once; reopening and concurrent opening are idempotent', async () => {
      const versions = MIGRATIONS.map((m) => m.version);
      const first = await open();
      expect(await first.appliedMigrations()).toEqual(versions);
      await first.close();
      const again = await Promise.all([open(), open(), open()]);
      for (const s of again) expect(await s.appliedMigrations()).toEqual(versions);
      const req = await again[0]!.createApproval(newRequest());
      expect((await again[2]!.getApproval(req.id))?.status).toBe('pending');
    });

    it('creates, reads and lists approval requests with every field kept', async () => {
      const s = await open();
      const a = await s.createApproval(newRequest());
      expect(a).toMatchObject({
        action: 'start',
        modelId: '1353853719423311872',
        assessmentId: '1353853719423311999',
        reason: 'commissioning line 3',
        requesterId: 'U0REQ',
        teamId: 'T0TEAM',
        originChannelId: 'C0ORIGIN',
        approvalsChannelId: 'C0APPROVALS',
        status: 'pending',
        createdAt: T0,
        expiresAt: T0 + 4 * HOUR,
        decidedBy: null,
        attempts: 0,
        messageTs: null,
      });
      const b = await s.createApproval(
        newRequest({ action: 'stop', assessmentId: undefined, reason: undefined, createdAt: T0 + 1 }),
      );
      expect(b.assessmentId).toBeNull();
      expect(b.reason).toBeNull();
      expect(a.id).not.toBe(b.id);
      await s.setApprovalMessage(a.id, 'C0OTHER', '1763800000.000100');
      expect(await s.getApproval(a.id)).toMatchObject({
        approvalsChannelId: 'C0OTHER',
        messageTs: '1763800000.000100',
      });
      expect((await s.listApprovals()).map((r) => r.id)).toEqual([b.id, a.id]);
      expect(await s.getApproval('no-such-id')).toBeNull();
      await s.decideApproval({ id: b.id, decision: 'reject', by: 'U0BOB', at: T0 + 2 });
      expect((await s.listApprovals({ statuses: ['pending'] })).map((r) => r.id)).toEqual([a.id]);
      expect((await s.listApprovals({ statuses: ['rejected', 'expired'] })).map((r) => r.id)).toEqual([b.id]);
    });

    it('20 concurrent approvals from several handles: exactly one wins, the others see who and when', async () => {
      const handles = [await open(), await open(), await open(), await open()];
      const req = await handles[0]!.createApproval(newRequest());
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          handles[i % handles.length]!.decideApproval({
            id: req.id,
            decision: i % 3 === 2 ? 'reject' : 'approve',
            by: `U0APPROVER${i}`,
            at: T0 + 1000 + i,
          }),
        ),
      );
      const winners = results.filter((r) => r.ok);
      expect(winners).toHaveLength(1);
      const won = winners[0]!.ok ? winners[0]!.request : null;
      expect(won?.decidedBy).toMatch(/^U0APPROVER\d+$/);
      for (const r of results) {
        if (r.ok) continue;
        expect(r.current?.decidedBy).toBe(won?.decidedBy);
        expect(r.current?.decidedAt).toBe(won?.decidedAt);
        expect(r.current?.status).toBe(won?.status);
      }
      const final = await handles[3]!.getApproval(req.id);
      expect(final?.attempts).toBe(won?.status === 'executing' ? 1 : 0);
    });

    it('rejects with a reason; a later approve loses and sees the rejection', async () => {
      const s = await open();
      const req = await s.createApproval(newRequest());
      const rej = await s.decideApproval({
        id: req.id,
        decision: 'reject',
        by: 'U0BOB',
        at: T0 + 5,
        reason: 'not during the night shift',
      });
      expect(rej.ok && rej.request).toMatchObject({
        status: 'rejected',
        decidedBy: 'U0BOB',
        decidedAt: T0 + 5,
        rejectReason: 'not during the night shift',
      });
      const late = await s.decideApproval({ id: req.id, decision: 'approve', by: 'U0CAROL', at: T0 + 6 });
      expect(late.ok).toBe(false);
      expect(!late.ok && late.current).toMatchObject({ status: 'rejected', decidedBy: 'U0BOB' });
      const missing = await s.decideApproval({ id: 'nope', decision: 'approve', by: 'U0CAROL', at: T0 });
      expect(missing).toEqual({ ok: false, current: null });
    });

    it('expiry: a decision at or after expiry loses and marks it expired; expireDue expires each once', async () => {
      const s = await open();
      const soon = await s.createApproval(newRequest({ expiresAt: T0 + 1000 }));
      const later = await s.createApproval(newRequest({ expiresAt: T0 + 5000 }));
      const other = await s.createApproval(newRequest({ expiresAt: T0 + 2000 }));
      const click = await s.decideApproval({ id: soon.id, decision: 'approve', by: 'U0BOB', at: T0 + 1000 });
      expect(click.ok).toBe(false);
      expect(!click.ok && click.current?.status).toBe('expired');
      expect(!click.ok && click.current?.decidedBy).toBeNull();
      expect(!click.ok && click.expiredNow).toBe(true);
      const again = await s.decideApproval({ id: soon.id, decision: 'reject', by: 'U0BOB', at: T0 + 1001 });
      expect(!again.ok && again.expiredNow).toBeFalsy();
      expect(await s.expireDue(T0 + 1999)).toEqual([]);
      const expired = await s.expireDue(T0 + 2000);
      expect(expired.map((r) => r.id)).toEqual([other.id]);
      expect(expired[0]?.status).toBe('expired');
      expect(await s.expireDue(T0 + 2000)).toEqual([]);
      expect((await s.getApproval(later.id))?.status).toBe('pending');
    });

    it('records the execution once; failed can be re-claimed exactly once per race; unknown never', async () => {
      const s = await open();
      const other = await open();
      const req = await s.createApproval(newRequest());
      await s.decideApproval({ id: req.id, decision: 'approve', by: 'U0BOB', at: T0 + 1 });
      const failed = await s.recordExecution(req.id, { status: 'failed', error: 'HTTP 500' }, T0 + 2);
      expect(failed.ok && failed.request).toMatchObject({
        status: 'failed',
        error: 'HTTP 500',
        finishedAt: T0 + 2,
      });
      expect((await s.recordExecution(req.id, { status: 'executed', flowId: '1' }, T0 + 3)).ok).toBe(false);

      const claims = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? s : other).claimRetry(req.id, `U0R${i}`, T0 + 10 + i)),
      );
      expect(claims.filter((c) => c.ok)).toHaveLength(1);
      const claim = claims.find((c) => c.ok);
      expect(claim?.ok && claim.request).toMatchObject({ status: 'executing', attempts: 2, error: null });
      const done = await s.recordExecution(
        req.id,
        { status: 'executed', flowId: '1353853719423399999', flowStatus: 'CREATED' },
        T0 + 30,
      );
      expect(done.ok && done.request).toMatchObject({
        status: 'executed',
        flowId: '1353853719423399999',
        flowStatus: 'CREATED',
        decidedBy: 'U0BOB',
      });
      expect((await s.claimRetry(req.id, 'U0BOB', T0 + 40)).ok).toBe(false);

      const u = await s.createApproval(newRequest());
      await s.decideApproval({ id: u.id, decision: 'approve', by: 'U0BOB', at: T0 + 1 });
      await s.recordExecution(u.id, { status: 'unknown', error: 'timed out after sending' }, T0 + 2);
      const retryUnknown = await s.claimRetry(u.id, 'U0BOB', T0 + 3);
      expect(retryUnknown.ok).toBe(false);
      expect(!retryUnknown.ok && retryUnknown.current?.status).toBe('unknown');
    });

    it('marks executions interrupted by a crash as outcome unknown', async () => {
      const s = await open();
      const stuck = await s.createApproval(newRequest());
      const fresh = await s.createApproval(newRequest());
      await s.decideApproval({ id: stuck.id, decision: 'approve', by: 'U0BOB', at: T0 + 10 });
      await s.decideApproval({ id: fresh.id, decision: 'approve', by: 'U0BOB', at: T0 + 100 });
      const marked = await s.markInterrupted(T0 + 50, T0 + 200);
      expect(marked.map((r) => r.id)).toEqual([stuck.id]);
      expect(marked[0]).toMatchObject({ status: 'unknown', finishedAt: T0 + 200 });
      expect((await s.getApproval(fresh.id))?.status).toBe('executing');
    });

    it('survives a restart: a pending request stays decidable, one that expired meanwhile is shown expired', async () => {
      const before = await open();
      const keep = await before.createApproval(newRequest({ expiresAt: T0 + 10 * HOUR }));
      const lapse = await before.createApproval(newRequest({ expiresAt: T0 + HOUR }));
      await before.appendAudit({ at: T0, userId: 'U0REQ', operation: 'approval.request', outcome: 'ok' });
      await before.setChannelDefaults('C1', { workspace: '111' }, 'U0REQ', T0);
      await before.close();

      const after = await open();
      const now = T0 + 2 * HOUR;
      expect((await after.expireDue(now)).map((r) => r.id)).toEqual([lapse.id]);
      expect((await after.getApproval(lapse.id))?.status).toBe('expired');
      const d = await after.decideApproval({ id: keep.id, decision: 'approve', by: 'U0BOB', at: now });
      expect(d.ok).toBe(true);
      expect(await after.listAudit()).toHaveLength(1);
      expect((await after.getChannelDefaults('C1'))?.workspace).toBe('111');
    });

    it('appends and lists the audit log newest first, with filters and limits', async () => {
      const s = await open();
      const e1 = await s.appendAudit({
        at: T0,
        userId: 'U0A',
        teamId: 'T0',
        channelId: 'C1',
        operation: 'workspace.create',
        params: { name: 'Line 3', description: 'x "quoted" <b>' },
        outcome: 'ok',
      });
      expect(e1).toMatchObject({
        userId: 'U0A',
        teamId: 'T0',
        channelId: 'C1',
        operation: 'workspace.create',
        params: { name: 'Line 3', description: 'x "quoted" <b>' },
        outcome: 'ok',
        flowId: null,
        requestId: null,
      });
      await s.appendAudit({
        at: T0 + 1,
        userId: 'U0B',
        channelId: 'C2',
        operation: 'flow.STARTLIVEMODEL',
        params: { model: '1353853719423311872' },
        outcome: 'ok',
        flowId: '1353853719423300001',
        flowStatus: 'CREATED',
        requestId: 'req-1',
      });
      await s.appendAudit({
        at: T0 + 2,
        userId: 'U0C',
        channelId: 'C1',
        operation: 'approval.approve',
        outcome: 'ok',
      });
      await s.appendAudit({
        at: T0 + 3,
        userId: 'U0D',
        channelId: 'C1',
        operation: 'policy.refused',
        outcome: 'refused',
        error: 'not an operator',
      });
      const all = await s.listAudit({ limit: 10 });
      expect(all.map((e) => e.userId)).toEqual(['U0D', 'U0C', 'U0B', 'U0A']);
      expect(all[2]).toMatchObject({
        flowId: '1353853719423300001',
        flowStatus: 'CREATED',
        requestId: 'req-1',
      });
      expect(all[0]?.params).toEqual({});
      expect((await s.listAudit({ limit: 2 })).map((e) => e.userId)).toEqual(['U0D', 'U0C']);
      expect((await s.listAudit({ channelId: 'C1' })).map((e) => e.userId)).toEqual(['U0D', 'U0C', 'U0A']);
      const decisions = await s.listAudit({ operationPrefixes: ['approval.', 'flow.'] });
      expect(decisions.map((e) => e.operation)).toEqual(['approval.approve', 'flow.STARTLIVEMODEL']);
    });

    it('stores channel defaults per channel: merge, show, clear', async () => {
      const s = await open();
      expect(await s.getChannelDefaults('C1')).toBeNull();
      await s.setChannelDefaults('C1', { workspace: '111', entities: ['pump-1', 'pump 2'] }, 'U0A', T0);
      const merged = await s.setChannelDefaults('C1', { datastream: '222' }, 'U0B', T0 + 1);
      expect(merged).toEqual({
        channelId: 'C1',
        workspace: '111',
        datastream: '222',
        entities: ['pump-1', 'pump 2'],
        updatedBy: 'U0B',
        updatedAt: T0 + 1,
      });
      await s.setChannelDefaults('C2', { model: '333' }, 'U0A', T0);
      expect(await s.getChannelDefaults('C2')).toMatchObject({ model: '333' });
      expect((await s.getChannelDefaults('C2'))?.workspace).toBeUndefined();
      expect(await s.clearChannelDefaults('C1')).toBe(true);
      expect(await s.clearChannelDefaults('C1')).toBe(false);
      expect(await s.getChannelDefaults('C1')).toBeNull();
      expect(await s.getChannelDefaults('C2')).not.toBeNull();
    });

    it('keeps small JSON state across handles', async () => {
      const s = await open();
      expect(await s.getState('cursor')).toBeNull();
      await s.setState('cursor', { ts: '1763800000.000100', n: 3 }, T0);
      await s.setState('cursor', { ts: '1763800000.000200', n: 4 }, T0 + 1);
      const other = await open();
      expect(await other.getState('cursor')).toEqual({ ts: '1763800000.000200', n: 4 });
    });
  });
}
