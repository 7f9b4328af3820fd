// ISO 8601 time intervals: start/end ("2026-03-01T06:00Z/2026-03-01T18:00Z", "2026-03-01/2026-03-03"),
// start/duration ("2026-03-01T06:00Z/PT12H") and duration/end ("PT12H/2026-03-01T18:00Z"), with "/" or
// "--" between them. An end may leave out what it shares with the start ("2026-03-01T06:00/18:00").
// Kept to the nanosecond. A date is all of its day, as in "Nov 1 to Nov 3"; a date-time without a zone is
// a wall-clock time in the person's zone, one with a zone is in that zone, and an end without a zone takes
// the start's. Durations: hours, minutes and seconds are exact; years, months, weeks and days are calendar
// steps in the zone of the end they are counted from (a written offset has no daylight saving).
import { isoWeekMonday, isoWeeksIn, plusDays, type YMD } from './calendar.js';
import { type Ctx, instantMs, OUT_OF_REACH, ParseProblem } from './context.js';
import { msToNs, nsSubMs, nsToMsFloor } from './exact.js';
import type { TimeRange } from './types.js';
import { addDays, addMonths, isValidTimeZone, type Wall, wallAt, wallToUtcMs } from './zone.js';

interface Duration {
  months: number;
  days: number;
  /** The exact part. */
  ns: bigint;
}

type Part =
  | { k: 'date'; date: YMD; days: number } // a day, or a week (7 days) from its Monday
  | { k: 'time'; wall: Wall; subNs: bigint; offsetMin?: number } // a date-time
  | { k: 'clock'; hour: number; minute: number; second: number; fracNs: bigint; offsetMin?: number } // time only
  | { k: 'duration'; d: Duration };

const DATE = /^(\d{4})-?(\d{2})-?(\d{2})$/;
const WEEK = /^(\d{4})-?W(\d{2})(?:-?([1-7]))?$/i;
const TIME = /^(\d{2}):?(\d{2})(?::?(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const DURATION =
  /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)(?:[.,](\d{1,9}))?S)?)?$/i;

const bad = (text: string, why: string) => new ParseProblem(`“${text}” ${why}`, ['2026-03-01T06:00Z/PT12H']);

function validDate(y: number, m: number, d: number): boolean {
  const probe = new Date(0);
  probe.setUTCFullYear(y, m - 1, d);
  return probe.getUTCFullYear() === y && probe.getUTCMonth() === m - 1 && probe.getUTCDate() === d;
}

function offsetOf(zone: string | undefined, text: string): number | undefined {
  if (!zone) return undefined;
  if (zone.toUpperCase() === 'Z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const h = Number(digits.slice(0, 2));
  const m = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (h > 23 || m > 59) throw bad(text, 'has an offset that is not one.');
  return (zone[0] === '-' ? -1 : 1) * (h * 60 + m);
}

function clockOf(m: RegExpExecArray, text: string): Extract<Part, { k: 'clock' }> {
  const [hour, minute, second] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) throw bad(text, 'is not a time of day.');
  const offsetMin = offsetOf(m[5], text);
  return {
    k: 'clock',
    hour,
    minute,
    second,
    fracNs: BigInt((m[4] ?? '').padEnd(9, '0') || '0'),
    ...(offsetMin === undefined ? {} : { offsetMin }),
  };
}

/** One side of an interval; undefined when it is not ISO 8601 at all. */
function partOf(text: string): Part | undefined {
  const dur = DURATION.exec(text);
  if (dur && text.length > 1 && !/T$/i.test(text)) {
    const n = (i: number) => Number(dur[i] ?? 0);
    const frac = BigInt((dur[8] ?? '').padEnd(9, '0') || '0');
    const ns = ((BigInt(n(5)) * 60n + BigInt(n(6))) * 60n + BigInt(n(7))) * 1_000_000_000n + frac;
    return { k: 'duration', d: { months: 12 * n(1) + n(2), days: 7 * n(3) + n(4), ns } };
  }
  const week = WEEK.exec(text);
  if (week) {
    const [y, w] = [Number(week[1]), Number(week[2])];
    if (w < 1 || w > isoWeeksIn(y)) throw bad(text, `is not a week: ${y} has ${isoWeeksIn(y)} weeks.`);
    const monday = isoWeekMonday(y, w);
    return week[3]
      ? { k: 'date', date: plusDays(monday, Number(week[3]) - 1), days: 1 }
      : { k: 'date', date: monday, days: 7 };
  }
  const [day, time] = text.split(/T/i);
  const d = DATE.exec(day!);
  if (d && time === undefined) {
    const [y, m, dd] = [Number(d[1]), Number(d[2]), Number(d[3])];
    if (!validDate(y, m, dd)) throw bad(text, 'is not a date.');
    return { k: 'date', date: { year: y, month: m, day: dd }, days: 1 };
  }
  const t = time === undefined ? TIME.exec(text) : undefined;
  if (t && /:/.test(text)) return clockOf(t, text);
  if (!d || time === undefined) return undefined;
  const c = TIME.exec(time);
  if (!c) return undefined;
  const [y, m, dd] = [Number(d[1]), Number(d[2]), Number(d[3])];
  if (!validDate(y, m, dd)) throw bad(text, 'is not a date.');
  const k = clockOf(c, text);
  const wall = {
    year: y,
    month: m,
    day: dd,
    hour: k.hour,
    minute: k.minute,
    second: k.second,
    millisecond: 0,
  };
  return {
    k: 'time',
    wall,
    subNs: k.fracNs,
    ...(k.offsetMin === undefined ? {} : { offsetMin: k.offsetMin }),
  };
}

/** A wall-clock time as an instant: at a written offset, else in the person's zone. */
function instantOf(c: Ctx, wall: Wall, subNs: bigint, offsetMin: number | undefined): bigint {
  if (offsetMin === undefined) return msToNs(instantMs(c, wall)) + subNs;
  const ms = wallToUtcMs(wall) - offsetMin * 60_000;
  if (!Number.isFinite(ms)) throw new ParseProblem(OUT_OF_REACH);
  return msToNs(ms) + subNs;
}

/** `ns` moved by a duration (`sign` -1: back), its calendar part on the wall clock of the zone it is in. */
function plus(c: Ctx, ns: bigint, d: Duration, sign: 1 | -1, offsetMin: number | undefined): bigint {
  let at = ns;
  if (d.months !== 0 || d.days !== 0) {
    const ms = nsToMsFloor(at);
    const wall = offsetMin === undefined ? wallAt(c.tz, ms) : wallAt('UTC', ms + offsetMin * 60_000);
    const moved = addDays(addMonths(wall, sign * d.months), sign * d.days);
    at = instantOf(c, moved, nsSubMs(at), offsetMin);
  }
  return at + BigInt(sign) * d.ns;
}

const midnight = (d: YMD): Wall => ({ ...d, hour: 0, minute: 0, second: 0, millisecond: 0 });

/** Where a part starts and ends, given the zone it is read in. */
function bounds(c: Ctx, p: Exclude<Part, { k: 'duration' | 'clock' }>, offsetMin?: number): [bigint, bigint] {
  if (p.k === 'date') {
    return [
      instantOf(c, midnight(p.date), 0n, offsetMin),
      instantOf(c, midnight(plusDays(p.date, p.days)), 0n, offsetMin),
    ];
  }
  const at = instantOf(c, p.wall, p.subNs, p.offsetMin ?? offsetMin);
  return [at, at];
}

const SPLIT = /^(\S+?)(?:\/|--)(\S+)$/;

/**
 * `text` read as an ISO 8601 interval; undefined when it is not one. Both sides must be ISO 8601: "Nov 1/3"
 * is left to the grammar (which refuses it).
 */
export function isoInterval(c: Ctx, text: string): TimeRange | undefined {
  const m = SPLIT.exec(text.replace(/\s+/g, ''));
  if (!m || !isValidTimeZone(c.tz)) return undefined;
  const a = partOf(m[1]!);
  if (!a) return undefined;
  let b = partOf(m[2]!);
  // An end that leaves out what it shares with the start: "…T06:00/18:00".
  if (!b && (a.k === 'time' || (a.k === 'date' && a.days === 1)) && /^\d{2}(?:-\d{2})?$/.test(m[2]!)) {
    const from = a.k === 'time' ? a.wall : a.date;
    const [mm, dd] = m[2]!.includes('-') ? m[2]!.split('-').map(Number) : [from.month, Number(m[2])];
    if (!validDate(from.year, mm!, dd!)) throw bad(text, 'ends on a day that does not exist.');
    b = { k: 'date', date: { year: from.year, month: mm!, day: dd! }, days: 1 };
  }
  if (!b) return undefined;
  if (a.k === 'duration' && b.k === 'duration') {
    throw bad(
      text,
      'gives two durations: an interval needs a start or an end, like “2026-03-01T06:00Z/PT12H”.',
    );
  }
  if (a.k === 'clock') return undefined;
  if (b.k === 'clock') {
    if (a.k !== 'time') return undefined;
    const wall = { ...a.wall, hour: b.hour, minute: b.minute, second: b.second };
    b = { k: 'time', wall, subNs: b.fracNs, ...withOffset(b.offsetMin ?? a.offsetMin) };
  }
  const zoneOf = (p: Part) => (p.k === 'time' ? p.offsetMin : undefined);
  if (a.k === 'duration') {
    const [, end] = bounds(c, b as Exclude<Part, { k: 'duration' | 'clock' }>);
    return { startNs: plus(c, end, a.d, -1, zoneOf(b)), endNs: end };
  }
  const shared = zoneOf(a) ?? zoneOf(b);
  const [start] = bounds(c, a, shared);
  if (b.k === 'duration') return { startNs: start, endNs: plus(c, start, b.d, 1, zoneOf(a)) };
  const [, end] = bounds(c, b, shared);
  return { startNs: start, endNs: end };
}

const withOffset = (offsetMin: number | undefined) => (offsetMin === undefined ? {} : { offsetMin });
