// The bench's per-thread CPU, read from /proc for a real child with a worker thread that spins on request:
// the worker comes out as the busiest other thread, apart from the main one and the rest.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { otherThreadsMs, procCpuMs, threadsCpuMs } from '../../bench/procs.js';
import { waitUntil } from '../support/patience.js';

// The worker spins from "spin" until "stop": the test stops it once its CPU (not the wall clock, which a
// busy machine stretches) has grown enough.
const CHILD = `
const { Worker } = require('node:worker_threads');
const spinning = new Int32Array(new SharedArrayBuffer(4));
const w = new Worker(
  "const { parentPort, workerData } = require('node:worker_threads');" +
    "parentPort.on('message', () => { Atomics.store(workerData, 0, 1); while (Atomics.load(workerData, 0) === 1); });",
  { eval: true, workerData: spinning },
);
w.on('online', () => console.log('ready'));
process.stdin.on('data', (d) => {
  for (const line of String(d).split('\\n')) {
    if (line === 'stop') Atomics.store(spinning, 0, 0);
    else if (line === 'spin') w.postMessage(0);
  }
});
`;

describe.runIf(process.platform === 'linux')('threadsCpuMs and otherThreadsMs', () => {
  it('find the worker by the follow-up stretch and count its CPU during the acks, the main thread apart', async () => {
    const child = spawn(process.execPath, ['-e', CHILD], { stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      let out = '';
      child.stdout.on('data', (d) => {
        out += String(d);
      });
      await waitUntil(() => expect(out).toContain('ready'));
      const pid = child.pid!;
      const othersBusy = (from: Map<number, number>) => {
        const now = threadsCpuMs(pid);
        return Math.max(...[...now].filter(([t]) => t !== pid).map(([t, ms]) => ms - (from.get(t) ?? 0)));
      };
      const spinFor = async (from: Map<number, number>) => {
        child.stdin.write('spin\n');
        await waitUntil(() => expect(othersBusy(from)).toBeGreaterThanOrEqual(250));
        child.stdin.write('stop\n');
      };
      // "The acks": the worker spins; "the follow-ups": it spins again.
      const before = threadsCpuMs(pid);
      await spinFor(before);
      const after = threadsCpuMs(pid);
      await spinFor(after);
      const settled = threadsCpuMs(pid);

      expect(settled.size).toBeGreaterThan(2);
      const { busiest, rest } = otherThreadsMs(pid, before, after, settled);
      const main = (after.get(pid) ?? 0) - (before.get(pid) ?? 0);
      expect(busiest).toBeGreaterThanOrEqual(250);
      expect(busiest).toBeGreaterThan(rest);
      expect(busiest).toBeGreaterThan(main);
      expect(procCpuMs(pid)).toBeGreaterThanOrEqual(busiest + rest + main);
    } finally {
      child.kill();
    }
  });
});
