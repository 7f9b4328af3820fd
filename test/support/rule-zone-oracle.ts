// A second independent oracle, for zones with odd offsets and for daylight-saving rules computed rather
// than listed: Kathmandu (+05:45, no DST), Adelaide (+09:30, +10:30 from the first Sunday of October to the
// first Sunday of April) and New York (second Sunday of March to first Sunday of November). It uses
// neither Intl nor the module under test: only Date.UTC arithmetic and the rules as the laws state them.

export type RuleZone = 'Asia/Kathmandu' | 'Australia/Adelaide' | 'America/New_York';

const MIN = 60_000;
const HOUR = 60 * MIN;

/** Day of the month of the n-th Sunday of `month` (1-12) in `year`. */
function nthSunday(year: number, month: number, n: number): number {
  const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay(); // 0 = Sunday
  return 1 + ((7 - first) % 7) + 7 * (n - 1);
}

/** [standard, daylight] offsets in minutes east of UTC. */
const OFFSETS: Record<RuleZone, [number, number]> = {
  'Asia/Kathmandu': [345, 345],
  'Australia/Adelaide': [570, 630],
  'America/New_York': [-300, -240],
};

export function ruleOffset(zone: RuleZone, utcMs: number): number {
  const year = new Date(utcMs).getUTCFullYear();
  const [std, dst] = OFFSETS[zone];
  if (zone === 'Asia/Kathmandu') return std;
  if (zone === 'America/New_York') {
    // 02:00 local standard time, and 02:00 local daylight time.
    const on = Date.UTC(year, 2, nthSunday(year, 3, 2), 2) - std * MIN;
    const off = Date.UTC(year, 10, nthSunday(year, 11, 1), 2) - dst * MIN;
    return utcMs >= on && utcMs < off ? dst : std;
  }
  // Adelaide: summer ends at 03:00 daylight time in April, starts at 02:00 standard time in October.
  const off = Date.UTC(year, 3, nthSunday(year, 4, 1), 3) - dst * MIN;
  const on = Date.UTC(year, 9, nthSunday(year, 10, 1), 2) - std * MIN;
  return utcMs < off || utcMs >= on ? dst : std;
}

export interface LocalDate {
  y: number;
  m: number;
  d: number;
}

export function localDateOf(zone: RuleZone, utcMs: number): LocalDate {
  const t = new Date(utcMs + ruleOffset(zone, utcMs) * MIN);
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

export function shiftDate(date: LocalDate, days: number): LocalDate {
  const t = new Date(Date.UTC(date.y, date.m - 1, date.d + days));
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

/** 1 = Monday … 7 = Sunday. */
export function weekdayOfDate(date: LocalDate): number {
  return ((new Date(Date.UTC(date.y, date.m - 1, date.d)).getUTCDay() + 6) % 7) + 1;
}

/**
 * The instant of a local wall time: of the standard and daylight readings, those the rule confirms, the
 * earlier one; a time in the spring gap is read at the standard offset, which lands as late as the gap.
 */
export function ruleWallMs(zone: RuleZone, date: LocalDate, hhmm: string): number {
  const [h, mi] = hhmm.split(':').map(Number) as [number, number];
  const asUtc = Date.UTC(date.y, date.m - 1, date.d, h, mi);
  const [std, dst] = OFFSETS[zone];
  const fits = [asUtc - dst * MIN, asUtc - std * MIN].filter(
    (t) => ruleOffset(zone, t) === (asUtc - t) / MIN,
  );
  return fits.length > 0 ? Math.min(...fits) : asUtc - std * MIN;
}

/** The oracle at one instant, in one zone: wall times counted from today, and exact offsets from now. */
export function oracleAt(zone: RuleZone, nowNs: bigint) {
  const nowMs = Number(nowNs / 1_000_000n);
  const today = localDateOf(zone, nowMs);
  return {
    zone,
    nowNs,
    today,
    /** `hhmm` on the day `days` from today, in ns. */
    wall: (days: number, hhmm: string): bigint =>
      BigInt(ruleWallMs(zone, shiftDate(today, days), hhmm)) * 1_000_000n,
    /** Exactly `minutes` before now. */
    ago: (minutes: number): bigint => nowNs - BigInt(minutes) * BigInt(HOUR / 60) * 1_000_000n,
  };
}

export type Oracle = ReturnType<typeof oracleAt>;
