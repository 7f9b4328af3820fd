import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FlowNotifier, FlowTracker } from '../../src/core/tracking/tracker.js';
import type { Store, TrackedFlow } from '../../src/store/index.js';
import { eventually, type Harness, startHarness } from '../support/emulator.js';
import { sqliteLocation, storesForEachTest } from '../support/fixtures/store.js';
import { trackedLearn } from '../support/tracked-learn.js';

const LEASE_MS = 60_000;
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/** The surface, as the tracker sees it: what it was asked to show and to tell, and by which replica. */
function surface(
  who: string,
  seen: { who: string; what: 'show' | 'notify'; status: string }[],
): FlowNotifier {
  return {
    show: async (f: TrackedFlow) => {
      seen.push({ who, what: 'show', status: f.status });
      return { kind: 'done' };
    },
    notify: async (f: TrackedFlow) => {
      seen.push({ who, what: 'notify', status: f.status });
      return { kind: 'done' };
    },
  };
}

// Two trackers on one store, as two replicas: the first one's read of a flow outlasts its lease, and the
// second takes the flow over meanwhile and tells its end. The first must then tell nothing.
describe('a read that outlasts its lease', () => {
  let emu: Harness;
  let stores: Store[];
  const openStore = storesForEachTest(sqliteLocation);
  beforeEach(async () => {
    emu = await startHarness({ maxAttempts: 1 }, { runningAfterMs: 0, completedAfterMs: 0 });
    stores = [await openStore(), await openStore()];
  });
  afterEach(async () => {
    await emu.close();
  });

  it('leaves the flow to the replica that took it over: one end notice', async () => {
    const flow = { id: await trackedLearn(emu, stores[0]!, 'slow read') };
    await stores[0]!.setFlowAnnouncement(
      { flowId: flow.id },
      { kind: 'message', channelId: 'C0OPS', ts: '1.000001' },
    );
    // The first replica's read hangs for 3 s; by the second replica's clock its lease has run out by then.
    await emu.fault({ method: 'GET', path: `/flows/${flow.id}$`, latencyMs: 3_000, count: 1 });
    const seen: { who: string; what: 'show' | 'notify'; status: string }[] = [];
    const tracker = (store: Store, clock: () => number) =>
      new FlowTracker({
        store,
        service: emu.client,
        schedule: { firstMs: 1_000, maxIntervalMs: 1_000, maxAgeMs: 86_400_000 },
        log: quiet,
        clock,
        leaseMs: LEASE_MS,
        tickMs: 3_600_000,
      });
    const slow = tracker(stores[0]!, Date.now);
    const late = tracker(stores[1]!, () => Date.now() + LEASE_MS + 1_000);
    slow.start(surface('slow', seen));
    await eventually(async () =>
      (await stores[0]!.getTrackedFlow({ flowId: flow.id }))?.leaseOwner ? true : undefined,
    );
    late.start(surface('late', seen));
    await eventually(async () =>
      (await stores[1]!.getTrackedFlow({ flowId: flow.id }))?.finishedAt ? true : undefined,
    );
    await slow.stop(); // waits for its round: the slow read, then what it does after
    await late.stop();

    expect(seen.filter((s) => s.who === 'slow')).toEqual([]);
    expect(seen.filter((s) => s.what === 'notify')).toEqual([
      { who: 'late', what: 'notify', status: 'COMPLETED' },
    ]);
    expect(await stores[0]!.getTrackedFlow({ flowId: flow.id })).toMatchObject({
      polls: 1,
      leaseOwner: null,
    });
  });
});
