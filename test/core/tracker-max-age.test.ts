import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FlowNotifier, FlowTracker } from '../../src/core/tracking/tracker.js';
import type { Store, TrackedFlow } from '../../src/store/index.js';
import { type Harness, startHarness } from '../support/emulator.js';
import { sqliteLocation, storesForEachTest } from '../support/fixtures/store.js';
import { trackedLearn } from '../support/tracked-learn.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const MESSAGE = { kind: 'message', channelId: 'C0OPS', ts: '1.000001' } as const;
const MAX_AGE_MS = 60_000;

type Told = { what: 'show' | 'notify'; status: string; endReason: TrackedFlow['endReason'] };

// A round may first reach a flow only after its longest age: a busy machine late to the first read, or a
// bot that was down. The end notice says "<status> when the bot stopped following", so that status must
// be the one the flow had then, not the one recorded when it was created.
describe('a flow first reached after its longest age', () => {
  let emu: Harness;
  let store: Store;
  const openStore = storesForEachTest(sqliteLocation);
  beforeEach(async () => {
    emu = await startHarness({ maxAttempts: 1 }, { runningAfterMs: 0, completedAfterMs: 600_000 });
    store = await openStore();
  });
  afterEach(async () => {
    await emu.close();
  });

  it('is read once more, and its end tells the status it had then', async () => {
    const flowId = await trackedLearn(emu, store, 'reached late');
    await store.setFlowAnnouncement({ flowId }, MESSAGE);
    const told: Told[] = [];
    const note = (what: Told['what']) => async (f: TrackedFlow) => {
      told.push({ what, status: f.status, endReason: f.endReason });
      return { kind: 'done' } as const;
    };
    const notifier: FlowNotifier = { show: note('show'), notify: note('notify') };
    const t = new FlowTracker({
      store,
      service: emu.client,
      schedule: { firstMs: 50, maxIntervalMs: 50, maxAgeMs: MAX_AGE_MS },
      log: quiet,
      tickMs: 3_600_000,
      clock: () => Date.now() + MAX_AGE_MS,
    });
    t.start(notifier);
    try {
      await t.tick();
    } finally {
      await t.stop();
    }
    expect(told).toEqual([
      { what: 'show', status: 'RUNNING', endReason: 'max-age' },
      { what: 'notify', status: 'RUNNING', endReason: 'max-age' },
    ]);
    const row = await store.getTrackedFlow({ flowId });
    expect(row).toMatchObject({ status: 'RUNNING', endReason: 'max-age', polls: 1 });
    expect(row?.finishedAt).not.toBeNull();
  });
});
