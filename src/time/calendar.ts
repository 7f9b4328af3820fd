// Calendar arithmetic on dates without a zone.
import { addDays, addMonths, isoWeekday, type Wall } from './zone.js';

export interface YMD {
  year: number;
  month: number;
  day: number;
}

export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
export const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

export function daysIn(month: number, year?: number): number {
  if (month === 2) return year === undefined || isLeap(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

export function monthAbbr(month: number): string {
  return MONTH_NAMES[month - 1]!.slice(0, 3);
}

export function fmtDate(d: YMD): string {
  return `${d.day} ${monthAbbr(d.month)} ${d.year}`;
}

export function isoDate(d: YMD): string {
  return `${String(d.year).padStart(4, '0')}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
}

const toWall = (d: YMD): Wall => ({ ...d, hour: 0, minute: 0, second: 0, millisecond: 0 });
const ymd = (w: Wall): YMD => ({ year: w.year, month: w.month, day: w.day });
export const plusDays = (d: YMD, n: number): YMD => ymd(addDays(toWall(d), n));
export const plusMonths = (d: YMD, n: number): YMD => ymd(addMonths(toWall(d), n));
export const weekdayOf = (d: YMD): number => isoWeekday(toWall(d));

function dayCount(d: YMD): number {
  const t = new Date(0);
  t.setUTCFullYear(d.year, d.month - 1, d.day);
  return t.getTime();
}

/** The Monday of ISO week 1 of `year`: the week that holds 4 January. */
export function isoWeekOne(year: number): YMD {
  const jan4 = { year, month: 1, day: 4 };
  return plusDays(jan4, 1 - weekdayOf(jan4));
}

/** How many ISO weeks `year` has: 53 when it starts on a Thursday, or is a leap year starting on a Wednesday. */
export function isoWeeksIn(year: number): number {
  const jan1 = weekdayOf({ year, month: 1, day: 1 });
  return jan1 === 4 || (jan1 === 3 && isLeap(year)) ? 53 : 52;
}

/** The Monday of ISO week `week` of `year`. */
export const isoWeekMonday = (year: number, week: number): YMD => plusDays(isoWeekOne(year), 7 * (week - 1));

/** The ISO week-numbering year and week of a date. */
export function isoWeekOf(d: YMD): { year: number; week: number } {
  const thursday = plusDays(d, 4 - weekdayOf(d));
  const one = isoWeekOne(thursday.year);
  const days = Math.round((dayCount(thursday) - dayCount(one)) / 86_400_000);
  return { year: thursday.year, week: Math.floor(days / 7) + 1 };
}
