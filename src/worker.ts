import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { FromWorker } from './slack/runtime/protocol.js';

/**
 * The follow-up worker thread's entry (started by `slack/runtime/worker-host.ts`); its life is
 * `slack/runtime/worker-main.ts`.
 *
 * Acks are the deadline (Slack's 3 s); the follow-ups are throughput. On Linux the nice value is per
 * thread, so this thread yields the CPU to the acking thread whenever both want it, from its first
 * instruction: everything else is imported only after the priority is lowered. A moderate value, so the
 * worker still opens forms within their trigger_id's 3 s on a busy machine.
 */
const WORKER_NICE = 10;

function lowerOwnPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, WORKER_NICE);
  } catch {
    // Not permitted or no /proc: the worker runs at the process's priority, which is still correct.
  }
}

lowerOwnPriority();

if (!parentPort) throw new Error('worker.ts runs as the follow-up worker thread (see startWorkerHost)');
const port = parentPort;

import('./slack/runtime/worker-main.js')
  .then((m) => m.runWorkerThread())
  .catch((e: unknown) => {
    const failed: FromWorker = { kind: 'start-failed', message: e instanceof Error ? e.message : String(e) };
    port.postMessage(failed);
    port.close();
  });
