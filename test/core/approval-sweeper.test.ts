import { describe, expect, it, onTestFinished } from 'vitest';
import { startApprovalSweeper } from '../../src/core/approvals/index.js';
import { createCore } from '../../src/core/compose.js';
import type { ApprovalRequest, Store } from '../../src/store/index.js';
import { startHarness } from '../support/emulator.js';
import { storeForEachTest } from '../support/fixtures/store.js';

describe('expiry sweeper', () => {
  let store: Store;
  storeForEachTest((s) => {
    store = s;
  });

  it('expires due requests in the background and reports them', async () => {
    const emu = await startHarness();
    onTestFinished(() => emu.close());
    const clock = { t: Date.UTC(2026, 10, 22, 9) };
    const { approvals } = createCore({
      store,
      service: emu.client,
      approvals: { approvers: ['U0BOB'], ttlMs: 60_000 },
      policy: {},
      expandGroup: async () => [],
      now: () => new Date(clock.t),
      log: { info: () => {}, error: () => {} },
      timeZone: 'UTC',
    });
    const filed = await approvals.fileRequest({
      action: 'stop',
      modelId: '123',
      requesterId: 'U0A',
      channelId: 'C1',
    });
    if (!filed.ok) throw new Error(filed.message);
    clock.t += 60_000;
    let reported: (v: ApprovalRequest[]) => void = () => {};
    const seen = new Promise<ApprovalRequest[]>((ok) => {
      reported = ok;
    });
    const sweeper = startApprovalSweeper(approvals, { intervalMs: 5, onDecided: (d) => reported(d.expired) });
    const expired = await seen;
    await sweeper.stop();
    expect(expired.map((r) => [r.id, r.status])).toEqual([[filed.request.id, 'expired']]);
  });
});
