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
