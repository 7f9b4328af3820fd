import { msToNs, nsSubMs, nsToMsFloor } from './exact.js';
import type { TimeRange } from './types.js';
import { isoWeekday, offsetMinutesAt, sameDate, type Wall, wallAt } from './zone.js';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const nameFormatters = new Map<string, Intl.DateTimeFormat>();
const GMT_STYLE = /^(GMT|UTC)[+-−]/;

function shortName(locale: string, timeZone: string, ms: number): string {
  const key = `${locale}|${timeZone}`;
  let f = nameFormatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'short' });
    nameFormatters.set(key, f);
  }
  return f.formatToParts(ms).find((p) => p.type === 'timeZoneName')?.value ?? '';
}

/**
 * Zone abbreviation at an instant: Intl's short name in en-US, then en-GB, then en-IN (which know
 * EST/CET/IST respectively); when all three only give "GMT+5:30"-style names, the numeric offset
 * "UTC+05:30" is used instead, which is never ambiguous.
 */
export function zoneAbbreviation(timeZone: string, ms: number): string {
  for (const locale of ['en-US', 'en-GB', 'en-IN']) {
    const name = shortName(locale, timeZone, ms);
    if (name && !GMT_STYLE.test(name)) return name;
  }
  return formatOffset(offsetMinutesAt(timeZone, ms));
}

function formatOffset(min: number): string {
  if (min === 0) return 'UTC';
  const abs = Math.abs(min);
  return `UTC${min < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

interface Point {
  wall: Wall;
  offsetMin: number;
  fraction: string; // nanoseconds within the second, 9 digits
  abbr: string;
}

function point(ns: bigint, timeZone: string): Point {
  const ms = nsToMsFloor(ns);
  const wall = wallAt(timeZone, ms);
  const fracNs = BigInt(wall.millisecond) * 1_000_000n + nsSubMs(ns);
  return {
    wall,
    offsetMin: offsetMinutesAt(timeZone, ms),
    fraction: fracNs.toString().padStart(9, '0'),
    abbr: zoneAbbreviation(timeZone, ms),
  };
}

function dayLabel(w: Wall, withYear: boolean): string {
  const base = `${WEEKDAYS[isoWeekday(w) - 1]} ${w.day} ${MONTHS[w.month - 1]}`;
  return withYear ? `${base} ${w.year}` : base;
}

/** Digits of the fraction to show: none when zero, else up to the last non-zero digit. */
function precisionOf(points: Point[]): { seconds: boolean; digits: number } {
  let digits = 0;
  let seconds = false;
  for (const p of points) {
    const trimmed = p.fraction.replace(/0+$/, '');
    digits = Math.max(digits, trimmed.length);
    if (p.wall.second !== 0 || trimmed.length > 0) seconds = true;
  }
  return { seconds, digits };
}

function clock(p: Point, prec: { seconds: boolean; digits: number }): string {
  let s = `${pad(p.wall.hour)}:${pad(p.wall.minute)}`;
  if (prec.seconds) s += `:${pad(p.wall.second)}`;
  if (prec.digits > 0) s += `.${p.fraction.slice(0, prec.digits)}`;
  return s;
}

export interface EchoOptions {
  /**
   * When the echo is read: a range that is not in that year (in the user's zone) shows its year.
   * Default: the current time.
   */
  now?: Date | bigint;
}

function currentYear(timeZone: string, now: Date | bigint | undefined): number {
  const ns = typeof now === 'bigint' ? now : msToNs(now instanceof Date ? now.getTime() : Date.now());
  return wallAt(timeZone, nsToMsFloor(ns)).year;
}

/** Years are shown when the ends are in different years, or not in the current one. */
function yearsShown(s: Point, e: Point, year: number): boolean {
  return s.wall.year !== e.wall.year || s.wall.year !== year;
}

function localPart(s: Point, e: Point, prec: { seconds: boolean; digits: number }, year: number): string {
  const withYear = yearsShown(s, e, year);
  const sameDay = sameDate(s.wall, e.wall);
  const startAbbr = s.abbr !== e.abbr ? ` ${s.abbr}` : '';
  const endDay = sameDay ? '' : `${dayLabel(e.wall, withYear)} `;
  return `${dayLabel(s.wall, withYear)} ${clock(s, prec)}${startAbbr} – ${endDay}${clock(e, prec)} ${e.abbr}`;
}

/**
 * Human echo of a range in the user's zone plus UTC, e.g. "Fri 21 Nov 09:00 – 17:00 IST (03:30–11:30 UTC)".
 * The second date is left out when both ends fall on the same day; the year appears when the range is not
 * in the current year or spans two; seconds and fractions appear only when either end has them; a range
 * across a DST change names the zone at each end. How a named part of the text was read (the range's
 * note) follows in brackets: "… (03:00–11:00 UTC) [night = 22:00–06:00]".
 */
export function describeRange(r: TimeRange, timeZone: string, options: EchoOptions = {}): string {
  const text = describeInstants(r, timeZone, currentYear(timeZone, options.now));
  return r.note ? `${text} [${r.note}]` : text;
}

function describeInstants(r: TimeRange, timeZone: string, year: number): string {
  const s = point(r.startNs, timeZone);
  const e = point(r.endNs, timeZone);
  const prec = precisionOf([s, e]);
  const local = localPart(s, e, prec, year);
  if (s.offsetMin === 0 && e.offsetMin === 0) return local;
  const us = point(r.startNs, 'UTC');
  const ue = point(r.endNs, 'UTC');
  const withYear = yearsShown(us, ue, year);
  const startDay = sameDate(us.wall, s.wall) ? '' : `${dayLabel(us.wall, withYear)} `;
  const sameUtcDay = sameDate(us.wall, ue.wall);
  const utc = sameUtcDay
    ? `${startDay}${clock(us, prec)}–${clock(ue, prec)}`
    : `${dayLabel(us.wall, withYear)} ${clock(us, prec)} – ${dayLabel(ue.wall, withYear)} ${clock(ue, prec)}`;
  return `${local} (${utc} UTC)`;
}

/** One instant, with its year, for error messages: "Sun 1 Nov 2026 22:30 EST (03:30 UTC)". */
export function describeInstant(ns: bigint, timeZone: string): string {
  const p = point(ns, timeZone);
  const prec = precisionOf([p]);
  const local = `${dayLabel(p.wall, true)} ${clock(p, prec)} ${p.abbr}`;
  if (p.offsetMin === 0) return local;
  return `${local} (${clock(point(ns, 'UTC'), prec)} UTC)`;
}
