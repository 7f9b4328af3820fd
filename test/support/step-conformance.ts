import { describe, expect, it } from 'vitest';
import type { NewStepExecution, Store } from '../../src/store/index.js';
import { type StoreLocation, storesForEachTest } from './fixtures/store.js';
import { newRequest } from './store-conformance.js';
import { newFlow } from './tracking-conformance.js';

const T0 = Date.UTC(2026, 10, 22, 9, 0, 0);
const LEASE = 60_000;

export function newStep(n: number, over: Partial<NewStepExecution> = {}): NewStepExecution {
  return {
    executionId: `Fx${String(n).padStart(6, '0')}`,
    callbackId: 'tsai_learn',
    workflowExecutionId: 'Wx000001',
    teamId: 'T0TEAM',
    userId: 'U0ALICE',
    channelId: 'C0OPS',
    createdAt: T0 + n,
    owner: 'follow-up',
    leaseUntil: T0 + n + LEASE,
    ...over,
  };
}

/** Makes step `n` wait for flow `flowId`, as its follow-up does once the flow is created. */
async function waitingFor(s: Store, n: number, wait: { flowId: string } | { approvalId: string }) {
  await s.recordStepExecution(newStep(n));
  return s.updateStepExecution(newStep(n).executionId, 'follow-up', {
    state: 'waiting',
    ...wait,
    release: true,
  });
}

const claim = (s: Store, owner: string, now: number) =>
  s.claimDueSteps({ owner, now, leaseMs: LEASE, limit: 50 });
const ids = (steps: { executionId: string }[]) => steps.map((x) => x.executionId).sort();

/** The Workflow Builder step part of the store contract, run against every implementation. */
export function stepConformance(name: string, createLocation: () => Promise<StoreLocation>): void {
  describe(`Workflow steps: ${name}`, () => {
    const open = storesForEachTest(createLocation);

    it('records a step once: a redelivered event finds it as it is', async () => {
      const s = await open();
      const first = await s.recordStepExecution(newStep(1));
      expect(first.created).toBe(true);
      expect(first.step).toMatchObject({
        executionId: 'Fx000001',
        callbackId: 'tsai_learn',
        workflowExecutionId: 'Wx000001',
        teamId: 'T0TEAM',
        userId: 'U0ALICE',
        channelId: 'C0OPS',
        state: 'running',
        flowId: null,
        completion: null,
        leaseOwner: 'follow-up',
        attempts: 0,
      });
      const again = await s.recordStepExecution(newStep(1, { owner: 'other', callbackId: 'tsai_score' }));
      expect(again).toEqual({ step: first.step, created: false });
    });

    it('only the lease holder changes a step, and a done step never changes again', async () => {
      const s = await open();
      await s.recordStepExecution(newStep(1));
      expect(await s.updateStepExecution('Fx000001', 'someone-else', { state: 'ready' })).toBeNull();
      const ready = await s.updateStepExecution('Fx000001', 'follow-up', {
        state: 'ready',
        completion: { kind: 'success', outputs: { flow_id: '1', live: true } },
      });
      expect(ready?.completion).toEqual({ kind: 'success', outputs: { flow_id: '1', live: true } });
      const done = await s.updateStepExecution('Fx000001', 'follow-up', {
        state: 'done',
        completedAt: T0 + 5,
      });
      expect(done).toMatchObject({ state: 'done', completedAt: T0 + 5 });
      // The compare-and-set: a second completion by the same holder finds nothing to change.
      expect(
        await s.updateStepExecution('Fx000001', 'follow-up', { state: 'done', completedAt: T0 + 9 }),
      ).toBeNull();
      expect((await s.getStepExecution('Fx000001'))?.completedAt).toBe(T0 + 5);
    });

    it('leases a waiting step only once its flow has ended', async () => {
      const s = await open();
      await s.trackFlow(newFlow(1));
      await waitingFor(s, 1, { flowId: newFlow(1).flowId });
      expect(await claim(s, 'A', T0 + 1_000)).toEqual([]);
      const [leased] = await s.claimDueFlows({ owner: 't', now: T0 + 10_000, leaseMs: LEASE, limit: 5 });
      await s.updateTrackedFlow(leased!, 't', {
        status: 'COMPLETED',
        endReason: 'ended',
        release: true,
      });
      expect(ids(await claim(s, 'A', T0 + 11_000))).toEqual(['Fx000001']);
      // Leased: nobody else gets it until the lease runs out.
      expect(await claim(s, 'B', T0 + 12_000)).toEqual([]);
      expect(ids(await claim(s, 'B', T0 + 11_000 + LEASE + 1))).toEqual(['Fx000001']);
    });

    it("never ends a step's wait with another tenant's flow of the same ID, or with another tenant's request", async () => {
      const s = await open();
      // Step 1 (T0TEAM) waits for flow 1; another tenant's service handed out the same ID, and its flow ends.
      await s.trackFlow(newFlow(1));
      await s.trackFlow(newFlow(1, { teamId: 'T0OTHER' }));
      await waitingFor(s, 1, { flowId: newFlow(1).flowId });
      const [other] = (
        await s.claimDueFlows({ owner: 't', now: T0 + 10_000, leaseMs: LEASE, limit: 5 })
      ).filter((f) => f.teamId === 'T0OTHER');
      await s.updateTrackedFlow(other!, 't', { status: 'COMPLETED', endReason: 'ended', release: true });
      expect(await claim(s, 'A', T0 + 11_000)).toEqual([]);
      await s.updateTrackedFlow(newFlow(1), 't', { status: 'FAILED', endReason: 'ended', release: true });
      expect(ids(await claim(s, 'A', T0 + 12_000))).toEqual(['Fx000001']);
      // Step 2 waits for a request whose team is another's: turned down, it does not end the step's wait.
      const elsewhere = await s.createApproval(newRequest({ teamId: 'T0OTHER' }));
      await waitingFor(s, 2, { approvalId: elsewhere.id });
      await s.decideApproval({ id: elsewhere.id, decision: 'reject', by: 'U0BOB', at: T0 + 100 });
      expect(ids(await claim(s, 'B', T0 + 12_000))).toEqual([]);
    });

    it('leases a live step when its request is turned down or expires, or once its approved flow ended', async () => {
      const s = await open();
      const rejected = await s.createApproval(newRequest());
      const approved = await s.createApproval(newRequest());
      const waiting = await s.createApproval(newRequest());
      await waitingFor(s, 1, { approvalId: rejected.id });
      await waitingFor(s, 2, { approvalId: approved.id });
      await waitingFor(s, 3, { approvalId: waiting.id });
      expect(await claim(s, 'A', T0 + 1_000)).toEqual([]);
      await s.decideApproval({ id: rejected.id, decision: 'reject', by: 'U0BOB', at: T0 + 100 });
      await s.decideApproval({ id: approved.id, decision: 'approve', by: 'U0BOB', at: T0 + 100 });
      await s.recordExecution(approved.id, { status: 'executed', flowId: newFlow(7).flowId }, T0 + 200);
      await s.trackFlow(newFlow(7, { approvalId: approved.id, origin: 'approval' }));
      expect(ids(await claim(s, 'A', T0 + 1_000))).toEqual(['Fx000001']);
      const [leased] = await s.claimDueFlows({ owner: 't', now: T0 + 10_000, leaseMs: LEASE, limit: 5 });
      await s.updateTrackedFlow(leased!, 't', {
        status: 'COMPLETED',
        endReason: 'ended',
        release: true,
      });
      expect(ids(await claim(s, 'B', T0 + 11_000))).toEqual(['Fx000002']);
    });

    it('leases a ready step when due, and a running step once its holder’s lease ran out', async () => {
      const s = await open();
      await s.recordStepExecution(newStep(1));
      await s.recordStepExecution(newStep(2));
      await s.updateStepExecution('Fx000002', 'follow-up', {
        state: 'ready',
        completion: { kind: 'error', error: 'no' },
        nextTryAt: T0 + 5_000,
        release: true,
      });
      expect(await claim(s, 'A', T0 + 1_000)).toEqual([]);
      expect(ids(await claim(s, 'A', T0 + 5_000))).toEqual(['Fx000002']);
      expect(ids(await claim(s, 'B', T0 + 1 + LEASE + 1))).toEqual(['Fx000001']);
    });

    it('leases one ready step for sending, unless another holds it; gives back every lease at shutdown', async () => {
      const s = await open();
      await s.recordStepExecution(newStep(1));
      expect(
        await s.claimStep({ executionId: 'Fx000001', owner: 'A', now: T0 + 10, leaseMs: LEASE }),
      ).toBeNull();
      await s.updateStepExecution('Fx000001', 'follow-up', {
        state: 'ready',
        completion: { kind: 'error', error: 'x' },
      });
      expect(
        await s.claimStep({ executionId: 'Fx000001', owner: 'A', now: T0 + 10, leaseMs: LEASE }),
      ).toBeNull();
      expect(await s.releaseStepLeases('follow-up')).toBe(1);
      expect(
        await s.claimStep({ executionId: 'Fx000001', owner: 'A', now: T0 + 10, leaseMs: LEASE }),
      ).toMatchObject({
        leaseOwner: 'A',
      });
    });

    it('lists a workflow run’s steps, newest first', async () => {
      const s = await open();
      await s.recordStepExecution(newStep(1));
      await s.recordStepExecution(newStep(2));
      await s.recordStepExecution(newStep(3, { workflowExecutionId: 'Wx000002' }));
      expect(
        (await s.listStepExecutions({ workflowExecutionId: 'Wx000001' })).map((x) => x.executionId),
      ).toEqual(['Fx000002', 'Fx000001']);
    });

    it('two handles claiming at once never lease the same step, and between them lease all', async () => {
      const first = await open();
      const second = await open();
      for (let n = 1; n <= 40; n++) {
        await first.recordStepExecution(newStep(n, { leaseUntil: T0 }));
      }
      const now = T0 + 1_000;
      const [x, y] = await Promise.all([
        first.claimDueSteps({ owner: 'A', now, leaseMs: LEASE, limit: 25 }),
        second.claimDueSteps({ owner: 'B', now, leaseMs: LEASE, limit: 25 }),
      ]);
      const all = [...ids(x), ...ids(y)];
      expect(new Set(all).size).toBe(all.length);
      const rest = await first.claimDueSteps({ owner: 'C', now, leaseMs: LEASE, limit: 50 });
      expect(all.length + rest.length).toBe(40);
    });
  });
}
