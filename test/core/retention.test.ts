import { describe, expect, it } from 'vitest';
import { pruneRetained, startRetentionPruner } from '../../src/core/retention.js';
import type { Store } from '../../src/store/index.js';
import { storeForEachTest } from '../support/fixtures/store.js';
import { newRequest } from '../support/store-conformance.js';
import { newFlow } from '../support/tracking-conformance.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 22, 9, 0, 0);

describe('store retention', () => {
  let store: Store;
  storeForEachTest((s) => {
    store = s;
  });

  /** Audit entries, rejected requests and told flows, one of each per age in days. */
  async function recordAged(ages: number[]): Promise<void> {
    for (const [i, age] of ages.entries()) {
      const at = NOW - age * DAY;
      await store.appendAudit({ at, userId: 'U0A', operation: `op.${age}`, outcome: 'ok' });
      const r = await store.createApproval(newRequest({ createdAt: at - 1, expiresAt: NOW + DAY }));
      await store.decideApproval({ id: r.id, decision: 'reject', by: 'U0B', at });
      await store.trackFlow(newFlow(i, { createdAt: at - 1, nextPollAt: at - 1 }));
    }
    await store.claimDueFlows({ owner: 'A', now: NOW, leaseMs: DAY, limit: 100 });
    for (const [i, age] of ages.entries()) {
      const at = NOW - age * DAY;
      await store.updateTrackedFlow(newFlow(i), 'A', {
        endReason: 'ended',
        notifiedAt: at,
        finishedAt: at,
        release: true,
      });
    }
  }

  it('deletes each kind past its own retention, batch after batch, and keeps the rest', async () => {
    await recordAged([400, 370, 200, 100, 60, 40, 20, 1]);
    const pruned = await pruneRetained(store, { now: () => NOW, batchSize: 2 });
    expect(pruned).toEqual({ audit: 2, approvals: 4, flows: 6 });
    expect((await store.listAudit({ limit: 100 })).map((e) => e.operation)).toEqual([
      'op.1',
      'op.20',
      'op.40',
      'op.60',
      'op.100',
      'op.200',
    ]);
    expect(await store.listApprovals()).toHaveLength(4);
    expect((await store.listTrackedFlows()).map((f) => f.finishedAt)).toEqual([NOW - DAY, NOW - 20 * DAY]);
    expect(await pruneRetained(store, { now: () => NOW })).toEqual({ audit: 0, approvals: 0, flows: 0 });
  });

  it('keeps a kind for ever when told Infinity, and refuses a retention that would delete everything', async () => {
    await recordAged([4000]);
    const kept = await pruneRetained(store, { now: () => NOW, auditDays: Number.POSITIVE_INFINITY });
    expect(kept).toEqual({ audit: 0, approvals: 1, flows: 1 });
    expect(() => startRetentionPruner(store, { flowDays: 0 })).toThrow(/flowDays must be a number of days/);
    await expect(pruneRetained(store, { approvalDays: -1 })).rejects.toThrow(/approvalDays/);
  });

  it('prunes once at start and logs what it deleted', async () => {
    await recordAged([400, 1]);
    let logged: (line: { o: object; msg: string }) => void = () => {};
    const line = new Promise<{ o: object; msg: string }>((r) => {
      logged = r;
    });
    const logger = { info: (o: object, msg: string) => logged({ o, msg }), error: () => {} };
    const pruner = startRetentionPruner(store, { now: () => NOW, logger });
    expect(await line).toEqual({
      o: { pruned: { audit: 1, approvals: 1, flows: 1 } },
      msg: 'store retention: old records deleted',
    });
    await pruner.stop();
    expect(await store.listAudit()).toHaveLength(1);
  });

  it('stop ends a pass between batches and waits for the batch in hand', async () => {
    await recordAged([400, 1]);
    const lines: object[] = [];
    const logger = { info: (o: object) => lines.push(o), error: () => {} };
    await startRetentionPruner(store, { now: () => NOW, logger }).stop();
    expect(lines).toEqual([{ pruned: { audit: 1, approvals: 0, flows: 0 } }]);
    expect(await store.listApprovals()).toHaveLength(2);
  });

  it('a failing pass is logged, not thrown', async () => {
    await store.close();
    const errors: string[] = [];
    const logger = { info: () => {}, error: (_o: object, msg: string) => errors.push(msg) };
    await startRetentionPruner(store, { now: () => NOW, logger }).stop();
    expect(errors).toEqual(['store retention: pruning failed; trying again later']);
  });
});
