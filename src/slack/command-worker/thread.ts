import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * The command worker thread's entry (started by ./start.ts). Acks are the deadline (Slack's 3 s); the
 * follow-up work is throughput. On Linux the nice value is per thread, so this thread yields the CPU to
 * the acking thread whenever both want it, from its first instruction: the loop and its modules are
 * imported only after the priority is lowered, so loading them does not slow the bot's start either.
 * A moderate value, so the worker still opens modals within their trigger_id's 3 s on a busy machine.
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
await import('./serve.js');
