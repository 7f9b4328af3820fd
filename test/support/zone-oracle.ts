// An independent oracle for the zones the time tests use. It does not use Intl or the module under test:
// offsets come from hand-written rules (US and EU DST transitions for 2025/2026 as literal instants).

export type TestZone = 'UTC' | 'America/New_York' | 'Asia/Kolkata' | 'Europe/Berlin';

const NY_DST: [number, number][] = [
  [Date.parse('2025-03-09T07:00:00Z'), Date.parse('2025-11-02T06:00:00Z')],
  [Date.parse('2026-03-08T07:00:00Z'), Date.parse('2026-11-01T06:00:00Z')],
];

// EU summer time: last Sunday of March 01:00 UTC to last Sunday of October 01:00 UTC.
const BERLIN_DST: [number, number][] = [
  [Date.parse('2025-03-30T01:00:00Z'), Date.parse('2025-10-26T01:00:00Z')],
  [Date.parse('2026-03-29T01:00:00Z'), Date.parse('2026-10-25T01:00:00Z')],
];

const OFFSETS: Record<TestZone, number[]> = {
  'Europe/Berlin': [120, 60],
  UTC: [0],
  'America/New_York': [-240, -300],
  'Asia/Kolkata': [330],
};

export function offsetAt(zone: TestZone, utcMs: number): number {
  if (zone === 'UTC') return 0;
  if (zone === 'Asia/Kolkata') return 330;
  if (utcMs < Date.parse('2025-01-01T00:00:00Z') || utcMs >= Date.parse('2027-01-01T00:00:00Z')) {
    throw new Error('oracle only knows New York and Berlin in 2025-2026');
  }
  if (zone === 'Europe/Berlin') return BERLIN_DST.some(([a, b]) => utcMs >= a && utcMs < b) ? 120 : 60;
  return NY_DST.some(([a, b]) => utcMs >= a && utcMs < b) ? -240 : -300;
}

/** "YYYY-MM-DD HH:MM[:SS]" local wall time → UTC ms (gap: forward; overlap: earlier). */
export function localToUtcMs(zone: TestZone, wall: string): number {
  const asUtc = Date.parse(`${wall.replace(' ', 'T')}${wall.length === 16 ? ':00' : ''}Z`);
  if (Number.isNaN(asUtc)) throw new Error(`bad wall time ${wall}`);
  const valid = OFFSETS[zone]
    .map((o) => asUtc - o * 60_000)
    .filter((t) => offsetAt(zone, t) === (asUtc - t) / 60_000);
  if (valid.length > 0) return Math.min(...valid);
  // Gap: reading the wall time with the standard (winter) offset lands after the gap.
  return asUtc - Math.min(...OFFSETS[zone]) * 60_000;
}

/** Local calendar date "YYYY-MM-DD" and time "HH:MM:SS.mmm" of an instant. */
export function localWall(zone: TestZone, utcMs: number): { date: string; time: string } {
  const iso = new Date(utcMs + offsetAt(zone, utcMs) * 60_000).toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 23) };
}

export function addDaysToDate(date: string, days: number): string {
  const t = Date.parse(`${date}T00:00:00Z`) + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/** Monday of the ISO week containing `date`. */
export function mondayOf(date: string): string {
  const dow = new Date(`${date}T00:00:00Z`).getUTCDay(); // 0 = Sunday
  return addDaysToDate(date, -((dow + 6) % 7));
}

/** Exact literal "2026-11-01T09:00:00.123456789Z" → ns, by string arithmetic only. */
export function isoZToNs(iso: string): bigint {
  const m = /^(.{19})(?:\.(\d{1,9}))?Z$/.exec(iso);
  if (!m) throw new Error(`bad literal ${iso}`);
  return BigInt(Date.parse(`${m[1]}Z`)) * 1_000_000n + BigInt((m[2] ?? '').padEnd(9, '0'));
}
