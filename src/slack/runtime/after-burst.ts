/** A gap this long between two jobs ends a burst: the acking thread, which accepts them, had nothing in hand. */
export const BURST_GAP_MS = 20;

/** The longest a job waits for its burst to end: under a steady stream, jobs still go. */
export const BURST_WAIT_MS = 1_000;

export interface AfterBurstOptions {
  gapMs?: number;
  waitMs?: number;
  /** The clock the gaps are measured with (a test moves it). */
  now?: () => number;
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
  const gapMs = o.gapMs ?? BURST_GAP_MS;
  const waitMs = o.waitMs ?? BURST_WAIT_MS;
  const now = o.now ?? Date.now;
  let waiting: T[] = [];
  let lastAt = Number.NEGATIVE_INFINITY;
  let firstAt = 0;
  let timer: NodeJS.Timeout | undefined;

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const items = waiting;
    waiting = [];
    for (const item of items) handOn(item);
  };
  const check = () => {
    timer = undefined;
    const t = now();
    const quietFor = t - lastAt;
    const waited = t - firstAt;
    if (quietFor >= gapMs || waited >= waitMs) return flush();
    timer = setTimeout(check, Math.max(1, Math.min(gapMs - quietFor, waitMs - waited)));
  };

  return {
    add(item) {
      const t = now();
      const quiet = t - lastAt >= gapMs;
      lastAt = t;
      if (waiting.length === 0) firstAt = t;
      waiting.push(item);
      // After a gap (the burst before it, if any, is over even if its timer is late): everything goes.
      if (quiet) return flush();
      // Under a steady stream the timer may be late (a busy machine): the wait is also bounded here.
      if (t - firstAt >= waitMs) return flush();
      timer ??= setTimeout(check, gapMs);
    },
    flush,
  };
}
