import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Approvals, DEFAULT_APPROVAL_TTL_MS } from '../../src/core/approvals/index.js';
import { createCore } from '../../src/core/compose.js';
import type { Store } from '../../src/store/index.js';
import { SEED } from '../../standins/emulator/index.js';
import { eventually, type Harness, startHarness } from '../support/emulator.js';
import { describePg, pgLocation, type StoreLocation, sqliteLocation } from '../support/fixtures/store.js';

const T0 = Date.UTC(2026, 10, 22, 9, 0, 0);
const MODEL = SEED.models.pressureCommon;
const ASSESSMENT = SEED.assessments.temperature;
const COMMON = SEED.models.temperatureCommon;
const NO_MODELS = SEED.assessments.vibration;

// One real emulator for the file, reset before each test; flows go through the real service client.
let emu: Harness;
beforeAll(async () => {
  emu = await startHarness({ retryBaseDelayMs: 1 });
});
afterAll(async () => {
  await emu.close();
});
beforeEach(async () => {
  await emu.reset();
});

/** Live flows the emulator created (2xx answers only). */
async function liveFlows() {
  return (await emu.requests())
    .filter((r) => r.method === 'POST' && r.path.endsWith('/flows') && (r.status ?? 0) < 300)
    .map((r) => {
      const b = r.body as { flowType: string; name: string; spec: { model: string } };
      return { flowType: b.flowType, name: b.name, model: b.spec.model };
    });
}

/** Assessments looked up for their common model. */
async function lookups() {
  return (await emu.requests())
    .filter((r) => r.method === 'GET' && r.path.endsWith('/models'))
    .map((r) => r.query.assessment);
}

interface Rig {
  stores: Store[];
  approvals: Approvals[];
  clock: { t: number };
  groupCalls: string[];
}

async function rig(
  location: StoreLocation,
  o: {
    replicas?: number;
    approvers?: string[];
    byWorkspace?: Record<string, string[]>;
    allowSelfApproval?: boolean;
    ttlMs?: number;
    interruptedAfterMs?: number;
  } = {},
): Promise<Rig> {
  const client = emu.client;
  const clock = { t: T0 };
  const groupCalls: string[] = [];
  const groups: Record<string, string[]> = { S0OPS: ['U0GROUPIE', 'U0OTHER'] };
  const stores: Store[] = [];
  const approvals: Approvals[] = [];
  for (let i = 0; i < (o.replicas ?? 1); i++) {
    const store = await location.open();
    stores.push(store);
    // The real core: the approvals workflow creates flows through the operation runner.
    const core = createCore({
      store,
      service: client,
      now: () => new Date(clock.t),
      log: { info: () => {}, error: () => {} },
      timeZone: 'UTC',
      policy: {},
      approvals: {
        approvers: o.approvers ?? ['U0BOB', 'U0CAROL', 'U0REQ', 'S0OPS'],
        ...(o.byWorkspace ? { byWorkspace: o.byWorkspace } : {}),
        ...(o.allowSelfApproval !== undefined ? { allowSelfApproval: o.allowSelfApproval } : {}),
        ...(o.ttlMs !== undefined ? { ttlMs: o.ttlMs } : {}),
        ...(o.interruptedAfterMs !== undefined ? { interruptedAfterMs: o.interruptedAfterMs } : {}),
        groupCacheMs: 60_000,
      },
      expandGroup: async (id) => {
        groupCalls.push(id);
        return groups[id] ?? [];
      },
    });
    approvals.push(core.approvals);
  }
  return { stores, approvals, clock, groupCalls };
}

const file = (a: Approvals, over: Partial<Parameters<Approvals['fileRequest']>[0]> = {}) =>
  a.fileRequest({
    action: 'start',
    modelId: MODEL,
    requesterId: 'U0REQ',
    teamId: 'T0',
    channelId: 'C0ORIGIN',
    approvalsChannelId: 'C0APPROVALS',
    reason: 'commissioning',
    ...over,
  });

async function filed(a: Approvals, over: Partial<Parameters<Approvals['fileRequest']>[0]> = {}) {
  const out = await file(a, over);
  if (!out.ok) throw new Error(`filing failed: ${out.message}`);
  return out.request;
}

function approvalWorkflow(name: string, createLocation: () => Promise<StoreLocation>) {
  describe(`approval workflow on ${name}`, () => {
    let location: StoreLocation;
    let r: Rig | undefined;
    beforeEach(async () => {
      location = await createLocation();
    });
    afterEach(async () => {
      for (const s of r?.stores ?? []) await s.close();
      r = undefined;
      await location.cleanup();
    });

    it('files a request with the default 4 h expiry and audits it', async () => {
      r = await rig(location);
      const out = await file(r.approvals[0]!);
      expect(out.ok).toBe(true);
      if (!out.ok) return;
      expect(out.modelFrom).toBe('argument');
      expect(out.request).toMatchObject({
        status: 'pending',
        modelId: MODEL,
        requesterId: 'U0REQ',
        approvalsChannelId: 'C0APPROVALS',
        reason: 'commissioning',
        expiresAt: T0 + DEFAULT_APPROVAL_TTL_MS,
      });
      expect(await liveFlows()).toEqual([]);
      const audit = await r.stores[0]!.listAudit();
      expect(audit[0]).toMatchObject({
        operation: 'approval.request',
        userId: 'U0REQ',
        requestId: out.request.id,
      });
    });

    it('resolves M[0] from an assessment, and refuses bad input before anything reaches the service', async () => {
      r = await rig(location, { ttlMs: 60_000 });
      const a = r.approvals[0]!;
      // M[0] of this assessment is live, so it is asked to stop.
      const byAssessment = await file(a, {
        action: 'stop',
        modelId: undefined,
        assessmentId: ASSESSMENT,
        approvalsChannelId: '',
      });
      expect(byAssessment.ok && byAssessment.request).toMatchObject({
        modelId: COMMON,
        assessmentId: ASSESSMENT,
        approvalsChannelId: 'C0ORIGIN',
        expiresAt: T0 + 60_000,
      });
      expect(byAssessment.ok && byAssessment.modelFrom).toBe('assessment');
      const none = await file(a, { modelId: undefined, assessmentId: NO_MODELS });
      expect(none).toMatchObject({ ok: false, error: 'no-common-model' });
      const mismatch = await file(a, { modelId: MODEL, assessmentId: ASSESSMENT });
      expect(mismatch).toMatchObject({ ok: false, error: 'invalid-input' });
      expect(await lookups()).toEqual([ASSESSMENT, NO_MODELS, ASSESSMENT]);

      for (const bad of [
        { action: 'restart' },
        { modelId: undefined },
        { modelId: '12ab' },
        { modelId: undefined, assessmentId: '<!channel>' },
        { reason: 'x'.repeat(501) },
      ]) {
        const out = await file(a, bad);
        expect(out, JSON.stringify(bad)).toMatchObject({ ok: false, error: 'invalid-input' });
        expect(!out.ok && out.example).toContain('/tsai live');
      }
      expect(await lookups()).toHaveLength(3);
      expect(await r.stores[0]!.listApprovals()).toHaveLength(1);
    });

    it('a model the bot cannot vouch for: the strictest rule, refused when nobody is in every list', async () => {
      const W = SEED.workspaces.pumpStation;
      r = await rig(location, { approvers: ['U0BOB'], byWorkspace: { [W]: ['U0CAROL'] } });
      const refused = await file(r.approvals[0]!);
      expect(refused).toMatchObject({ ok: false, error: 'no-approvers' });
      if (refused.ok) return;
      expect(refused.message).toContain(`The bot has never seen model ${MODEL}`);
      expect(refused.message).toContain('assessment=');
      // Named by its assessment, the service says where the model is: that workspace's approvers decide.
      const byAssessment = await filed(r.approvals[0]!, {
        action: 'stop',
        modelId: undefined,
        assessmentId: ASSESSMENT,
      });
      expect(byAssessment).toMatchObject({ approversWorkspace: { id: W }, modelDoubt: null });
      await r.stores[0]!.close();
      r = await rig(location, { approvers: ['U0BOB', 'U0CAROL'], byWorkspace: { [W]: ['U0CAROL'] } });
      const strict = await filed(r.approvals[0]!);
      expect(strict).toMatchObject({
        modelDoubt: 'unseen',
        approversStrictest: true,
        approversWorkspace: null,
      });
      expect(r.approvals[0]!.approverIdsOf(strict)).toEqual({ users: ['U0CAROL'], groups: [] });
      expect(await r.approvals[0]!.mayDecide(strict, 'U0BOB')).toBe(false);
      expect(await r.approvals[0]!.mayDecide(strict, 'U0CAROL')).toBe(true);
    });

    it('refuses to file when no approvers are configured', async () => {
      r = await rig(location, { approvers: [] });
      expect(await file(r.approvals[0]!)).toMatchObject({ ok: false, error: 'no-approvers' });
    });

    it('approve by another user: the flow is created once, recorded and audited', async () => {
      r = await rig(location);
      const a = r.approvals[0]!;
      const req = await filed(a);
      r.clock.t += 60_000;
      const out = await a.decide({
        requestId: req.id,
        userId: 'U0BOB',
        userName: 'Bob Approver',
        teamId: 'T0',
        decision: 'approve',
      });
      expect(out.kind).toBe('executed');
      expect(await liveFlows()).toEqual([
        {
          flowType: 'STARTLIVEMODEL',
          model: MODEL,
          name: `live start ${MODEL} approved by @Bob Approver 2026-11-22 09:01Z`,
        },
      ]);
      if (out.kind !== 'executed') return;
      expect(out.request).toMatchObject({
        status: 'executed',
        decidedBy: 'U0BOB',
        decidedAt: T0 + 60_000,
        flowStatus: 'CREATED',
        attempts: 1,
      });
      expect(out.request.flowId).toMatch(/^\d+$/);
      const again = await a.decide({ requestId: req.id, userId: 'U0CAROL', decision: 'approve' });
      expect(again).toMatchObject({
        kind: 'already-decided',
        request: { decidedBy: 'U0BOB', status: 'executed' },
      });
      expect(await liveFlows()).toHaveLength(1);
      const ops = (await r.stores[0]!.listAudit()).map((e) => [e.operation, e.userId, e.outcome]);
      expect(ops).toEqual([
        ['flow.STARTLIVEMODEL', 'U0BOB', 'ok'],
        ['approval.approve', 'U0BOB', 'ok'],
        ['approval.request', 'U0REQ', 'ok'],
      ]);
      const flowEntry = (await r.stores[0]!.listAudit({ operationPrefixes: ['flow.'] }))[0];
      expect(flowEntry?.flowId).toBe(out.request.flowId);
      expect(flowEntry?.params).toEqual({
        name: (await liveFlows())[0]!.name,
        model: MODEL,
        requestedBy: 'U0REQ',
        actedAs: "the bot's shared identity",
        // Decided on the request's card: the flow is audited under the surface clicked.
        via: 'button',
      });
    });

    it('shows the audit trail of decisions and flows to approvers only', async () => {
      r = await rig(location);
      const a = r.approvals[0]!;
      const req = await filed(a);
      await r.stores[0]!.appendAudit({
        at: T0,
        userId: 'U0X',
        operation: 'channel.defaults.set',
        outcome: 'ok',
      });
      await a.decide({ requestId: req.id, userId: 'U0BOB', decision: 'approve' });
      expect(await a.auditTrail('U0MALLORY')).toMatchObject({
        ok: false,
        approvers: { users: ['U0BOB', 'U0CAROL', 'U0REQ'] },
      });
      const trail = await a.auditTrail('U0CAROL', 2);
      expect(trail.ok && trail.entries.map((e) => e.operation)).toEqual([
        'flow.STARTLIVEMODEL',
        'approval.approve',
      ]);
      const all = await a.auditTrail('U0GROUPIE', 50);
      expect(all.ok && all.entries.map((e) => e.operation)).toEqual([
        'flow.STARTLIVEMODEL',
        'approval.approve',
        'approval.request',
      ]);
    });

    it('stop requests create STOPLIVEMODEL', async () => {
      r = await rig(location);
      const req = await filed(r.approvals[0]!, { action: 'stop' });
      await r.approvals[0]!.decide({ requestId: req.id, userId: 'U0CAROL', decision: 'approve' });
      expect((await liveFlows()).map((c) => c.flowType)).toEqual(['STOPLIVEMODEL']);
    });

    it('refuses self-approval and non-approvers without changing anything; both are audited', async () => {
      r = await rig(location);
      const a = r.approvals[0]!;
      const req = await filed(a);
      const self = await a.decide({ requestId: req.id, userId: 'U0REQ', decision: 'approve' });
      expect(self.kind).toBe('self-approval');
      const stranger = await a.decide({ requestId: req.id, userId: 'U0MALLORY', decision: 'approve' });
      expect(stranger).toMatchObject({
        kind: 'not-approver',
        approvers: { users: ['U0BOB', 'U0CAROL', 'U0REQ'], groups: ['S0OPS'] },
      });
      const strangerReject = await a.decide({ requestId: req.id, userId: 'U0MALLORY', decision: 'reject' });
      expect(strangerReject.kind).toBe('not-approver');
      expect((await a.get(req.id))?.status).toBe('pending');
      expect(await liveFlows()).toEqual([]);
      const refused = await r.stores[0]!.listAudit({
        operationPrefixes: ['approval.approve', 'approval.reject'],
      });
      expect(refused.map((e) => [e.userId, e.outcome, e.error])).toEqual([
        ['U0MALLORY', 'refused', 'not-approver'],
        ['U0MALLORY', 'refused', 'not-approver'],
        ['U0REQ', 'refused', 'self-approval'],
      ]);
      expect((await a.decide({ requestId: 'nope', userId: 'U0BOB', decision: 'approve' })).kind).toBe(
        'not-found',
      );
    });

    it('allows self-approval only when configured', async () => {
      r = await rig(location, { allowSelfApproval: true });
      const req = await filed(r.approvals[0]!);
      const out = await r.approvals[0]!.decide({ requestId: req.id, userId: 'U0REQ', decision: 'approve' });
      expect(out.kind).toBe('executed');
    });

    it('honours user-group membership, expanding each group once per cache window', async () => {
      r = await rig(location);
      const a = r.approvals[0]!;
      const one = await filed(a);
      const two = await filed(a);
      expect((await a.decide({ requestId: one.id, userId: 'U0GROUPIE', decision: 'reject' })).kind).toBe(
        'rejected',
      );
      expect((await a.decide({ requestId: two.id, userId: 'U0NOTINGROUP', decision: 'reject' })).kind).toBe(
        'not-approver',
      );
      expect(r.groupCalls).toEqual(['S0OPS']);
      r.clock.t += 61_000;
      expect((await a.decide({ requestId: two.id, userId: 'U0OTHER', decision: 'approve' })).kind).toBe(
        'executed',
      );
      expect(r.groupCalls).toEqual(['S0OPS', 'S0OPS']);
    });

    it('rejects with a reason; nothing runs', async () => {
      r = await rig(location);
      const a = r.approvals[0]!;
      const req = await filed(a);
      const out = await a.decide({
        requestId: req.id,
        userId: 'U0BOB',
        decision: 'reject',
        reason: '  not today  ',
      });
      expect(out).toMatchObject({
        kind: 'rejected',
        request: { status: 'rejected', rejectReason: 'not today', decidedBy: 'U0BOB' },
      });
      const late = await a.decide({ requestId: req.id, userId: 'U0CAROL', decision: 'approve' });
      expect(late).toMatchObject({
        kind: 'already-decided',
        request: { status: 'rejected', decidedBy: 'U0BOB' },
      });
      expect(await liveFlows()).toEqual([]);
      const entry = (await r.stores[0]!.listAudit({ operationPrefixes: ['approval.reject'] }))[0];
      expect(entry?.params).toMatchObject({ reason: 'not today' });
    });

    it('20 concurrent approvals by different approvers through several handles: exactly one flow', async () => {
      const approvers = Array.from({ length: 20 }, (_, i) => `U0APP${i}`);
      r = await rig(location, { replicas: 4, approvers });
      const req = await filed(r.approvals[0]!);
      const outs = await Promise.all(
        approvers.map((userId, i) =>
          r!.approvals[i % 4]!.decide({ requestId: req.id, userId, decision: 'approve' }),
        ),
      );
      expect(await liveFlows()).toHaveLength(1);
      const executed = outs.filter((o) => o.kind === 'executed');
      expect(executed).toHaveLength(1);
      const winner = executed[0]!.kind === 'executed' ? executed[0]!.request.decidedBy : null;
      for (const o of outs) {
        if (o.kind === 'executed') continue;
        expect(o.kind).toBe('already-decided');
        if (o.kind === 'already-decided') expect(o.request.decidedBy).toBe(winner);
      }
    });

    it('a definitive failure can be retried by an approver, once per click race', async () => {
      r = await rig(location, { replicas: 2 });
      const a = r.approvals[0]!;
      const req = await filed(a);
      await emu.fault({ method: 'POST', path: '/flows$', status: 500, message: 'internal error', count: 1 });
      const out = await a.decide({ requestId: req.id, userId: 'U0BOB', decision: 'approve' });
      expect(out).toMatchObject({ kind: 'failed', request: { status: 'failed' } });
      expect(out.kind === 'failed' && out.error).toContain('internal error');
      expect((await a.retry({ requestId: req.id, userId: 'U0MALLORY' })).kind).toBe('not-approver');
      expect((await a.retry({ requestId: req.id, userId: 'U0REQ' })).kind).toBe('self-approval');
      const retries = await Promise.all(
        ['U0BOB', 'U0CAROL', 'U0GROUPIE', 'U0OTHER'].map((userId, i) =>
          r!.approvals[i % 2]!.retry({ requestId: req.id, userId }),
        ),
      );
      expect(retries.filter((o) => o.kind === 'executed')).toHaveLength(1);
      expect(retries.filter((o) => o.kind === 'already-decided')).toHaveLength(3);
      expect(await liveFlows()).toHaveLength(1);
      const final = await a.get(req.id);
      expect(final).toMatchObject({ status: 'executed', attempts: 2, decidedBy: 'U0BOB', error: null });
      expect((await a.retry({ requestId: req.id, userId: 'U0BOB' })).kind).toBe('already-decided');
      const flows = await r.stores[0]!.listAudit({ operationPrefixes: ['flow.'] });
      expect(flows.map((e) => e.outcome)).toEqual(['ok', 'error']);
      expect(flows[0]?.flowId).toBe(final?.flowId);
    });

    it('a model the service does not know fails definitively with its message', async () => {
      r = await rig(location);
      const req = await filed(r.approvals[0]!, { modelId: '1070000000000000999' });
      const out = await r.approvals[0]!.decide({ requestId: req.id, userId: 'U0BOB', decision: 'approve' });
      expect(out.kind).toBe('failed');
      expect(out.kind === 'failed' && out.error).toContain('1070000000000000999');
    });

    it('an outcome-unknown error is recorded as such and never retried', async () => {
      r = await rig(location);
      const a = r.approvals[0]!;
      const req = await filed(a);
      // The emulator creates the flow, then drops the connection: the reply is lost.
      await emu.fault({ method: 'POST', path: '/flows$', reset: 'after', count: 1 });
      const out = await a.decide({ requestId: req.id, userId: 'U0BOB', decision: 'approve' });
      expect(out).toMatchObject({ kind: 'outcome-unknown', request: { status: 'unknown' } });
      expect(out.kind === 'outcome-unknown' && out.error).toContain('Activity view');
      expect((await a.retry({ requestId: req.id, userId: 'U0CAROL' })).kind).toBe('not-retryable');
      const posts = (await emu.requests()).filter((x) => x.method === 'POST' && x.path.endsWith('/flows'));
      expect(posts).toHaveLength(1);
    });

    it('expires due requests; a click on an expired one only says so', async () => {
      r = await rig(location, { ttlMs: 60_000 });
      const a = r.approvals[0]!;
      const first = await filed(a);
      r.clock.t += 30_000;
      const second = await filed(a);
      r.clock.t += 30_000;
      const expired = await a.expireDue();
      expect(expired.map((x) => x.id)).toEqual([first.id]);
      expect((await a.listPending()).pending.map((x) => x.id)).toEqual([second.id]);
      expect((await a.decide({ requestId: first.id, userId: 'U0BOB', decision: 'approve' })).kind).toBe(
        'expired',
      );
      r.clock.t += 30_000;
      // Not yet swept: the click itself finds it expired.
      expect((await a.decide({ requestId: second.id, userId: 'U0BOB', decision: 'approve' })).kind).toBe(
        'expired',
      );
      expect(await liveFlows()).toEqual([]);
      const expiries = await r.stores[0]!.listAudit({ operationPrefixes: ['approval.expire'] });
      expect(expiries.map((e) => [e.userId, e.requestId])).toEqual([
        ['system', second.id],
        ['system', first.id],
      ]);
    });

    it('after a restart: a pending request is approvable, one that expired meanwhile is expired', async () => {
      r = await rig(location, { ttlMs: 2 * 3_600_000 });
      const early = await filed(r.approvals[0]!);
      r.clock.t += 3_600_000;
      const later = await filed(r.approvals[0]!);
      await r.stores[0]!.close();

      const clock = r.clock;
      r = await rig(location, { ttlMs: 2 * 3_600_000 });
      r.clock.t = clock.t + 90 * 60_000; // early expired at T0 + 2 h; later (filed at T0 + 1 h) is still pending
      const { expired, interrupted } = await r.approvals[0]!.recoverAfterRestart();
      expect(expired.map((x) => x.id)).toEqual([early.id]);
      expect(interrupted).toEqual([]);
      expect(
        (await r.approvals[0]!.decide({ requestId: later.id, userId: 'U0BOB', decision: 'approve' })).kind,
      ).toBe('executed');
      expect(
        (await r.approvals[0]!.decide({ requestId: early.id, userId: 'U0BOB', decision: 'approve' })).kind,
      ).toBe('expired');
    });

    it('after a crash mid-execution, the request is marked outcome unknown', async () => {
      r = await rig(location);
      const req = await filed(r.approvals[0]!);
      // The crash: the decision won but the bot died before recording the flow.
      await r.stores[0]!.decideApproval({ id: req.id, decision: 'approve', by: 'U0BOB', at: r.clock.t });
      r.clock.t += 10 * 60_000;
      const { interrupted } = await r.approvals[0]!.recoverAfterRestart();
      expect(interrupted.map((x) => [x.id, x.status])).toEqual([[req.id, 'unknown']]);
      expect((await r.approvals[0]!.retry({ requestId: req.id, userId: 'U0CAROL' })).kind).toBe(
        'not-retryable',
      );
    });

    it('a replica that outlives the one executing marks its execution outcome unknown, without a restart', async () => {
      r = await rig(location, { replicas: 2, interruptedAfterMs: 60_000 });
      const [, survivor] = r.approvals;
      const req = await filed(r.approvals[0]!);
      // The first replica won the click and died before recording anything.
      await r.stores[0]!.decideApproval({ id: req.id, decision: 'approve', by: 'U0BOB', at: r.clock.t });
      r.clock.t += 59_000;
      expect(await survivor!.recoverInterrupted()).toEqual([]);
      r.clock.t += 1_000;
      const marked = await survivor!.recoverInterrupted();
      expect(marked.map((x) => [x.id, x.status])).toEqual([[req.id, 'unknown']]);
      expect(marked[0]!.error).toContain('outcome is unknown');
      expect(await survivor!.recoverInterrupted()).toEqual([]);
      const audit = await r.stores[1]!.listAudit({ operationPrefixes: ['flow.'] });
      expect(audit.map((e) => [e.userId, e.outcome, e.requestId])).toEqual([['system', 'unknown', req.id]]);
      expect(await liveFlows()).toEqual([]);
    });

    it('an execution marked unknown while it was only slow records what it learnt when it ends', async () => {
      r = await rig(location, { replicas: 2, interruptedAfterMs: 60_000 });
      const req = await filed(r.approvals[0]!);
      // The service takes its time, long enough for the other replica's sweep to come in between.
      await emu.fault({ method: 'POST', path: '/flows$', latencyMs: 3_000, count: 1 });
      const asked = (await emu.requests()).length;
      const deciding = r.approvals[0]!.decide({ requestId: req.id, userId: 'U0BOB', decision: 'approve' });
      // Only slow once its flow's creation is at the service: marked unknown before it is sent (its claim
      // alone is 'executing'), the execution is refused by the gate and nothing is sent, as it should be.
      await eventually(async () =>
        (await emu.requests())
          .slice(asked)
          .some((q) => q.method === 'POST' && /\/flows$/.test(q.path) && q.status === undefined)
          ? true
          : undefined,
      );
      r.clock.t += 60_000;
      expect((await r.approvals[1]!.recoverInterrupted()).map((x) => x.id)).toEqual([req.id]);
      const out = await deciding;
      expect(out.kind).toBe('executed');
      const final = await r.stores[1]!.getApproval(req.id);
      expect(final).toMatchObject({ status: 'executed', error: null });
      expect(final?.flowId).toMatch(/^\d+$/);
      expect(await liveFlows()).toHaveLength(1);
    });
  });
}

approvalWorkflow('SQLite', sqliteLocation);

describePg('PostgreSQL', () => {
  approvalWorkflow('PostgreSQL', pgLocation);

  it('two replicas on one database, 20 concurrent approvals: exactly one execution', async () => {
    const location = await pgLocation();
    const approvers = Array.from({ length: 20 }, (_, i) => `U0APP${i}`);
    const r = await rig(location, { replicas: 2, approvers });
    try {
      for (let round = 0; round < 3; round++) {
        const req = await filed(r.approvals[round % 2]!);
        const outs = await Promise.all(
          approvers.map((userId, i) =>
            r.approvals[i % 2]!.decide({ requestId: req.id, userId, decision: 'approve' }),
          ),
        );
        expect(outs.filter((o) => o.kind === 'executed')).toHaveLength(1);
        expect(outs.filter((o) => o.kind === 'already-decided')).toHaveLength(19);
      }
      expect(await liveFlows()).toHaveLength(3);
    } finally {
      for (const s of r.stores) await s.close();
      await location.cleanup();
    }
  });
});
