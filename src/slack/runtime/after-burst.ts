import { performance } from 'node:perf_hooks';

/**
 * A gap this long between two jobs ends a burst: the acking thread, which accepts them, sat this long with
 * nothing in hand.
 */
export const BURST_GAP_MS = 20;

/** The longest a job waits for its burst to end: under a steady stream, jobs still go. */
export const BURST_WAIT_MS = 1_000;

export interface AfterBurstOptions {
  gapMs?: number;
  waitMs?: number;
  /** The clock the longest wait is measured with (a test moves it). */
  now?: () => number;
  /**
   * The time this thread's event loop has sat waiting for something to do, in ms, which the gaps are
   * measured with (a test moves it). By default the loop's own count, which grows only while the thread
   * waits with nothing in hand: a thread the machine left unscheduled, or busy with a batch of requests,
   * while the next ones were already waiting in its sockets, had no gap, however long the wall clock
   * says it was.
   */
  idle?: () => number;
}

const loopIdleMs = () => performance.eventLoopUtilization().idle;

/** Arrivals on the acking thread, and work that waits for them to pause. */
export interface AcksPause {
  /** Something arrived, and the work is due: it runs once arrivals pause. */
  arrived(): void;
  /** Something arrived; the work is not due because of it. */
  seen(): void;
  /** The work is due: it runs at once if arrivals have paused, else once they do. */
  due(): void;
  /** Whether the thread has sat idle a gap's length since the last arrival (none yet counts as quiet). */
  quiet(): boolean;
  /** Runs at once what is due, if anything is (a stop, or an arrival that itself came after a gap). */
  runNow(): void;
}

/**
 * Calls `run`, once it is due, when the arrivals it is told of pause for `gapMs`, or once it has been due
 * for `waitMs`. Work the acking thread can put off (handing jobs on, a synchronous SQLite commit) then
 * happens between bursts, not among acks that Slack waits on for 3 seconds: on two cores a commit that
 * waits for the worker's write lock stalls every ack in hand, and a stall of a gap's length ended the
 * burst early, letting the worker in among the acks. Under a steady stream nothing waits longer than the
 * bound. The wait keeps no process alive: a stop calls `runNow`.
 */
export function onAcksPause(run: () => void, o: AfterBurstOptions = {}): AcksPause {
  const gapMs = o.gapMs ?? BURST_GAP_MS;
  const waitMs = o.waitMs ?? BURST_WAIT_MS;
  const now = o.now ?? Date.now;
  const idle = o.idle ?? loopIdleMs;
  /** The loop's idle time at the last arrival. */
  let lastAt = Number.NEGATIVE_INFINITY;
  /** When the work became due; none while it is not. */
  let dueAt: number | undefined;
  let timer: NodeJS.Timeout | undefined;

  const runNow = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (dueAt === undefined) return;
    dueAt = undefined;
    run();
  };
  const check = () => {
    timer = undefined;
    if (dueAt === undefined) return;
    const quietFor = idle() - lastAt;
    const waited = now() - dueAt;
    if (quietFor >= gapMs || waited >= waitMs) return runNow();
    timer = setTimeout(check, Math.max(1, Math.min(gapMs - quietFor, waitMs - waited))).unref();
  };
  const due = () => {
    const t = now();
    dueAt ??= t;
    // Under a steady stream the timer may be late (a busy machine): the wait is also bounded here.
    if (t - dueAt >= waitMs) return runNow();
    if (!timer) check();
  };
  const seen = () => {
    lastAt = idle();
  };

  return {
    arrived() {
      seen();
      due();
    },
    seen,
    due,
    quiet: () => idle() - lastAt >= gapMs,
    runNow,
  };
}

/**
 * Hands on the jobs of a burst of acks once the acks pause. On two cores, a burst's follow-ups (each a
 * command read, records written, a service call sent) competed with the acks still arriving, which Slack
 * waits on for 3 seconds where a follow-up has half an hour; the worker's lower priority did not stop it,
 * as the scheduler lets a running thread finish its slice. So a job accepted after a gap goes at once, and
 * one accepted within a burst waits, with the rest of the burst, for the first gap (`BURST_GAP_MS`), or at
 * most `BURST_WAIT_MS`; then they all go in the order they came. A lone command waits for nothing. The
 * gaps are measured where the jobs are accepted: the worker, at a lower priority, sees its own delays as
 * gaps. What waits is plain data; `flush` hands it all on at once (a stop).
 */
export function afterBurst<T>(
  handOn: (item: T) => void,
  o: AfterBurstOptions = {},
): { add(item: T): void; flush(): void } {
  let waiting: T[] = [];
  const pause = onAcksPause(() => {
    const items = waiting;
    waiting = [];
    for (const item of items) handOn(item);
  }, o);
  return {
    add(item) {
      // After a gap (the burst before it, if any, is over even if its timer is late): everything goes.
      const afterGap = pause.quiet();
      waiting.push(item);
      pause.arrived();
      if (afterGap) pause.runNow();
    },
    flush: pause.runNow,
  };
}
