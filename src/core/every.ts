/** Background work that repeats: a sweep, a prune, a round of due schedules. */
export interface Repeating {
  /** Runs it again now, unless a run is under way (or it stopped). */
  now(): void;
  /** Stops it, and waits for the run under way. */
  stop(): Promise<void>;
}

/**
 * Runs `work` every `intervalMs` (first at once, unless `later`), never two runs at once and never after
 * `stop`; `work` is told whether it has been stopped, to end a long run early. It must report its own
 * failures: the next run comes as usual. The timer keeps no process alive.
 */
export function every(
  intervalMs: number,
  work: (stopped: () => boolean) => Promise<unknown>,
  o: { later?: true } = {},
): Repeating {
  let stopped = false;
  let running: Promise<unknown> | undefined;
  const isStopped = () => stopped;
  const now = () => {
    if (running || stopped) return;
    running = work(isStopped).finally(() => {
      running = undefined;
    });
  };
  if (!o.later) now();
  const timer = setInterval(now, intervalMs);
  timer.unref();
  return {
    now,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
