// Time-zone arithmetic on top of Intl (chrono-node ignores IANA names, so all zone work happens here).

export interface Wall {
  year: number;
  month: number; // 1..12
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

const partsFormatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = partsFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    partsFormatters.set(timeZone, f);
  }
  return f;
}

const validity = new Map<string, boolean>();

/**
 * Zones known without building a formatter: the first `Intl.DateTimeFormat` of a process loads ICU's
 * locale data (~30 ms), which the configuration's check would otherwise put before the first
 * acknowledgement. ICU's list holds canonical IDs only; UTC (which ECMA-402 requires) and aliases such as
 * `US/Pacific` are checked the slow way.
 */
let canonicalZones: Set<string> | undefined;
const ALWAYS_KNOWN = new Set(['UTC', 'Etc/UTC', 'GMT', 'Etc/GMT']);

export function isValidTimeZone(tz: string): boolean {
  if (typeof tz !== 'string' || tz.length === 0 || tz.length > 64) return false;
  if (ALWAYS_KNOWN.has(tz)) return true;
  canonicalZones ??= new Set(Intl.supportedValuesOf('timeZone'));
  if (canonicalZones.has(tz)) return true;
  let ok = validity.get(tz);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      ok = true;
    } catch {
      ok = false;
    }
    if (validity.size < 1000) validity.set(tz, ok);
  }
  return ok;
}

/** Local wall-clock reading of the instant `ms` in `timeZone`. */
export function wallAt(timeZone: string, ms: number): Wall {
  const out: Wall = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0, millisecond: 0 };
  let bc = false;
  for (const p of partsFormatter(timeZone).formatToParts(ms)) {
    switch (p.type) {
      case 'year':
        out.year = Number(p.value);
        break;
      case 'month':
        out.month = Number(p.value);
        break;
      case 'day':
        out.day = Number(p.value);
        break;
      case 'hour':
        out.hour = Number(p.value);
        break;
      case 'minute':
        out.minute = Number(p.value);
        break;
      case 'second':
        out.second = Number(p.value);
        break;
      case 'era':
        bc = p.value.startsWith('B');
        break;
    }
  }
  if (bc) out.year = 1 - out.year;
  out.millisecond = ((ms % 1000) + 1000) % 1000;
  return out;
}

export function wallToUtcMs(w: Wall): number {
  const d = new Date(0);
  d.setUTCFullYear(w.year, w.month - 1, w.day);
  d.setUTCHours(w.hour, w.minute, w.second, w.millisecond);
  return d.getTime();
}

/** Offset of `timeZone` from UTC at the instant `ms`, in minutes (east positive). */
export function offsetMinutesAt(timeZone: string, ms: number): number {
  const whole = Math.floor(ms / 1000) * 1000;
  return Math.round((wallToUtcMs(wallAt(timeZone, whole)) - whole) / 60_000);
}

const DAY_MS = 86_400_000;

/**
 * The instant at which the wall-clock time `w` occurs in `timeZone`.
 * A nonexistent time (spring-forward gap) moves forward by the gap; an ambiguous one (fall-back overlap)
 * takes the earlier instant.
 */
export function wallToInstantMs(timeZone: string, w: Wall): number {
  const asUtc = wallToUtcMs(w);
  const before = offsetMinutesAt(timeZone, asUtc - DAY_MS);
  const after = offsetMinutesAt(timeZone, asUtc + DAY_MS);
  const candidates = [asUtc - before * 60_000, asUtc - after * 60_000]
    .filter((t) => wallToUtcMs(wallAt(timeZone, t)) === asUtc)
    .sort((a, b) => a - b);
  if (candidates.length > 0) return candidates[0]!;
  // In a gap: read the wall time with the offset in force before the gap, which lands `gap` later.
  return asUtc - before * 60_000;
}

/** Calendar arithmetic on a date (no zone involved). */
export function addDays(w: Wall, days: number): Wall {
  const d = new Date(0);
  d.setUTCFullYear(w.year, w.month - 1, w.day + days);
  return { ...w, year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

export function addMonths(w: Wall, months: number): Wall {
  const d = new Date(0);
  d.setUTCFullYear(w.year, w.month - 1 + months, 1);
  const year = d.getUTCFullYear();
  const month = d.getUTCMonth() + 1;
  const end = new Date(0);
  end.setUTCFullYear(year, month, 0);
  return { ...w, year, month, day: Math.min(w.day, end.getUTCDate()) };
}

/** ISO weekday of a date: 1 = Monday .. 7 = Sunday. */
export function isoWeekday(w: Wall): number {
  const d = new Date(0);
  d.setUTCFullYear(w.year, w.month - 1, w.day);
  return ((d.getUTCDay() + 6) % 7) + 1;
}

export function midnight(w: Wall): Wall {
  return { year: w.year, month: w.month, day: w.day, hour: 0, minute: 0, second: 0, millisecond: 0 };
}

export function sameDate(a: Wall, b: Wall): boolean {
  return a.year === b.year && a.month === b.month && a.day === b.day;
}
