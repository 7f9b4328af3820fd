/**
 * Generated cases per property. The time tests run once per machine zone (vitest.config.ts); the first,
 * UTC, runs every case. The others check that the machine's zone never leaks into a reading, which any
 * case shows, so they run a quarter of them with fresh seeds: together still more than one full run.
 */
export function runsInThisZone(full: number): number {
  return process.env.TZ === 'UTC' ? full : Math.ceil(full / 4);
}
