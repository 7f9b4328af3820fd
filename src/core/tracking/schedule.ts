/** How often a followed flow is read back, and for how long. */
export interface PollSchedule {
  /** The first read, this long after the flow was created. */
  firstMs: number;
  /** The longest wait between two reads. */
  maxIntervalMs: number;
  /** After this long the bot stops following and says where to look. */
  maxAgeMs: number;
}

export const DEFAULT_SCHEDULE: PollSchedule = {
  firstMs: 3_000,
  maxIntervalMs: 60_000,
  maxAgeMs: 7 * 24 * 3_600_000,
};

/**
 * The wait after the `polls`-th read: it doubles from the first delay up to the cap, with ±20 % jitter so
 * that flows created together do not stay in step, and never sooner than the service asked (Retry-After).
 * A learn can run for hours: a read a minute is plenty, and keeps 1,000 followed flows at ~17 reads/s.
 */
export function nextPollDelay(
  polls: number,
  s: Pick<PollSchedule, 'firstMs' | 'maxIntervalMs'>,
  o: { retryAfterMs?: number; random?: () => number } = {},
): number {
  const base = Math.min(s.maxIntervalMs, s.firstMs * 2 ** Math.max(0, Math.min(polls, 30)));
  const jittered = Math.round(base * (0.8 + 0.4 * (o.random ?? Math.random)()));
  return Math.max(jittered, o.retryAfterMs ?? 0);
}
