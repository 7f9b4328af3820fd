/** The bot's clock: `now()` may return a Date or epoch milliseconds. */
export type Now = () => Date | number;

export function nowMs(now: Now | undefined): number {
  const v = (now ?? Date.now)();
  return typeof v === 'number' ? v : v.getTime();
}
