// An independent oracle for the zones the time tests use. It does not use Intl or the module under test:
// offsets come from hand-written rules (US and EU DST transitions for 2024-2028 as literal instants).

export type TestZone = 'UTC' | 'America/New_York' | 'Asia/Kolkata' | 'Europe/Berlin' | 'Europe/London';

const NY_DST: [number, number][] = [
  [Date.parse('2024-03-10T07:00:00Z'), Date.parse('2024-11-03T06:00:00Z')],
  [Date.parse('2025-03-09T07:00:00Z'), Date.parse('2025-11-02T06:00:00Z')],
  [Date.parse('2026-03-08T07:00:00Z'), Date.parse('2026-11-01T06:00:00Z')],
  [Date.parse('2027-03-14T07:00:00Z'), Date.parse('2027-11-07T06:00:00Z')],
  [Date.parse('2028-03-12T07:00:00Z'), Date.parse('2028-11-05T06:00:00Z')],
];

// EU summer time (Berlin and London alike): last Sunday of March 01:00 UTC to last Sunday of October 01:00 UTC.
const EU_DST: [number, number][] = [
  [Date.parse('2024-03-31T01:00:00Z'), Date.parse('2024-10-27T01:00:00Z')],
  [Date.parse('2025-03-30T01:00:00Z'), Date.parse('2025-10-26T01:00:00Z')],
  [Date.parse('2026-03-29T01:00:00Z'), Date.parse('2026-10-25T01:00:00Z')],
  [Date.parse('2027-03-28T01:00:00Z'), Date.parse('2027-10-31T01:00:00Z')],
  [Date.parse('2028-03-26T01:00:00Z'), Date.parse('2028-10-29T01:00:00Z')],
];

const OFFSETS: Record<TestZone, number[]> = {
  'Europe/Berlin': [120, 60],
  'Europe/London': [60, 0],
  UTC: [0],
  'America/New_York': [-240, -300],
  'Asia/Kolkata': [330],
};

export function offsetAt(zone: TestZone, utcMs: number): number {
  if (zone === 'UTC') return 0;
  if (zone === 'Asia/Kolkata') return 330;
  if (utcMs < Date.parse('2024-01-01T00:00:00Z') || utcMs >= Date.parse('2029-01-01T00:00:00Z')) {
    throw new Error('oracle only knows New York, Berlin and London in 2024-2028');
  }
  const summer = (zone === 'America/New_York' ? NY_DST : EU_DST).some(([a, b]) => utcMs >= a && utcMs < b);
  return OFFSETS[zone][summer ? 0 : 1]!;
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

function addMonthsToDate(date: string, months: number): string {
  const [y, m] = date.split('-').map(Number) as [number, number];
  const total = y * 12 + (m - 1) + months;
  return `${Math.floor(total / 12)}-${String((total % 12) + 1).padStart(2, '0')}-01`;
}

/**
 * An instant from a hand-written spec, relative to `nowNs` in `zone`:
 * - `now`; `now-3h` (exact); `now-3d`, `now-2mo`, `now-1y` (same wall time, calendar steps);
 * - `D-1 09:00`: days from today's local date; `W-7 00:00`: days from this week's Monday;
 * - `M-1`, `Y+1`: 00:00 on the first of a month or year, counted from the current one;
 * - `2026-11-01 09:00`: a local wall time; `2026-11-01T09:00:00Z`: an exact instant.
 */
export function specNs(spec: string, zone: TestZone, nowNs: bigint): bigint {
  const nowMs = Number(nowNs / 1_000_000n);
  const subMs = nowNs % 1_000_000n;
  const { date: today, time } = localWall(zone, nowMs);
  if (spec === 'now') return nowNs;
  const exact = /^now-(\d+)([smh])$/.exec(spec);
  if (exact) {
    const unit = { s: 1n, m: 60n, h: 3600n }[exact[2] as 's' | 'm' | 'h'];
    return nowNs - BigInt(exact[1]!) * unit * 1_000_000_000n;
  }
  const calendar = /^now-(\d+)(d|mo|y)$/.exec(spec);
  if (calendar) {
    const n = Number(calendar[1]);
    let back: string;
    if (calendar[2] === 'd') back = addDaysToDate(today, -n);
    else {
      const months = calendar[2] === 'y' ? 12 * n : n;
      const day = Number(today.slice(8, 10));
      const first = addMonthsToDate(today, -months);
      const [y, m] = first.split('-').map(Number) as [number, number];
      const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
      back = `${first.slice(0, 8)}${String(Math.min(day, last)).padStart(2, '0')}`;
    }
    return BigInt(localToUtcMs(zone, `${back} ${time}`)) * 1_000_000n + subMs;
  }
  const relative = /^([DW])([+-]?\d+) (\d\d:\d\d)$/.exec(spec);
  if (relative) {
    const base = relative[1] === 'D' ? today : mondayOf(today);
    return (
      BigInt(localToUtcMs(zone, `${addDaysToDate(base, Number(relative[2]))} ${relative[3]}`)) * 1_000_000n
    );
  }
  const period = /^([MY])([+-]?\d+)$/.exec(spec);
  if (period) {
    const n = Number(period[2]);
    const first = period[1] === 'M' ? addMonthsToDate(today, n) : `${Number(today.slice(0, 4)) + n}-01-01`;
    return BigInt(localToUtcMs(zone, `${first} 00:00`)) * 1_000_000n;
  }
  if (/^\d{4}-\d\d-\d\d \d\d:\d\d$/.test(spec)) return BigInt(localToUtcMs(zone, spec)) * 1_000_000n;
  if (spec.endsWith('Z')) return isoZToNs(spec);
  throw new Error(`bad spec ${spec}`);
}

/**
 * A [start, end] pair of specs. An end written `X|now` is a period that ends now while it is still going
 * on: X when the start is after now or X is already past, else now.
 */
export function pairNs(pair: readonly [string, string], zone: TestZone, nowNs: bigint): [bigint, bigint] {
  const start = specNs(pair[0], zone, nowNs);
  const running = pair[1].endsWith('|now');
  const end = specNs(running ? pair[1].slice(0, -4) : pair[1], zone, nowNs);
  return [start, running && start <= nowNs && nowNs < end ? nowNs : end];
}
