import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FlowNotifier, FlowTracker } from '../../src/core/tracking/tracker.js';
import type { Store, TrackedFlow } from '../../src/store/index.js';
import { eventually, type Harness, startHarness } from '../support/emulator.js';
import { sqliteLocation, storesForEachTest } from '../support/fixtures/store.js';
import { trackedLearn } from '../support/tracked-learn.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const MESSAGE = { kind: 'message', channelId: 'C0OPS', ts: '1.000001' } as const;

type Seen = { what: 'show' | 'notify'; status: string; announcement: TrackedFlow['announcement'] };

function surface(seen: Seen[]): FlowNotifier {
  const note = (what: Seen['what']) => async (f: TrackedFlow) => {
    seen.push({ what, status: f.status, announcement: f.announcement });
    return { kind: 'done' } as const;
  };
  return { show: note('show'), notify: note('notify') };
}

// The surface posts a flow's announcement after the service answered; on a busy replica a short flow can
// end before that post is recorded. Its end must still be shown on the announcement and told under it.
describe('a flow that ends before its announcement is recorded', () => {
  let emu: Harness;
  let store: Store;
  const openStore = storesForEachTest(sqliteLocation);
  beforeEach(async () => {
    emu = await startHarness({ maxAttempts: 1 }, { runningAfterMs: 0, completedAfterMs: 0 });
    store = await openStore();
  });
  afterEach(async () => {
    await emu.close();
  });

  const endedFlow = () => trackedLearn(emu, store, 'quick');

  const tracker = (announceWaitMs?: number) =>
    new FlowTracker({
      store,
      service: emu.client,
      schedule: { firstMs: 50, maxIntervalMs: 50, maxAgeMs: 86_400_000 },
      log: quiet,
      tickMs: 3_600_000,
      ...(announceWaitMs ? { announceWaitMs } : {}),
    });

  it('reads it meanwhile, and shows and tells its end once the announcement is known', async () => {
    const flowId = await endedFlow();
    const seen: Seen[] = [];
    const t = tracker();
    t.start(surface(seen));
    try {
      await eventually(async () =>
        (await store.getTrackedFlow({ flowId: flowId }))?.endReason ? true : undefined,
      );
      await t.tick();
      expect(seen).toEqual([]);
      await t.announced({ flowId }, MESSAGE);
      await eventually(async () => {
        await t.tick();
        return (await store.getTrackedFlow({ flowId: flowId }))?.finishedAt ? true : undefined;
      });
    } finally {
      await t.stop();
    }
    expect(seen).toEqual([
      { what: 'show', status: 'COMPLETED', announcement: MESSAGE },
      { what: 'notify', status: 'COMPLETED', announcement: MESSAGE },
    ]);
  });

  it('tells the end without one when the surface said nothing took it, or never said', async () => {
    const nowhere = await endedFlow();
    const silent = await endedFlow();
    await store.setFlowAnnouncement({ flowId: nowhere }, { kind: 'none' });
    const seen: Seen[] = [];
    const t = tracker(300);
    t.start(surface(seen));
    try {
      await eventually(async () =>
        (await store.getTrackedFlow({ flowId: nowhere }))?.finishedAt ? true : undefined,
      );
      await eventually(async () => {
        await t.tick();
        return (await store.getTrackedFlow({ flowId: silent }))?.finishedAt ? true : undefined;
      });
    } finally {
      await t.stop();
    }
    expect(seen.filter((s) => s.what === 'notify').map((s) => s.announcement)).toEqual([
      { kind: 'none' },
      null,
    ]);
  });
});
