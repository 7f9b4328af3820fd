import { describe, expect, it } from 'vitest';
import {
  type CatalogEntry,
  type CatalogUpsert,
  MIGRATIONS,
  type NewApprovalRequest,
  type Store,
} from '../../src/store/index.js';
import { type StoreLocation, storesForEachTest } from './fixtures/store.js';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 22, 9, 0, 0);

/** A service-shaped ID (19 digits, beyond 2^53) ending in `n`. */
export const catalogId = (n: number) => `13538537194233${String(n).padStart(5, '0')}`;
const TEAM = 'T0TEAM';
const ids = (entries: CatalogEntry[]) => entries.map((e) => e.id);
const names = (entries: CatalogEntry[]) => entries.map((e) => e.name);

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
    const open = storesForEachTest(createLocation);

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

    it('marks a request seen once across handles, until its mark expires; pruning forgets expired marks', async () => {
      const [a, b] = [await open(), await open()];
      const marks = await Promise.all(
        [a, b, a, b].map((s) => s.markRequestSeen('event:Ev01', T0, T0 + HOUR)),
      );
      expect(marks.filter(Boolean)).toHaveLength(1);
      expect(await b.markRequestSeen('event:Ev02', T0, T0 + HOUR)).toBe(true);
      // Still standing one millisecond before it expires; taken again once it has.
      expect(await a.markRequestSeen('event:Ev01', T0 + HOUR - 1, T0 + 2 * HOUR)).toBe(false);
      expect(await a.markRequestSeen('event:Ev01', T0 + HOUR, T0 + 2 * HOUR)).toBe(true);
      expect(await b.markRequestSeen('event:Ev01', T0 + HOUR + 1, T0 + 2 * HOUR)).toBe(false);
      await a.pruneRequestsSeen(T0 + HOUR);
      // Ev02 expired and was forgotten (taken again even by a clock before its old expiry); Ev01's renewed
      // mark stands.
      expect(await b.markRequestSeen('event:Ev02', T0, T0 + 2 * HOUR)).toBe(true);
      expect(await b.markRequestSeen('event:Ev01', T0 + HOUR, T0 + 2 * HOUR)).toBe(false);
    });

    it('claims a form submission once across handles, keeps what it came to for the same form sent again, and forgets it once expired', async () => {
      const [a, b] = [await open(), await open()];
      const key = 'form:T0TEAM:V0LEARN:3f2a';
      const claims = await Promise.all([a, b, a, b].map((s) => s.claimSubmission(key, T0, T0 + HOUR)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      // While the first runs, the others learn nothing yet; then what it came to, on either handle.
      expect(await b.submissionOutcome(key)).toBeNull();
      const outcome = { text: 'created an ANOMALYLEARN flow', flow: '1400000000000000001' };
      await a.recordSubmissionOutcome(key, outcome);
      expect(await b.submissionOutcome(key)).toEqual(outcome);
      expect(await b.claimSubmission(key, T0 + HOUR - 1, T0 + 2 * HOUR)).toBe(false);
      expect(await a.submissionOutcome('form:T0TEAM:V0OTHER:3f2a')).toBeNull();
      // Once expired, the key is claimed afresh and the old outcome is not handed out.
      expect(await b.claimSubmission(key, T0 + HOUR, T0 + 2 * HOUR)).toBe(true);
      expect(await a.submissionOutcome(key)).toBeNull();
      expect(await a.claimSubmission('form:T0TEAM:V0OLD:1', T0, T0 + HOUR)).toBe(true);
      await a.pruneRequestsSeen(T0 + HOUR);
      expect(await b.claimSubmission('form:T0TEAM:V0OLD:1', T0, T0 + HOUR)).toBe(true);
      expect(await b.claimSubmission(key, T0 + HOUR, T0 + 2 * HOUR)).toBe(false);
    });

    it('marks a batch of requests at once: each key once across handles, whatever the batch size', async () => {
      const [a, b] = [await open(), await open()];
      // 87 keys: every statement size the batch is cut into (64, 16, 4 and 1) is used.
      const keys = Array.from({ length: 87 }, (_, i) => `body:${i}`);
      expect(await a.markRequestSeen('body:5', T0, T0 + HOUR)).toBe(true);
      const [fromA, fromB] = await Promise.all([
        a.markRequestsSeen(keys, T0, T0 + HOUR),
        b.markRequestsSeen(keys.slice(80), T0, T0 + HOUR),
      ]);
      const markedTwice = [...fromA].filter((k) => fromB.has(k));
      expect(markedTwice).toEqual([]);
      expect(new Set([...fromA, ...fromB])).toEqual(new Set(keys.filter((k) => k !== 'body:5')));
      expect(await b.markRequestsSeen(['body:1', 'body:86', 'body:new'], T0 + 1, T0 + HOUR)).toEqual(
        new Set(['body:new']),
      );
      // Reading marks marks nothing: what stands at a moment, and nothing new.
      expect(await b.requestsSeen(['body:1', 'body:86', 'body:new', 'body:unseen'], T0 + 1)).toEqual(
        new Set(['body:1', 'body:86', 'body:new']),
      );
      expect(await a.requestsSeen(keys, T0 + HOUR)).toEqual(new Set());
      expect(await a.requestsSeen(['body:unseen'], T0 + 1)).toEqual(new Set());
      const standing = await b.standingRequestMarks(T0 + 1, 1_000);
      expect(standing.size).toBe(88);
      expect(standing.get('body:new')).toBe(T0 + HOUR);
      expect((await b.standingRequestMarks(T0 + 1, 3)).size).toBe(3);
      expect((await b.standingRequestMarks(T0 + HOUR, 1_000)).size).toBe(0);
      // Taken again once expired, like a single mark.
      expect(await b.markRequestsSeen(['body:1', 'body:2'], T0 + HOUR, T0 + 2 * HOUR)).toEqual(
        new Set(['body:1', 'body:2']),
      );
      expect(await a.markRequestSeen('body:2', T0 + HOUR, T0 + 2 * HOUR)).toBe(false);
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
      expect(a.originThreadTs).toBeNull();
      const inThread = await s.createApproval(
        newRequest({ originThreadTs: '1763799999.000200', createdAt: T0 - 1 }),
      );
      expect((await s.getApproval(inThread.id))?.originThreadTs).toBe('1763799999.000200');
      expect(a.id).not.toBe(b.id);
      await s.setApprovalMessage(a.id, 'C0OTHER', '1763800000.000100');
      expect(await s.getApproval(a.id)).toMatchObject({
        approvalsChannelId: 'C0OTHER',
        messageTs: '1763800000.000100',
      });
      expect((await s.listApprovals()).map((r) => r.id)).toEqual([b.id, a.id, inThread.id]);
      expect(await s.getApproval('no-such-id')).toBeNull();
      await s.decideApproval({ id: b.id, decision: 'reject', by: 'U0BOB', at: T0 + 2 });
      expect((await s.listApprovals({ statuses: ['pending'] })).map((r) => r.id)).toEqual([
        a.id,
        inThread.id,
      ]);
      expect((await s.listApprovals({ statuses: ['rejected', 'expired'] })).map((r) => r.id)).toEqual([b.id]);
    });

    it('lists approval requests of one team and one requester', async () => {
      const s = await open();
      const mine = await s.createApproval(newRequest({ requesterId: 'U0ME', createdAt: T0 }));
      const theirs = await s.createApproval(newRequest({ requesterId: 'U0YOU', createdAt: T0 + 1 }));
      const elsewhere = await s.createApproval(
        newRequest({ requesterId: 'U0ME', teamId: 'T0OTHER', createdAt: T0 + 2 }),
      );
      const list = async (q: Parameters<Store['listApprovals']>[0]) =>
        (await s.listApprovals(q)).map((r) => r.id);
      expect(await list({ teamId: 'T0TEAM' })).toEqual([theirs.id, mine.id]);
      expect(await list({ teamId: 'T0TEAM', requesterId: 'U0ME' })).toEqual([mine.id]);
      expect(await list({ requesterId: 'U0ME' })).toEqual([elsewhere.id, mine.id]);
      expect(await list({ teamId: 'T0OTHER', statuses: ['pending'] })).toEqual([elsewhere.id]);
      await s.decideApproval({ id: mine.id, decision: 'reject', by: 'U0BOB', at: T0 + 3 });
      expect(await list({ teamId: 'T0TEAM', requesterId: 'U0ME', statuses: ['pending'] })).toEqual([]);
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
      // Two replicas sweeping: what one marked, the other does not mark again.
      expect(await s.markInterrupted(T0 + 50, T0 + 300)).toEqual([]);
    });

    it('an execution marked interrupted that was only slow records its result over unknown', async () => {
      const s = await open();
      const slow = await s.createApproval(newRequest());
      await s.decideApproval({ id: slow.id, decision: 'approve', by: 'U0BOB', at: T0 + 10 });
      await s.markInterrupted(T0 + 50, T0 + 200);
      const late = await s.recordExecution(
        slow.id,
        { status: 'executed', flowId: '1353853719423399998', flowStatus: 'CREATED' },
        T0 + 250,
      );
      expect(late.ok && late.request).toMatchObject({
        status: 'executed',
        flowId: '1353853719423399998',
        error: null,
        finishedAt: T0 + 250,
      });
      // Decided states stay as they are.
      const rejected = await s.createApproval(newRequest());
      await s.decideApproval({ id: rejected.id, decision: 'reject', by: 'U0BOB', at: T0 + 10 });
      const r = await s.recordExecution(rejected.id, { status: 'unknown', error: 'x' }, T0 + 20);
      expect(!r.ok && r.current?.status).toBe('rejected');
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
      // A team's entries, and those of no team; never another team's.
      expect((await s.listAudit({ teamId: 'T0' })).map((e) => e.userId)).toEqual([
        'U0D',
        'U0C',
        'U0B',
        'U0A',
      ]);
      expect((await s.listAudit({ teamId: 'T9' })).map((e) => e.userId)).toEqual(['U0D', 'U0C', 'U0B']);
    });

    it('writes an audit result over its entry, once however often it is written', async () => {
      const s = await open();
      const intent = await s.appendAudit({
        at: T0,
        userId: 'U0A',
        channelId: 'C1',
        operation: 'flow.ANOMALYLEARN',
        params: { name: 'L' },
        outcome: 'unknown',
        error: 'not recorded yet',
      });
      const other = await s.appendAudit({ at: T0 + 1, userId: 'U0B', operation: 'x', outcome: 'ok' });
      const result = { outcome: 'ok' as const, flowId: '1400000000000000001', flowStatus: 'CREATED' };
      await s.completeAudit(intent.id, result);
      await s.completeAudit(intent.id, result);
      const rows = await s.listAudit({ limit: 10 });
      expect(rows).toHaveLength(2);
      expect(rows.find((r) => r.id === intent.id)).toMatchObject({
        at: T0,
        operation: 'flow.ANOMALYLEARN',
        params: { name: 'L' },
        ...result,
        error: null,
      });
      expect(rows.find((r) => r.id === other.id)).toMatchObject({ outcome: 'ok', flowId: null });
      await s.completeAudit(intent.id, { outcome: 'error', error: 'HTTP 500' });
      expect((await s.listAudit({ limit: 10 })).find((r) => r.id === intent.id)).toMatchObject({
        outcome: 'error',
        error: 'HTTP 500',
        flowId: null,
      });
      expect(s.writeHealth).toEqual({ ok: true });
    });

    it('lists the channels a user of a team acted in, from the audit log, latest first', async () => {
      const s = await open();
      const entry = (at: number, userId: string, channelId: string | undefined, teamId = 'T0') =>
        s.appendAudit({
          at,
          userId,
          teamId,
          ...(channelId ? { channelId } : {}),
          operation: 'flow.ANOMALYLEARN',
          outcome: 'ok',
        });
      await entry(T0, 'U0A', 'C1');
      await entry(T0 + 1, 'U0A', 'C2');
      await entry(T0 + 2, 'U0A', 'C1');
      await entry(T0 + 3, 'U0B', 'C3');
      await entry(T0 + 4, 'U0A', 'C4', 'T0OTHER');
      await entry(T0 + 5, 'U0A', undefined);
      expect(await s.listUserChannels({ teamId: 'T0', userId: 'U0A' })).toEqual([
        { channelId: 'C1', lastAt: T0 + 2 },
        { channelId: 'C2', lastAt: T0 + 1 },
      ]);
      expect(await s.listUserChannels({ teamId: 'T0', userId: 'U0A', limit: 1 })).toEqual([
        { channelId: 'C1', lastAt: T0 + 2 },
      ]);
      expect(await s.listUserChannels({ teamId: 'T0', userId: 'U0A', since: T0 + 1 })).toHaveLength(2);
      expect(await s.listUserChannels({ teamId: 'T0', userId: 'U0A', since: T0 + 2 })).toEqual([
        { channelId: 'C1', lastAt: T0 + 2 },
      ]);
      expect(await s.listUserChannels({ teamId: 'T0OTHER', userId: 'U0A' })).toEqual([
        { channelId: 'C4', lastAt: T0 + 4 },
      ]);
      expect(await s.listUserChannels({ teamId: 'T0', userId: 'U0NOBODY' })).toEqual([]);
    });

    it('prunes audit entries recorded before the cutoff, oldest first, a bounded batch at a time', async () => {
      const s = await open();
      for (let i = 0; i < 5; i++) {
        await s.appendAudit({ at: T0 + i * HOUR, userId: 'U0A', operation: `op.${i}`, outcome: 'ok' });
      }
      expect(await s.pruneAudit(T0 + 3 * HOUR, 2)).toBe(2);
      const left = async () => (await s.listAudit({ limit: 100 })).map((e) => e.operation);
      expect(await left()).toEqual(['op.4', 'op.3', 'op.2']);
      expect(await s.pruneAudit(T0 + 3 * HOUR, 100)).toBe(1);
      expect(await s.pruneAudit(T0 + 3 * HOUR, 100)).toBe(0);
      expect(await left()).toEqual(['op.4', 'op.3']);
    });

    it('prunes approval requests that finished before the cutoff; pending and executing ones never', async () => {
      const s = await open();
      const file = (over: Partial<NewApprovalRequest> = {}) =>
        s.createApproval(newRequest({ expiresAt: T0 + 1000 * HOUR, ...over }));
      const approve = (id: string, at: number) =>
        s.decideApproval({ id, decision: 'approve', by: 'U0B', at });
      const pending = await file();
      const executing = await file();
      await approve(executing.id, T0 + 10 * HOUR);
      const executed = await file();
      await approve(executed.id, T0 + HOUR);
      await s.recordExecution(
        executed.id,
        { status: 'executed', flowId: '1400000000000000001' },
        T0 + 2 * HOUR,
      );
      const failed = await file();
      await approve(failed.id, T0 + HOUR);
      await s.recordExecution(failed.id, { status: 'failed', error: 'refused' }, T0 + 3 * HOUR);
      const interrupted = await file();
      await approve(interrupted.id, T0 + HOUR);
      await s.markInterrupted(T0 + 2 * HOUR, T0 + 4 * HOUR);
      const rejected = await file();
      await s.decideApproval({ id: rejected.id, decision: 'reject', by: 'U0B', at: T0 + 5 * HOUR });
      const expired = await file({ expiresAt: T0 + 6 * HOUR });
      await s.expireDue(T0 + 6 * HOUR);
      const recent = await file();
      await s.decideApproval({ id: recent.id, decision: 'reject', by: 'U0B', at: T0 + 50 * HOUR });

      expect(await s.pruneApprovals(T0 + 20 * HOUR, 2)).toBe(2);
      expect(await s.pruneApprovals(T0 + 20 * HOUR, 100)).toBe(3);
      expect(await s.pruneApprovals(T0 + 20 * HOUR, 100)).toBe(0);
      for (const gone of [executed, failed, interrupted, rejected, expired]) {
        expect(await s.getApproval(gone.id)).toBeNull();
      }
      expect((await s.getApproval(pending.id))?.status).toBe('pending');
      expect((await s.getApproval(executing.id))?.status).toBe('executing');
      expect((await s.getApproval(recent.id))?.status).toBe('rejected');
      expect(await s.pruneApprovals(T0 + 2000 * HOUR, 100)).toBe(1);
      expect((await s.listApprovals()).map((a) => a.status).sort()).toEqual(['executing', 'pending']);
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
      const night = [
        { start: '06:00', name: 'day' },
        { start: '22:00', name: 'night' },
      ];
      await s.setChannelDefaults('C1', { shifts: night }, 'U0A', T0 + 2);
      const withShifts = await s.setChannelDefaults('C1', { workspace: '444' }, 'U0A', T0 + 3);
      expect(withShifts).toMatchObject({ workspace: '444', datastream: '222', shifts: night });
      expect((await s.getChannelDefaults('C1'))?.shifts).toEqual(night);
      await s.setChannelDefaults('C2', { model: '333' }, 'U0A', T0);
      expect(await s.getChannelDefaults('C2')).toMatchObject({ model: '333' });
      expect((await s.getChannelDefaults('C2'))?.shifts).toBeUndefined();
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

    it('holds follow-ups per owner: renewed, released, and taken once each when their lease ran out', async () => {
      const a = await open();
      const b = await open();
      const held = (n: number) => ({
        id: `A:${n}`,
        notice: { userId: 'U0ALICE', what: `\`/tsai learn ${n}\``, responseUrl: `https://hooks/${n}` },
        heldAt: T0 + n,
      });
      await a.holdFollowUps('A', T0 + 10_000, [held(1), held(2), held(3)]);
      await a.holdFollowUps('A', T0 + 99_000, [held(1)]); // already held: kept as it is
      await b.holdFollowUps('B', T0 + 10_000, [{ ...held(4), id: 'B:4' }]);
      expect(await a.releaseFollowUps('A', ['A:2', 'B:4'])).toBe(1);
      expect(await a.releaseFollowUps('A', [])).toBe(0);
      // A is alive: it renews; B is not.
      expect(await a.renewFollowUps('A', T0 + 30_000)).toBe(2);
      expect(await b.takeAbandonedFollowUps(T0 + 10_000, 10)).toEqual([]);
      expect(await b.takeAbandonedFollowUps(T0 + 20_000, 10)).toEqual([{ ...held(4), id: 'B:4' }]);
      expect(await b.takeAbandonedFollowUps(T0 + 20_000, 10)).toEqual([]);
      // A dies: two replicas take its holds at once, and between them take each once, oldest first.
      const [x, y] = await Promise.all([
        a.takeAbandonedFollowUps(T0 + 40_000, 10),
        b.takeAbandonedFollowUps(T0 + 40_000, 10),
      ]);
      expect([...x, ...y].sort((p, q) => p.heldAt - q.heldAt)).toEqual([held(1), held(3)]);
      await a.holdFollowUps('A', T0, [held(5), held(6)]);
      expect(await a.releaseFollowUps('A')).toBe(2);
      expect(await b.takeAbandonedFollowUps(T0 + 99_000, 10)).toEqual([]);
    });

    describe('catalog', () => {
      const W1 = catalogId(1);
      const W2 = catalogId(2);
      const M1 = catalogId(11);
      const A1 = catalogId(21);
      const S1 = catalogId(31);

      it('records entries with name, source, links and times; IDs beyond 2^53 stay exact', async () => {
        const s = await open();
        await s.upsertCatalog(
          TEAM,
          [
            { kind: 'workspace', id: W1, name: '  Pump   station A ', source: 'service' },
            { kind: 'model', id: M1, source: 'command', links: { workspace: W1, assessment: A1 } },
          ],
          T0,
        );
        expect(await s.getCatalogEntry(TEAM, 'workspace', W1)).toEqual({
          teamId: TEAM,
          kind: 'workspace',
          id: W1,
          name: 'Pump station A',
          nameSource: 'service',
          source: 'service',
          workspaceId: null,
          assessmentId: null,
          modelId: null,
          firstSeenAt: T0,
          lastUsedAt: T0,
          missingAt: null,
        });
        expect(await s.getCatalogEntry(TEAM, 'model', M1)).toMatchObject({
          name: null,
          nameSource: null,
          source: 'command',
          workspaceId: W1,
          assessmentId: A1,
        });
        expect(await s.getCatalogEntry(TEAM, 'model', W1)).toBeNull();
        expect(await s.getCatalogEntry(TEAM, 'workspace', catalogId(99))).toBeNull();
        await s.upsertCatalog(TEAM, [], T0);
      });

      it('never erases a known name; a more trusted or, equally trusted, newer name replaces it', async () => {
        const s = await open();
        const get = async (id = W1) => (await s.getCatalogEntry(TEAM, 'workspace', id))!;
        await s.upsertCatalog(
          TEAM,
          [{ kind: 'workspace', id: W1, name: 'Pump station A', source: 'service' }],
          T0,
        );
        await s.upsertCatalog(TEAM, [{ kind: 'workspace', id: W1, source: 'service' }], T0 + 10);
        await s.upsertCatalog(TEAM, [{ kind: 'workspace', id: W1, name: '   ', source: 'service' }], T0 + 11);
        expect(await get()).toMatchObject({ name: 'Pump station A', lastUsedAt: T0 + 11, firstSeenAt: T0 });
        await s.upsertCatalog(
          TEAM,
          [{ kind: 'workspace', id: W1, name: 'typo', source: 'command' }],
          T0 + 20,
        );
        expect(await get()).toMatchObject({
          name: 'Pump station A',
          nameSource: 'service',
          source: 'service',
        });
        await s.upsertCatalog(
          TEAM,
          [{ kind: 'workspace', id: W1, name: 'Pump A', source: 'service' }],
          T0 + 30,
        );
        expect((await get()).name).toBe('Pump A');
        // A late write of an older name from an equally trusted source does not win.
        await s.upsertCatalog(TEAM, [{ kind: 'workspace', id: W1, name: 'Old', source: 'service' }], T0 + 5);
        expect(await get()).toMatchObject({ name: 'Pump A', lastUsedAt: T0 + 30, firstSeenAt: T0 });

        // Labels typed by users: the newest label wins among labels; a flow's name outranks labels.
        const label = async (
          name: string | undefined,
          at: number,
          source: CatalogUpsert['source'] = 'command',
        ) => {
          await s.upsertCatalog(TEAM, [{ kind: 'signal', id: S1, name, source }], at);
          return (await s.getCatalogEntry(TEAM, 'signal', S1))!.name;
        };
        expect(await label('temperature', T0)).toBe('temperature');
        expect(await label('temp', T0 + 1)).toBe('temp');
        expect(await label(undefined, T0 + 2)).toBe('temp');
        expect(await label('inlet temperature', T0 + 3, 'flow')).toBe('inlet temperature');
        expect(await label('t', T0 + 4)).toBe('inlet temperature');

        // Within one batch the same rules apply, whatever the order.
        await s.upsertCatalog(
          TEAM,
          [
            { kind: 'workspace', id: W2, name: 'Line 2', source: 'service' },
            { kind: 'workspace', id: W2, name: 'line two', source: 'command' },
            { kind: 'workspace', id: W2, source: 'flow' },
          ],
          T0,
        );
        expect(await get(W2)).toMatchObject({ name: 'Line 2', nameSource: 'service', source: 'service' });
      });

      it('links: filled by anyone, replaced only by a source at least as trusted as the entry', async () => {
        const s = await open();
        const model = async () => (await s.getCatalogEntry(TEAM, 'model', M1))!;
        const up = (source: CatalogUpsert['source'], links: CatalogUpsert['links'], at = T0) =>
          s.upsertCatalog(TEAM, [{ kind: 'model', id: M1, source, links }], at);
        await up('command', { workspace: W1 });
        await up('command', { workspace: W2 });
        expect(await model()).toMatchObject({ workspaceId: W2, source: 'command' });
        await up('service', { workspace: W1, assessment: A1 });
        expect(await model()).toMatchObject({ workspaceId: W1, assessmentId: A1, source: 'service' });
        await up('command', { workspace: W2, model: catalogId(12) });
        expect(await model()).toMatchObject({ workspaceId: W1, assessmentId: A1, modelId: catalogId(12) });
        await up('service', {});
        expect(await model()).toMatchObject({ workspaceId: W1, assessmentId: A1, source: 'service' });
        await up('service', { workspace: W2 });
        expect((await model()).workspaceId).toBe(W2);
      });

      it('search: name or ID, prefix before substring, each most recent first; preferred IDs first', async () => {
        const s = await open();
        const ws = (n: number, name: string | undefined, at: number) =>
          s.upsertCatalog(TEAM, [{ kind: 'workspace', id: catalogId(n), name, source: 'service' }], at);
        await ws(1, 'Pump station A', T0 + 1);
        await ws(2, 'Pump station B', T0 + 2);
        await ws(3, 'Compressor hall', T0 + 3);
        await ws(4, 'Main pump', T0 + 4);
        await ws(5, undefined, T0 + 5);
        await ws(6, 'Pump', T0);
        await s.upsertCatalog(
          TEAM,
          [{ kind: 'model', id: catalogId(7), name: 'Pump model', source: 'flow' }],
          T0 + 9,
        );
        const search = (text?: string, prefer?: string[], limit?: number) =>
          s.searchCatalog({ teamId: TEAM, kind: 'workspace', text, prefer, limit });

        expect(ids(await search())).toEqual([5, 4, 3, 2, 1, 6].map(catalogId));
        expect(ids(await search('', [catalogId(1), catalogId(99)]))).toEqual(
          [1, 5, 4, 3, 2, 6].map(catalogId),
        );
        expect(names(await search('pump'))).toEqual([
          'Pump',
          'Pump station B',
          'Pump station A',
          'Main pump',
        ]);
        expect(names(await search('  PUMP   Station '))).toEqual(['Pump station B', 'Pump station A']);
        expect(names(await search('station a'))).toEqual(['Pump station A']);
        expect(names(await search('pump', [catalogId(4)]))).toEqual([
          'Main pump',
          'Pump',
          'Pump station B',
          'Pump station A',
        ]);
        // A preferred ID that does not match the text is not offered.
        expect(names(await search('compressor', [catalogId(1)]))).toEqual(['Compressor hall']);
        expect(ids(await search('1353853719423300'))).toEqual([5, 4, 3, 2, 1, 6].map(catalogId));
        expect(ids(await search('00003'))).toEqual([catalogId(3)]);
        expect(ids(await search(catalogId(2)))).toEqual([catalogId(2)]);
        expect(await search('nothing like it')).toEqual([]);
        expect(await search('%')).toEqual([]);
        expect(ids(await search('pump', [], 2))).toEqual([catalogId(6), catalogId(2)]);
        expect(names(await s.searchCatalog({ teamId: TEAM, kind: 'model', text: 'pump' }))).toEqual([
          'Pump model',
        ]);
      });

      it('search keeps the right order with many matches: every tier is read up to the limit', async () => {
        const s = await open();
        const many: CatalogUpsert[] = [];
        for (let i = 0; i < 300; i++)
          many.push({ kind: 'signal', id: catalogId(1000 + i), name: `pump ${i}`, source: 'command' });
        await s.upsertCatalog(TEAM, many, T0);
        for (let i = 0; i < 300; i += 30) {
          await s.upsertCatalog(
            TEAM,
            [{ kind: 'signal', id: catalogId(1000 + i), source: 'command' }],
            T0 + 1000 + i,
          );
        }
        await s.upsertCatalog(
          TEAM,
          [{ kind: 'signal', id: catalogId(5000), name: 'Pump', source: 'command' }],
          T0 - 1,
        );
        await s.upsertCatalog(
          TEAM,
          [{ kind: 'signal', id: catalogId(5001), name: 'old pump', source: 'command' }],
          T0 + 5000,
        );
        const found = await s.searchCatalog({ teamId: TEAM, kind: 'signal', text: 'pump', limit: 12 });
        expect(names(found)).toEqual([
          'Pump',
          ...[270, 240, 210, 180, 150, 120, 90, 60, 30, 0].map((i) => `pump ${i}`),
          'pump 1',
        ]);
        const all = await s.searchCatalog({ teamId: TEAM, kind: 'signal', text: 'pump', limit: 1000 });
        expect(all).toHaveLength(100);
        expect(all.at(-1)?.name).not.toBe('old pump');
        const browse = await s.searchCatalog({ teamId: TEAM, kind: 'signal', limit: 3 });
        expect(names(browse)).toEqual(['old pump', 'pump 270', 'pump 240']);
      });

      it('search narrows by links: the models of the chosen workspace, of an assessment', async () => {
        const s = await open();
        await s.upsertCatalog(
          TEAM,
          [
            {
              kind: 'model',
              id: catalogId(11),
              name: 'Pump A anomaly',
              source: 'flow',
              links: { workspace: W1 },
            },
            {
              kind: 'model',
              id: catalogId(12),
              name: 'Pump A live',
              source: 'service',
              links: { workspace: W1, assessment: A1 },
            },
            {
              kind: 'model',
              id: catalogId(13),
              name: 'Pump B anomaly',
              source: 'flow',
              links: { workspace: W2 },
            },
            { kind: 'model', id: catalogId(14), name: 'Unplaced model', source: 'command' },
            { kind: 'dataspec', id: catalogId(15), source: 'flow', links: { model: catalogId(11) } },
          ],
          T0,
        );
        const models = (text: string, links: CatalogUpsert['links'], prefer?: string[]) =>
          s.searchCatalog({ teamId: TEAM, kind: 'model', text, links, prefer });
        expect(names(await models('', { workspace: W1 }))).toEqual(['Pump A anomaly', 'Pump A live']);
        expect(names(await models('anomaly', { workspace: W1 }))).toEqual(['Pump A anomaly']);
        expect(names(await models('', { workspace: W2 }, [catalogId(11)]))).toEqual(['Pump B anomaly']);
        expect(names(await models('pump', { workspace: W1, assessment: A1 }))).toEqual(['Pump A live']);
        expect(await models('', { workspace: catalogId(99) })).toEqual([]);
        expect(names(await models('', {}))).toHaveLength(4);
        const specs = await s.searchCatalog({
          teamId: TEAM,
          kind: 'dataspec',
          links: { model: catalogId(11) },
        });
        expect(ids(specs)).toEqual([catalogId(15)]);
      });

      it('finds by exact name only (case and whitespace aside); every holder of a shared name', async () => {
        const s = await open();
        await s.upsertCatalog(
          TEAM,
          [
            { kind: 'workspace', id: W1, name: 'Pump station A', source: 'service' },
            { kind: 'workspace', id: W2, name: 'Pump station', source: 'service' },
            { kind: 'model', id: catalogId(11), name: 'Baseline', source: 'flow', links: { workspace: W1 } },
          ],
          T0,
        );
        await s.upsertCatalog(
          TEAM,
          [{ kind: 'model', id: catalogId(12), name: 'baseline', source: 'flow', links: { workspace: W2 } }],
          T0 + 1,
        );
        expect(ids(await s.findCatalogByName(TEAM, 'workspace', ' pump  STATION a'))).toEqual([W1]);
        expect(ids(await s.findCatalogByName(TEAM, 'workspace', 'Pump'))).toEqual([]);
        expect(ids(await s.findCatalogByName(TEAM, 'model', 'Pump station A'))).toEqual([]);
        expect(ids(await s.findCatalogByName(TEAM, 'model', 'BASELINE'))).toEqual([
          catalogId(12),
          catalogId(11),
        ]);
        expect(
          ids(await s.findCatalogByName(TEAM, 'model', 'baseline', { links: { workspace: W1 } })),
        ).toEqual([catalogId(11)]);
        expect(await s.findCatalogByName(TEAM, 'model', 'baseline', { limit: 1 })).toHaveLength(1);
      });

      it('a forgotten ID is hidden and commands do not bring it back; a service reply does', async () => {
        const s = await open();
        await s.upsertCatalog(
          TEAM,
          [{ kind: 'workspace', id: W1, name: 'Pump station A', source: 'service' }],
          T0,
        );
        expect(await s.forgetCatalogEntry(TEAM, 'workspace', W1, T0 + 10)).toBe(true);
        expect(await s.forgetCatalogEntry(TEAM, 'workspace', W1, T0 + 11)).toBe(false);
        expect(await s.getCatalogEntry(TEAM, 'workspace', W1)).toMatchObject({
          missingAt: T0 + 10,
          lastUsedAt: T0 + 11,
        });
        expect(
          await s.searchCatalog({ teamId: TEAM, kind: 'workspace', text: 'pump', prefer: [W1] }),
        ).toEqual([]);
        expect(await s.findCatalogByName(TEAM, 'workspace', 'Pump station A')).toEqual([]);
        await s.upsertCatalog(
          TEAM,
          [{ kind: 'workspace', id: W1, name: 'Pump station A', source: 'command' }],
          T0 + 20,
        );
        expect((await s.getCatalogEntry(TEAM, 'workspace', W1))?.missingAt).toBe(T0 + 10);

        // Never seen, said not to exist: a tombstone keeps a later command from adding it.
        expect(await s.forgetCatalogEntry(TEAM, 'signal', S1, T0)).toBe(false);
        await s.upsertCatalog(TEAM, [{ kind: 'signal', id: S1, name: 'temp', source: 'command' }], T0 + 1);
        expect(await s.searchCatalog({ teamId: TEAM, kind: 'signal' })).toEqual([]);

        await s.upsertCatalog(
          TEAM,
          [{ kind: 'workspace', id: W1, name: 'Pump station A2', source: 'service' }],
          T0 + 30,
        );
        expect(await s.getCatalogEntry(TEAM, 'workspace', W1)).toMatchObject({
          missingAt: null,
          name: 'Pump station A2',
        });
        expect(ids(await s.searchCatalog({ teamId: TEAM, kind: 'workspace', text: 'pump' }))).toEqual([W1]);
        await s.upsertCatalog(TEAM, [{ kind: 'signal', id: S1, name: 'temp', source: 'flow' }], T0 + 2);
        expect(ids(await s.searchCatalog({ teamId: TEAM, kind: 'signal' }))).toEqual([S1]);
      });

      it("one team never sees another team's entries", async () => {
        const s = await open();
        await s.upsertCatalog(
          'T0ONE',
          [{ kind: 'workspace', id: W1, name: 'Pump station A', source: 'service' }],
          T0,
        );
        await s.upsertCatalog(
          'T0TWO',
          [{ kind: 'workspace', id: W2, name: 'Pump station A', source: 'service' }],
          T0,
        );
        await s.upsertCatalog('T0TWO', [{ kind: 'workspace', id: W1, source: 'command' }], T0 + 1);
        expect(ids(await s.searchCatalog({ teamId: 'T0ONE', kind: 'workspace', text: 'pump' }))).toEqual([
          W1,
        ]);
        expect(ids(await s.searchCatalog({ teamId: 'T0ONE', kind: 'workspace', prefer: [W2] }))).toEqual([
          W1,
        ]);
        expect(await s.searchCatalog({ teamId: 'T0THREE', kind: 'workspace' })).toEqual([]);
        expect(ids(await s.findCatalogByName('T0ONE', 'workspace', 'pump station a'))).toEqual([W1]);
        expect(await s.getCatalogEntry('T0ONE', 'workspace', W2)).toBeNull();
        expect((await s.getCatalogEntry('T0TWO', 'workspace', W1))?.name).toBeNull();
        await s.forgetCatalogEntry('T0TWO', 'workspace', W2, T0 + 2);
        expect(ids(await s.searchCatalog({ teamId: 'T0ONE', kind: 'workspace' }))).toEqual([W1]);
        expect(ids(await s.searchCatalog({ teamId: 'T0TWO', kind: 'workspace' }))).toEqual([W1]);
      });

      it('prunes entries unused since the cutoff, tombstones included', async () => {
        const s = await open();
        await s.upsertCatalog(TEAM, [{ kind: 'workspace', id: W1, source: 'service' }], T0);
        await s.upsertCatalog('T0TWO', [{ kind: 'workspace', id: W1, source: 'service' }], T0 + 100);
        await s.forgetCatalogEntry(TEAM, 'signal', S1, T0 + 5);
        await s.upsertCatalog(TEAM, [{ kind: 'model', id: M1, source: 'command' }], T0 + 10);
        expect(await s.pruneCatalog(T0 + 10)).toBe(2);
        expect(await s.getCatalogEntry(TEAM, 'workspace', W1)).toBeNull();
        expect(await s.getCatalogEntry(TEAM, 'signal', S1)).toBeNull();
        expect(await s.getCatalogEntry(TEAM, 'model', M1)).not.toBeNull();
        expect(await s.getCatalogEntry('T0TWO', 'workspace', W1)).not.toBeNull();
        expect(await s.pruneCatalog(T0 + 10)).toBe(0);
      });

      it('replicas recording the same entries at once: one row each, the most trusted name, the latest use', async () => {
        const handles = [await open(), await open(), await open()];
        const n = 60;
        const batch = (
          source: CatalogUpsert['source'],
          named: boolean,
          reverse: boolean,
        ): CatalogUpsert[] => {
          const out = Array.from({ length: n }, (_, i) => ({
            kind: (i % 2 ? 'signal' : 'model') as CatalogUpsert['kind'],
            id: catalogId(100 + i),
            ...(named ? { name: `${source} ${i}` } : {}),
            source,
            links: i % 2 ? {} : { workspace: source === 'service' ? W1 : W2 },
          }));
          return reverse ? out.reverse() : out;
        };
        for (let round = 0; round < 4; round++) {
          await Promise.all([
            handles[0]!.upsertCatalog(TEAM, batch('service', true, round % 2 === 1), T0),
            handles[1]!.upsertCatalog(TEAM, batch('command', true, round % 2 === 0), T0 + 1),
            handles[2]!.upsertCatalog(TEAM, batch('flow', false, false), T0 + 2),
            handles[0]!.upsertCatalog(TEAM, batch('command', false, true), T0 + 3),
            handles[1]!.forgetCatalogEntry(TEAM, 'workspace', W1, T0),
          ]);
        }
        const models = await handles[2]!.searchCatalog({ teamId: TEAM, kind: 'model', limit: 100 });
        const signals = await handles[2]!.searchCatalog({ teamId: TEAM, kind: 'signal', limit: 100 });
        expect(models).toHaveLength(n / 2);
        expect(signals).toHaveLength(n / 2);
        for (const e of [...models, ...signals]) {
          const i = Number(e.id.slice(-5)) - 100;
          expect(e).toMatchObject({
            name: `service ${i}`,
            nameSource: 'service',
            source: 'service',
            firstSeenAt: T0,
            lastUsedAt: T0 + 3,
            missingAt: null,
            workspaceId: e.kind === 'model' ? W1 : null,
          });
        }
      });
    });
  });
}
