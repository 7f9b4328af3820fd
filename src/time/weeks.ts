// Week numbers: "W12", "week 12", "wk 12", "KW 12", "CW 12", with a year ("W12 2026", "week 12 of 2026",
// "KW 12/2026") or in ISO 8601's own form ("2026-W12", "2026W12", and a day of it, "2026-W12-3"). Weeks are
// ISO weeks (Monday to Monday, week 1 holds 4 January), from 00:00 in the person's zone. A week without a
// year is the most recent one of that number that has begun, as a date without a year is.
import { isoWeekMonday, isoWeekOf, isoWeeksIn, plusDays, type YMD } from './calendar.js';
import type { Ctx } from './context.js';
import { type Endpoint, type EndpointHit, type EP, refuse, span } from './endpoint.js';
import { isWord, type R, type Tok, textOf } from './tokens.js';

const WORDS = ['week', 'wk', 'kw', 'cw'];

function weekNumber(t: Tok[], i: number): number | undefined {
  const x = t[i];
  return x?.num && x.s.length <= 2 ? Number(x.s) : undefined;
}

/** "2026", ", 2026", "of 2026", "/2026", "-2026" after a week number: its year. */
function yearAfter(t: Tok[], i: number): R<number> {
  const out: R<number> = [];
  const at = (j: number) => (t[j]?.num && t[j]!.s.length === 4 ? Number(t[j]!.s) : undefined);
  const y = at(i);
  if (y !== undefined) out.push([y, i + 1]);
  if (isWord(t, i, ',', 'of', '/', '-')) {
    const y2 = at(i + 1);
    if (y2 !== undefined) out.push([y2, i + 2]);
  }
  return out;
}

function week(n: number, year: number | undefined, text: string): EndpointHit {
  if (n < 1 || n > 53 || (year !== undefined && n > isoWeeksIn(year))) {
    const most = year === undefined ? 'weeks are numbered 1 to 53' : `${year} has ${isoWeeksIn(year)} weeks`;
    return refuse(`“${text}” is not a week: ${most}.`, ['last week']);
  }
  if (year === undefined) return { ep: { k: 'isoWeek', week: n, text } };
  const monday = isoWeekMonday(year, n);
  return span(monday, plusDays(monday, 7));
}

/** Every reading of `t[i..]` as a week number, with or without its year, or a day of an ISO week. */
export function weekAt(t: Tok[], i: number): R<EndpointHit> {
  const out: R<EndpointHit> = [];
  // ISO 8601: 2026-W12, 2026W12, 2026-W12-3.
  const y = t[i];
  if (y?.num && y.s.length === 4) {
    const dash = t[i + 1]?.s === '-' && t[i + 1]!.glued;
    const w = i + (dash ? 2 : 1);
    const n = weekNumber(t, w + 1);
    if (t[w]?.s === 'w' && t[w]!.glued && n !== undefined && t[w + 1]!.glued) {
      out.push([week(n, Number(y.s), textOf(t, i, w + 2)), w + 2]);
      const d = t[w + 3];
      if (dash && t[w + 2]?.s === '-' && t[w + 2]!.glued && d?.num && d.glued && /^[1-7]$/.test(d.s)) {
        const whole = week(n, Number(y.s), textOf(t, i, w + 4));
        if ('ep' in whole && whole.ep.k === 'span') {
          const date = plusDays(whole.ep.from, Number(d.s) - 1);
          out.push([{ ep: { k: 'day', day: { k: 'date', date }, notes: [] } }, w + 4]);
        } else out.push([whole, w + 4]);
      }
    }
    return out;
  }
  // W12, KW12, week 12, calendar week 12; then maybe a year.
  let j = i;
  if (isWord(t, j, 'calendar') && isWord(t, j + 1, 'week')) j++;
  if (!isWord(t, j, 'w', ...WORDS)) return out;
  const n = weekNumber(t, j + 1);
  if (n === undefined || (t[j]!.s === 'w' && !t[j + 1]!.glued)) return out;
  out.push([week(n, undefined, textOf(t, i, j + 2)), j + 2]);
  for (const [year, e] of yearAfter(t, j + 2)) out.push([week(n, year, textOf(t, i, e)), e]);
  return out;
}

// ------------------------------------------------------------------------------------------- years

type IsoWeek = Extract<Endpoint, { k: 'isoWeek' }>;
type Span = Extract<Endpoint, { k: 'span' }>;

/** The most recent ISO week numbered `n` that has begun (this week included). */
function recentYear(today: YMD, n: number): number {
  const { year } = isoWeekOf(today);
  for (let y = year; y > year - 8; y--) {
    if (n <= isoWeeksIn(y) && !after(isoWeekMonday(y, n), today)) return y;
  }
  return year - 8;
}

const after = (a: YMD, b: YMD) =>
  a.year !== b.year ? a.year > b.year : a.month !== b.month ? a.month > b.month : a.day > b.day;

function spanOf(w: IsoWeek, year: number, today: YMD): Span {
  const monday = isoWeekMonday(year, Math.min(w.week, isoWeeksIn(year)));
  const settled = isoWeekOf(today).year === year ? [] : [`${w.text} = week ${w.week} of ${year}`];
  return { k: 'span', from: monday, to: plusDays(monday, 7), notes: settled };
}

/**
 * Weeks without a year made spans: on its own, the most recent one of its number that has begun; as one
 * end of a range, the one on the same side of the other end ("W50 to W2" crosses the new year).
 */
export function settleWeeks(c: Ctx, S: EP, E?: EP): [EP, EP | undefined] {
  const today = c.today;
  if (S.k === 'isoWeek') {
    const sy = recentYear(today, S.week);
    if (E?.k === 'isoWeek') return [spanOf(S, sy, today), spanOf(E, E.week >= S.week ? sy : sy + 1, today)];
    if (E?.k === 'span') {
      const end = isoWeekOf(E.from);
      return [spanOf(S, S.week <= end.week ? end.year : end.year - 1, today), E];
    }
    return [spanOf(S, sy, today), E];
  }
  if (E?.k !== 'isoWeek') return [S, E];
  if (S.k === 'span') {
    const start = isoWeekOf(S.from);
    return [S, spanOf(E, E.week >= start.week ? start.year : start.year + 1, today)];
  }
  return [S, spanOf(E, recentYear(today, E.week), today)];
}
