import type { Store } from '../../src/store/index.js';
import { SEED } from '../../standins/emulator/index.js';
import type { Harness } from './emulator.js';

/** A learn created at the emulator and tracked in `store` as a command's flow, due now; returns its ID. */
export async function trackedLearn(emu: Harness, store: Store, name: string): Promise<string> {
  const flow = await emu.client.anomalyLearn({
    name,
    spec: {
      workspace: SEED.workspaces.pumpStation,
      dataspec: {
        name: 'd',
        specs: [
          {
            timeRanges: [{ startTime: '2025-11-01T00:00:00Z', endTime: '2025-11-08T00:00:00Z' }],
            signals: [{ signal: SEED.signals.temperature, name: 'temperature' }],
          },
        ],
      },
    },
  });
  const t0 = Date.now();
  await store.trackFlow({
    flowId: flow.id,
    flowType: 'ANOMALYLEARN',
    channelId: 'C0OPS',
    requesterId: 'U0ALICE',
    origin: 'command',
    asked: '/tsai learn …',
    request: { operation: { kind: 'learn' }, outcome: {} },
    status: 'CREATED',
    createdAt: t0,
    nextPollAt: t0,
  });
  return flow.id;
}
