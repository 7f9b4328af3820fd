// Whole phrases that say a range in other words: "today so far", "so far this shift", "week to date",
// "MTD", "YTD"; and spans of months, "from March to June", "since March". Each is given back as the
// phrase the grammar reads, or read here.
import { monthAbbr, plusMonths, type YMD } from './calendar.js';
import { type Ctx, wallNs } from './context.js';
import { monthOfWord } from './grammar.js';
import type { TimeRange } from './types.js';

const TO_DATE: Record<string, string> = {
  wtd: 'this week',
  mtd: 'this month',
  ytd: 'this year',
  week: 'this week',
  month: 'this month',
  year: 'this year',
};

/** "week to date", "WTD", "the month to date", "year-to-date": the current one, which ends now. */
export function toDate(t: string): string | undefined {
  const m = /^(?:the\s+)?(week|month|year)[\s-]+to[\s-]+date$|^(wtd|mtd|ytd)$/i.exec(t);
  return m ? TO_DATE[(m[1] ?? m[2])!.toLowerCase()] : undefined;
}

/** "today so far", "so far this week", "this shift so far": the phrase without "so far". */
export function soFar(t: string): string | undefined {
  const m = /^(.+?),?\s+so\s+far$|^so\s+far,?\s+(.+)$/i.exec(t);
  return m ? (m[1] ?? m[2]) : undefined;
}

const SPAN =
  /^(?:from\s+|between\s+)?([a-z]+)\.?(?:\s+(\d{4}))?\s*(?:\s(?:to|until|till|through|thru|and)\s|-|–|—|\.\.)\s*([a-z]+)\.?(?:\s+(\d{4}))?$/i;
const SINCE = /^(?:ever\s+)?since\s+([a-z]+)\.?$/i;

/** The most recent year in which `month` has begun (this one included). */
const recentYear = (today: YMD, month: number) => (month <= today.month ? today.year : today.year - 1);

/**
 * "from March to June", "Mar-Jun", "March to June 2025": from the 1st of the first month to the end of the
 * last, whole months, the last cut to now while it is going on. A month without a year is the most recent
 * one that has begun, or the one next to the other end's; "since March" is from the 1st of the most recent
 * March that has begun. Undefined when `t` is not such a phrase (a month with its year alone is the
 * grammar's, and so is a bare month, which it refuses).
 */
export function monthSpan(c: Ctx, t: string): TimeRange | undefined {
  const since = SINCE.exec(t);
  if (since) {
    const m = monthOfWord(since[1]!.toLowerCase());
    if (m === undefined) return undefined;
    const first = { year: recentYear(c.today, m), month: m, day: 1 };
    return withYear(c, { startNs: wallNs(c, first), endNs: c.nowNs }, first, t);
  }
  const s = SPAN.exec(t);
  if (!s) return undefined;
  const [from, to] = [monthOfWord(s[1]!.toLowerCase()), monthOfWord(s[3]!.toLowerCase())];
  if (from === undefined || to === undefined || (s[2] && s[4])) return undefined;
  if (/^between/i.test(t) !== /\sand\s/i.test(t)) return undefined;
  let startYear: number;
  let endYear: number;
  if (s[4]) {
    endYear = Number(s[4]);
    startYear = from <= to ? endYear : endYear - 1;
  } else {
    startYear = s[2] ? Number(s[2]) : recentYear(c.today, from);
    endYear = to >= from ? startYear : startYear + 1;
  }
  const first = { year: startYear, month: from, day: 1 };
  const after = plusMonths({ year: endYear, month: to, day: 1 }, 1);
  const end = wallNs(c, after);
  const start = wallNs(c, first);
  const lastBegins = wallNs(c, { year: endYear, month: to, day: 1 });
  const cut = lastBegins <= c.nowNs && c.nowNs < end ? c.nowNs : end;
  return withYear(c, { startNs: start, endNs: cut }, first, t, { year: endYear, month: to, day: 1 });
}

/** The echo says which year a month without one was taken in, when it is not the current year. */
function withYear(c: Ctx, r: TimeRange, first: YMD, t: string, last?: YMD): TimeRange {
  if (first.year === c.today.year && (!last || last.year === c.today.year)) return r;
  const span = `${monthAbbr(first.month)} ${first.year}${last ? ` – ${monthAbbr(last.month)} ${last.year}` : ''}`;
  return { ...r, note: `${t} = ${span}` };
}
