/** The bot's clock: `now()` may return a Date or epoch milliseconds. */
export type Now = () => Date | number;

export function nowMs(now: Now | undefined): number {
  const v = (now ?? Date.now)();
  return typeof v === 'number' ? v : v.getTime();
}

/**
 * Where the bot's time comes from, as data rather than a function, because the follow-up work runs on
 * another thread and only data crosses threads. `shared` is one 64-bit cell of shared memory: both
 * threads read the same instant, so a test that sets or moves it moves the whole bot.
 */
export type ClockSource = { kind: 'system' } | { kind: 'shared'; cell: SharedArrayBuffer };

export const SYSTEM_CLOCK: ClockSource = { kind: 'system' };

export function clockOf(source: ClockSource): () => Date {
  if (source.kind === 'system') return () => new Date();
  const cell = new BigInt64Array(source.cell);
  return () => new Date(Number(Atomics.load(cell, 0)));
}

/** A clock that stands still until told otherwise; it reaches every thread of the bot. */
export interface SettableClock {
  readonly source: ClockSource;
  now(): Date;
  set(at: Date | number): void;
  advance(ms: number): void;
}

export function settableClock(at: Date | number): SettableClock {
  const buffer = new SharedArrayBuffer(8);
  const cell = new BigInt64Array(buffer);
  const set = (t: Date | number) => Atomics.store(cell, 0, BigInt(typeof t === 'number' ? t : t.getTime()));
  set(at);
  const source: ClockSource = { kind: 'shared', cell: buffer };
  const now = clockOf(source);
  return {
    source,
    now,
    set,
    advance: (ms) => set(now().getTime() + ms),
  };
}
