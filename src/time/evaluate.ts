// The meaning of the ends of a range, as instants: where each end lies, which day a floating one is on, and
// how two ends make a range. The words were read by the grammar; nothing here looks at text.
import { monthAbbr, plusDays, WEEKDAY_NAMES, weekdayOf, type YMD } from './calendar.js';
import { before, clockWords, hhmm, onDial, type SpanPick, spanReadings, withTime } from './clock-spans.js';
import { type Ctx, instantMs, MIN_NS, OUT_OF_REACH, ParseProblem, wallNs } from './context.js';
import { describeInstant, zoneAbbreviation } from './describe.js';
import { type AgoDay, type Clock, type DayRef, type EP, PARTS, type Unit, type Zone } from './endpoint.js';
import { msToNs, nsSubMs, nsToMsFloor } from './exact.js';
import { offsetSpan } from './offsets.js';
import { type ShiftSpan, shiftNote } from './shifts.js';
import type { TimeRange } from './types.js';
import { settleWeeks } from './weeks.js';
import { addDays, addMonths, wallAt } from './zone.js';

// ------------------------------------------------------------------------------------------ endpoints

export type { EP };

interface Interval {
  start: bigint;
  end: bigint;
  /** A stretch of time (a day, a week), whose end is cut to now while it is still going on. */
  period: boolean;
}

function checkWeekday(ep: EP, date: YMD): void {
  if ((ep.k === 'day' || ep.k === 'point') && ep.wd && weekdayOf(date) !== ep.wd) {
    const spelled = `${date.day} ${monthAbbr(date.month)} ${date.year}`;
    throw new ParseProblem(
      `${spelled} is a ${WEEKDAY_NAMES[weekdayOf(date) - 1]}, not a ${WEEKDAY_NAMES[ep.wd - 1]}.`,
      [spelled],
    );
  }
}

/** A wall-clock time on `date` in the zone written in the text, else in the user's. */
function zonedNs(c: Ctx, date: YMD, k: Clock, zone = k.zone): bigint {
  if (zone && 'offsetMin' in zone) {
    const d = new Date(0);
    d.setUTCFullYear(date.year, date.month - 1, date.day);
    d.setUTCHours(k.hour, k.minute, k.second, k.millisecond);
    const ms = d.getTime() - zone.offsetMin * 60_000;
    if (!Number.isFinite(ms)) throw new ParseProblem(OUT_OF_REACH);
    return msToNs(ms) + k.subNs;
  }
  const ns = wallNs(c, date, k.hour, k.minute, k.second, k.millisecond, k.subNs);
  if (zone && 'ambiguous' in zone) {
    const own = zoneAbbreviation(c.tz, nsToMsFloor(ns));
    if (own.toUpperCase() !== zone.ambiguous) {
      throw new ParseProblem(
        `“${zone.ambiguous}” is the name of more than one time zone, and not what your zone (${c.tz}) is called then (${own}): write the UTC offset instead, like “9:00 +05:30”, or leave the zone out to use yours.`,
        ['yesterday 9:00 +05:30 to 17:00 +05:30'],
      );
    }
  }
  return ns;
}

/** The start of an hour of `date` (24 and later are on the days after), in `zone` if one is written. */
function hourNs(c: Ctx, date: YMD, hour: number, zone: Zone | undefined): bigint {
  if (!zone) return wallNs(c, date, hour);
  const day = plusDays(date, Math.floor(hour / 24));
  return zonedNs(c, day, { hour: hour % 24, minute: 0, second: 0, millisecond: 0, subNs: 0n }, zone);
}

const SECONDS = { s: 1n, m: 60n, h: 3600n } as const;

/** A wall-clock minute of `date` in the user's zone (1440 and later are on the days after). */
function minuteNs(c: Ctx, date: YMD, minute: number): bigint {
  return wallNs(c, plusDays(date, Math.floor(minute / 1440)), Math.floor((minute % 1440) / 60), minute % 60);
}

/** The shifts that start from `days` days before today to today, in time order. */
function recentShifts(
  c: Ctx,
  only?: ShiftSpan,
  days = 3,
): { span: ShiftSpan; day: YMD; start: bigint; end: bigint }[] {
  const out: { span: ShiftSpan; day: YMD; start: bigint; end: bigint }[] = [];
  for (let back = days; back >= 0; back--) {
    const day = plusDays(c.today, -back);
    for (const span of c.g.shifts ?? []) {
      if (only && span.start !== only.start) continue;
      out.push({ span, day, start: minuteNs(c, day, span.from), end: minuteNs(c, day, span.to) });
    }
  }
  return out;
}

/**
 * "this shift": the one going on now; "last shift": the most recent one that is over. With a name ("last
 * night shift"), the most recent one of that name that is over; read as "last night's shift" it would be
 * the one that started yesterday, so when that one is still going on the phrase is refused with both.
 */
function currentShift(c: Ctx, ep: Extract<EP, { k: 'shift' }>): { start: bigint; end: bigint } {
  if (ep.count !== undefined) {
    const perDay = c.g.shifts?.length ?? 1;
    const over = recentShifts(c, undefined, Math.ceil(ep.count / perDay) + 2).filter((s) => s.end <= c.nowNs);
    const first = over[over.length - ep.count]!;
    return { start: first.start, end: over.at(-1)!.end };
  }
  const all = recentShifts(c, ep.span);
  const found =
    ep.which === 'this'
      ? all.find((s) => s.start <= c.nowNs && c.nowNs < s.end)
      : all.filter((s) => s.end <= c.nowNs).at(-1);
  if (!found)
    throw new ParseProblem('No shift of that name has ended in the last three days.', ['last shift']);
  if (ep.which === 'this') ep.notes.splice(0, ep.notes.length, shiftNote(found.span));
  else if (!ep.span) ep.notes.splice(0, ep.notes.length, shiftNote(found.span));
  if (ep.span?.name === 'night' && ep.saidLast) {
    const yesterday = plusDays(c.today, -1);
    const lastNight = all.find((s) => sameDay(s.day, yesterday));
    if (lastNight && lastNight.end > c.nowNs) {
      throw new ParseProblem(
        `“last night shift” could be the night shift going on now (it started last night, ${describeInstant(lastNight.start, c.tz)}) or the last one that is over (from ${describeInstant(found.start, c.tz)}): write “this shift” for the one going on, or “the night shift on ${fmtDay(found.day)}” for the one that is over.`,
        ['this shift', `the night shift on ${fmtDay(found.day)}`],
        ['this shift', `the night shift on ${fmtDay(found.day)}`],
      );
    }
  }
  return found;
}

const fmtDay = (d: YMD): string => `${d.day} ${monthAbbr(d.month)} ${d.year}`;

/** Where `ep` starts and ends when its day is `date` (ignored by endpoints that carry their own). */
function interval(c: Ctx, ep: EP, date: YMD): Interval {
  switch (ep.k) {
    case 'now':
      return { start: c.nowNs, end: c.nowNs, period: false };
    case 'offset':
      return offsetSpan(c, ep.steps, ep.round);
    case 'isoWeek':
      return interval(c, settleWeeks(c, ep)[0], date);
    case 'edge':
      return edgeInterval(c, ep, date);
    case 'ago': {
      const ns = c.nowNs - BigInt(ep.n) * SECONDS[ep.unit] * 1_000_000_000n;
      return { start: ns, end: ns, period: false };
    }
    case 'shift': {
      const s = currentShift(c, ep);
      return { start: s.start, end: s.end, period: true };
    }
    case 'instant':
      return { start: ep.ns, end: ep.ns, period: false };
    case 'span':
      return { start: hourNs(c, ep.from, 0, ep.zone), end: hourNs(c, ep.to, 0, ep.zone), period: true };
    case 'day': {
      checkWeekday(ep, date);
      if (ep.shift) {
        return { start: minuteNs(c, date, ep.shift.from), end: minuteNs(c, date, ep.shift.to), period: true };
      }
      const p = ep.part ? PARTS[ep.part] : { from: 0, to: 24 };
      return { start: hourNs(c, date, p.from, ep.zone), end: hourNs(c, date, p.to, ep.zone), period: true };
    }
    case 'point': {
      checkWeekday(ep, date);
      const ns = zonedNs(c, date, ep.clock);
      return { start: ns, end: ns, period: false };
    }
    case 'dayOnly': // its month came from the other end
      return { start: wallNs(c, date), end: wallNs(c, plusDays(date, 1)), period: true };
  }
}

/** The start or end of a stretch of time, or one of its days (a day is a stretch of its own). */
function edgeInterval(c: Ctx, ep: Extract<EP, { k: 'edge' }>, date: YMD): Interval {
  const iv = interval(c, ep.of, date);
  if (ep.which === 'start' || ep.which === 'end') {
    const at = ep.which === 'start' ? iv.start : iv.end;
    return { start: at, end: at, period: false };
  }
  const first = localDate(c, iv.start);
  const day =
    ep.which === 'firstDay'
      ? first
      : ep.which === 'lastDay'
        ? localDate(c, iv.end - 1n)
        : plusDays(first, (ep.n ?? 1) - 1);
  const start = wallNs(c, day);
  if (start >= iv.end) {
    const days = Math.round(Number(iv.end - iv.start) / 86_400_000_000_000);
    throw new ParseProblem(`There is no day ${ep.n} in that stretch of time: it has ${days} days.`, [
      'the 1st of last month',
    ]);
  }
  return { start, end: wallNs(c, plusDays(day, 1)), period: true };
}

function bareDayNumber(ep: EP): void {
  if (ep.k === 'dayOnly') {
    throw new ParseProblem(`“${ep.day}” on its own is not a date: give its month, like “Nov ${ep.day}”.`, [
      `Nov ${Math.min(ep.day, 30)}`,
    ]);
  }
}

/** The end as a range uses it: a day or period still going on ends now. */
function endOf(c: Ctx, iv: Interval): bigint {
  return iv.period && iv.start <= c.nowNs && c.nowNs < iv.end ? c.nowNs : iv.end;
}

/** An end that names its own year (a date or an exact instant), rather than a day counted from now. */
function explicit(ep: EP): boolean {
  return ep.k === 'instant' || ((ep.k === 'day' || ep.k === 'point') && ep.day.k === 'date' && !ep.day.rel);
}

function refOf(ep: EP): DayRef | undefined {
  if (ep.k === 'edge') return refOf(ep.of);
  if (ep.k === 'day' || ep.k === 'point') return ep.day;
  if (ep.k === 'dayOnly') return { k: 'dayOnly', day: ep.day };
  return undefined;
}

type Kind = 'fixed' | 'weekly' | 'yearly';

function kindOf(ref: DayRef | undefined): Kind {
  if (ref?.k === 'weekday') return 'weekly';
  if (ref?.k === 'monthDay') return 'yearly';
  return 'fixed';
}

function fixedDate(c: Ctx, ref: DayRef | undefined): YMD {
  return ref?.k === 'date' ? ref.date : c.today;
}

const isValidDay = (y: number, m: number, d: number) => {
  const probe = new Date(0);
  probe.setUTCFullYear(y, m - 1, d);
  return probe.getUTCDate() === d;
};

/** Dates of a floating day, going back from `from` (inclusive), most recent first. */
function* backFrom(ref: DayRef, from: YMD): Generator<YMD> {
  if (ref.k === 'weekday') {
    const first = plusDays(from, -((weekdayOf(from) - ref.wd + 7) % 7));
    for (let k = 0; k < 6; k++) yield plusDays(first, -7 * k);
  } else if (ref.k === 'monthDay') {
    const before = ref.month < from.month || (ref.month === from.month && ref.day <= from.day);
    for (let y = before ? from.year : from.year - 1, n = 0; n < 9; y--, n++) {
      if (isValidDay(y, ref.month, ref.day)) yield { year: y, month: ref.month, day: ref.day };
    }
  }
}

/** Dates of a weekday, going forward from `from` (inclusive), soonest first. */
function* forwardFrom(ref: DayRef, from: YMD): Generator<YMD> {
  if (ref.k !== 'weekday') return;
  const first = plusDays(from, (ref.wd - weekdayOf(from) + 7) % 7);
  for (let k = 0; k < 6; k++) yield plusDays(first, 7 * k);
}

const HALF_YEAR_DAYS = 183;

function dayNumber(d: YMD): number {
  const t = new Date(0);
  t.setUTCFullYear(d.year, d.month - 1, d.day);
  return t.getTime() / 86_400_000;
}

/**
 * A date without a year beside a date that has one: in the same year, or across new year when that
 * is under half a year away ("Dec 30 to Jan 2"). "Nov 3 to Nov 1" is therefore reversed, not a year long.
 */
function yearNear(ref: Extract<DayRef, { k: 'monthDay' }>, anchor: YMD, dir: 1 | -1): YMD[] {
  const out: YMD[] = [];
  for (const year of [anchor.year, anchor.year + dir]) {
    const d = { year, month: ref.month, day: ref.day };
    if (!isValidDay(year, ref.month, ref.day)) continue;
    if (year !== anchor.year && Math.abs(dayNumber(d) - dayNumber(anchor)) >= HALF_YEAR_DAYS) continue;
    out.push(d);
  }
  if (out.length === 0) {
    throw new ParseProblem(`${monthAbbr(ref.month)} ${ref.day} is not a date in ${anchor.year}.`, [
      `${monthAbbr(ref.month)} 28`,
    ]);
  }
  return out;
}

function localDate(c: Ctx, ns: bigint): YMD {
  const w = wallAt(c.tz, nsToMsFloor(ns));
  return { year: w.year, month: w.month, day: w.day };
}

/** The first candidate that fits, else the first one (whose problem the checks then report). */
function firstFit<T>(dates: Iterable<YMD>, make: (d: YMD) => T, ok: (x: T) => boolean): T {
  let head: T | undefined;
  for (const d of dates) {
    const x = make(d);
    head ??= x;
    if (ok(x)) return x;
  }
  return head!;
}

const sameDay = (a: YMD, b: YMD) => a.year === b.year && a.month === b.month && a.day === b.day;

/** A date without a year is in the most recent year in which that day has come (today included). */
function recentDate(c: Ctx, ref: DayRef): YMD {
  const date = backFrom(ref, c.today).next().value;
  if (date) return date;
  // Only a bare day number that takes its month from the other end ("32-1 Sept") gets here unchecked.
  const [month, day] = ref.k === 'monthDay' ? [ref.month, ref.day] : [1, 0];
  throw new ParseProblem(`${monthAbbr(month)} ${day} is not a date.`, [`${monthAbbr(month)} 1`]);
}

/**
 * Where a floating start lands: a weekday is the most recent one that has begun (so "since Monday 8am"
 * early on a Monday is last week's), a date without a year the most recent one that has come.
 */
function startDate(c: Ctx, ep: EP, ref: DayRef): YMD {
  if (ref.k === 'monthDay') return recentDate(c, ref);
  const dates = [...backFrom(ref, c.today)];
  return dates.find((d) => interval(c, ep, d).start <= c.nowNs) ?? dates[0]!;
}

function yearNote(c: Ctx, ref: DayRef | undefined, date: YMD): string[] {
  if (ref?.k !== 'monthDay' || date.year === c.today.year) return [];
  return [`${monthAbbr(ref.month)} ${ref.day} = ${date.day} ${monthAbbr(date.month)} ${date.year}`];
}

function notesOf(...eps: EP[]): string[] {
  return eps.flatMap((ep): string[] =>
    ep.k === 'edge'
      ? notesOf(ep.of)
      : ep.k === 'day' || ep.k === 'point' || ep.k === 'span' || ep.k === 'shift'
        ? ep.notes
        : [],
  );
}

function withNotes(r: { startNs: bigint; endNs: bigint }, notes: string[]): TimeRange {
  const unique = [...new Set(notes)];
  return unique.length > 0 ? { ...r, note: unique.join('; ') } : r;
}

/** The date of the end that takes its day (or month) from the start, or the other way round. */
function derived(ep: EP, driver: YMD, role: 'start' | 'end'): YMD {
  const ref = refOf(ep);
  if (ref?.k === 'dayOnly') {
    if (!isValidDay(driver.year, driver.month, ref.day)) {
      throw new ParseProblem(`${monthAbbr(driver.month)} ${ref.day} is not a date.`, [
        `${monthAbbr(driver.month)} 1`,
      ]);
    }
    return { year: driver.year, month: driver.month, day: ref.day };
  }
  // "9pm to midnight": the first midnight after the start.
  if (role === 'end' && ep.k === 'point' && ep.clock.midnight) return plusDays(driver, 1);
  return driver;
}

function zoneOf(ep: EP): Zone | undefined {
  if (ep.k === 'point') return ep.clock.zone;
  return ep.k === 'instant' || ep.k === 'day' || ep.k === 'span' ? ep.zone : undefined;
}

function withZone(ep: EP, zone: Zone): EP {
  if (ep.k === 'point') return { ...ep, clock: { ...ep.clock, zone } };
  return ep.k === 'day' || ep.k === 'span' ? { ...ep, zone } : ep;
}

/**
 * A zone written once is the whole range's: people write it after the end ("9am to 5pm PST") and mean
 * both ends. When each end names its own, each keeps it.
 */
function shareZone(S: EP, E: EP): [EP, EP] {
  const [s, e] = [zoneOf(S), zoneOf(E)];
  if (e && !s) return [withZone(S, e), E];
  if (s && !e) return [S, withZone(E, s)];
  return [S, E];
}

const sameZone = (a: Zone | undefined, b: Zone | undefined): boolean =>
  a === b || (a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b));

/** `text` with the last place it says `said` put in other words (a reading of a clock time, say). */
function reworded(text: string, said: string | undefined, words: string): string {
  const at = said ? text.toLowerCase().lastIndexOf(said.toLowerCase()) : -1;
  return at < 0 ? text : `${text.slice(0, at)}${words}${text.slice(at + said!.length)}`;
}

/**
 * Two readings of one span of clock times, each written so that it reads as typed: "“yesterday 8:30 to
 * 4:30” could be 08:30–16:30 or 20:30–04:30: write …".
 */
export function spanProblem(said: string, picks: SpanPick[], phrase: (p: SpanPick) => string): ParseProblem {
  const readings = picks.map(phrase);
  const spans = picks.map((p) => `${hhmm(p.start)}–${hhmm(p.end)}`);
  return new ParseProblem(
    `“${said}” could be ${spans.join(' or ')}: write ${readings.map((r) => `“${r}”`).join(' or ')}.`,
    readings,
    readings,
  );
}

/**
 * "yesterday 10pm to 6am": an end that is a clock time with no day of its own, before the start's clock
 * time, is the first time that clock time comes after the start; times that could be either half of the
 * day are read as spanReadings says, or refused with each reading. Ends in different zones are left as
 * they are (their order is the instants'), and so is a range whose start names no day either ("10pm to
 * 6am" has two nights to choose from, and is refused with both).
 */
function overnight(S: EP, E: EP, texts: [string, string]): [EP, EP] {
  if (S.k !== 'point' || E.k !== 'point' || E.day.k !== 'none' || E.clock.midnight) return [S, E];
  if (!sameZone(S.clock.zone, E.clock.zone) || !before(E.clock, S.clock)) return [S, E];
  const said = `${texts[0]} to ${texts[1]}`;
  if (S.day.k === 'none') {
    const last = `yesterday ${texts[0]} to ${texts[1]}`;
    const coming = `today ${texts[0]} to ${texts[1]}`;
    throw new ParseProblem(
      `“${said}” runs past midnight and names no day: write “${last}” for the night that began yesterday, or “${coming}” for tonight.`,
      [last, coming],
      [last, coming],
    );
  }
  const picks = spanReadings(S.clock, E.clock);
  if (picks.length === 0) return [S, E];
  if (picks.length > 1) {
    throw spanProblem(
      said,
      picks,
      (p) =>
        `${reworded(texts[0], S.clock.text, clockWords(p.start, 'start'))} to ${reworded(texts[1], E.clock.text, clockWords(p.end, 'end'))}`,
    );
  }
  const p = picks[0]!;
  const halves = onDial(S.clock, E.clock)
    ? [`${S.clock.text} to ${E.clock.text} = ${hhmm(p.start)}–${hhmm(p.end)}`]
    : [];
  return [
    { ...S, clock: withTime(S.clock, p.start), notes: [...S.notes, ...halves] },
    { ...E, clock: withTime(E.clock, p.end) },
  ];
}

/** A range from two endpoints: days and months carried over, floating days settled, notes kept. */
export function combine(c: Ctx, first: EP, last: EP, texts: [string, string]): TimeRange {
  const [start, end] = settleWeeks(c, first, last) as [EP, EP];
  const startAgo = dayAgo(start);
  if (startAgo && momentary(end)) dayOrInstantAgo(c, startAgo, texts[1]);
  const [S, E] = overnight(...shareZone(start, end), texts);
  const sRef = refOf(S);
  const eRef = refOf(E);
  const owns = (r: DayRef | undefined) => r !== undefined && r.k !== 'none' && r.k !== 'dayOnly';
  const hasMonth = (r: DayRef | undefined) => r?.k === 'monthDay' || (r?.k === 'date' && !r.rel);
  if (eRef?.k === 'dayOnly' && !hasMonth(sRef)) {
    throw new ParseProblem(
      `A bare day number (“${eRef.day}”) as the end needs a start with a month, like “Nov 1-3”.`,
      ['Nov 1-3'],
    );
  }
  if (sRef?.k === 'dayOnly' && !hasMonth(eRef)) {
    throw new ParseProblem(
      'A range cannot start with a bare day number unless the end has a month, like “1-3 Nov”.',
      ['1-3 Nov'],
    );
  }
  const endFromStart = (eRef?.k === 'none' || eRef?.k === 'dayOnly') && owns(sRef);
  const startFromEnd = !endFromStart && (sRef?.k === 'none' || sRef?.k === 'dayOnly') && owns(eRef);
  const build = (sd: YMD, ed: YMD) => {
    const si = interval(c, S, sd);
    const ei = interval(c, E, ed);
    return { start: si.start, end: endOf(c, ei), sd, ed };
  };
  const fits = (b: { start: bigint; end: bigint }) => b.start < b.end && b.end <= c.nowNs;
  let chosen: ReturnType<typeof build>;

  if (endFromStart || startFromEnd) {
    const driverRef = endFromStart ? sRef! : eRef!;
    const make = (D: YMD) =>
      build(startFromEnd ? derived(S, D, 'start') : D, endFromStart ? derived(E, D, 'end') : D);
    const kind = kindOf(driverRef);
    if (kind === 'weekly') {
      // The most recent one that is over: a span of weekdays not yet over this week is last week's.
      chosen = firstFit(backFrom(driverRef, c.today), make, fits);
    } else if (driverRef.k === 'monthDay') {
      // The year in which the start's day has most recently come ("1-3 Nov" is decided by Nov 1).
      const startDay = sRef?.k === 'dayOnly' ? sRef.day : driverRef.day;
      const { year } = recentDate(c, { k: 'monthDay', month: driverRef.month, day: startDay });
      if (!isValidDay(year, driverRef.month, driverRef.day)) {
        throw new ParseProblem(`${monthAbbr(driverRef.month)} ${driverRef.day} is not a date in ${year}.`, [
          `${monthAbbr(driverRef.month)} 28`,
        ]);
      }
      chosen = make({ year, month: driverRef.month, day: driverRef.day });
    } else chosen = make(fixedDate(c, driverRef));
  } else {
    const sK = kindOf(sRef);
    const eK = kindOf(eRef);
    if (sK === 'weekly' && eK === 'weekly') {
      chosen = firstFit(
        backFrom(sRef!, c.today),
        (sd) => build(sd, forwardFrom(eRef!, sd).next().value!),
        fits,
      );
    } else if (sK !== 'fixed' && eK === 'fixed' && (sK === 'weekly' || explicit(E))) {
      // The latest one that starts before the end (a yearless date: before an end with a year of its own).
      const ed = fixedDate(c, eRef);
      const endNs = endOf(c, interval(c, E, ed));
      const from = localDate(c, endNs);
      const dates = sRef!.k === 'monthDay' ? yearNear(sRef!, from, -1) : [...backFrom(sRef!, from)];
      chosen = build(dates.find((d) => interval(c, S, d).start < endNs) ?? dates[0]!, ed);
    } else {
      const sd = sK === 'fixed' ? fixedDate(c, sRef) : startDate(c, S, sRef!);
      if (eK === 'fixed') chosen = build(sd, derived(E, fixedDate(c, eRef), 'end'));
      else {
        // The first one that ends after the start.
        const startNs = interval(c, S, sd).start;
        const from = localDate(c, startNs);
        const dates = eRef!.k === 'monthDay' ? yearNear(eRef!, from, 1) : [...forwardFrom(eRef!, from)];
        chosen = build(sd, dates.find((d) => interval(c, E, d).end > startNs) ?? dates[0]!);
      }
    }
  }
  const notes = [...notesOf(S, E), ...yearNote(c, sRef, chosen.sd), ...yearNote(c, eRef, chosen.ed)];
  if (chosen.end <= chosen.start) {
    const ends = `The end (${describeInstant(chosen.end, c.tz)}) is not after the start (${describeInstant(chosen.start, c.tz)})`;
    if (S.k === 'point' && E.k === 'point' && sameDay(chosen.sd, chosen.ed)) {
      throw new ParseProblem(
        `${ends}. For a range past midnight, give the end its day, like “yesterday 10pm to today 2am”.`,
        ['yesterday 10pm to today 2am'],
      );
    }
    throw new ParseProblem(
      `${ends}: “${texts[1]}” does not come after “${texts[0]}”. Put the earlier one first.`,
    );
  }
  return withNotes({ startNs: chosen.start, endNs: chosen.end }, notes);
}

/** One endpoint on its own: a day or period (a point in time is not a range). */
export function single(c: Ctx, written: EP, text: string): TimeRange {
  const [ep] = settleWeeks(c, written);
  if (ep.k === 'offset') {
    // Alone, an offset is where the range starts and it ends now ("now-2h", "-90m"), as the tools read a
    // "from" whose "to" is left at now; rounded to a whole unit ("now-1d/d") it is that unit.
    const iv = offsetSpan(c, ep.steps, ep.round);
    if (iv.period) return { startNs: iv.start, endNs: endOf(c, iv) };
    if (iv.start < c.nowNs) return { startNs: iv.start, endNs: c.nowNs };
    throw new ParseProblem(
      `“${text}” is not before now, so it cannot start a range that ends now: give the end too, like “now to ${text}”.`,
    );
  }
  if (ep.k === 'instant' || ep.k === 'now' || ep.k === 'point' || ep.k === 'ago' || momentary(ep)) {
    let past = false;
    try {
      const from = since(c, ep).startNs;
      past = from >= MIN_NS && from < c.nowNs;
    } catch (e) {
      if (!(e instanceof ParseProblem)) throw e;
    }
    const what = ep.k === 'point' ? 'a single point in time' : 'a single instant';
    const end = ep.k === 'point' ? '5pm' : ep.k === 'ago' ? 'now' : '…';
    throw new ParseProblem(
      `“${text}” is ${what}, not a range: add an end (“${text} to ${end}”) or write “since ${text}”.`,
      past ? [`since ${text}`] : [],
    );
  }
  bareDayNumber(ep);
  if (ep.k === 'day' && ep.ago && ep.ago.unit !== 'd') wholePeriodAgo(ep.ago, fixedDate(c, ep.day));
  const ref = refOf(ep);
  const make = (d: YMD) => {
    const iv = interval(c, ep, d);
    return { start: iv.start, end: endOf(c, iv), d };
  };
  let b: ReturnType<typeof make>;
  const kind = kindOf(ref);
  if (kind === 'weekly') {
    b = firstFit(backFrom(ref!, c.today), make, (x) => x.start < x.end && x.end <= c.nowNs);
  } else b = make(kind === 'yearly' ? recentDate(c, ref!) : fixedDate(c, ref));
  return withNotes({ startNs: b.start, endNs: b.end }, [...notesOf(ep), ...yearNote(c, ref, b.d)]);
}

/**
 * A time with a zone but no day ("since 8am CET") is the most recent one. The zone's date may be a day
 * ahead of the user's or behind it, so that one may be on any of four of the user's days.
 */
function recentZonedTime(c: Ctx, ep: EP): YMD | undefined {
  if (ep.k !== 'point' || ep.day.k !== 'none' || !ep.clock.zone) return undefined;
  const days = [1, 0, -1, -2].map((n) => plusDays(c.today, n));
  return days.find((d) => interval(c, ep, d).start <= c.nowNs) ?? c.today;
}

/**
 * "2 weeks ago" on its own could be that day or that week (month, year): refused with both, each written
 * so that it works as typed.
 */
function wholePeriodAgo(ago: AgoDay, day: YMD): never {
  const word = ago.unit === 'w' ? 'week' : ago.unit === 'mo' ? 'month' : 'year';
  const date = `${WEEKDAY_NAMES[weekdayOf(day) - 1]!.slice(0, 3)} ${day.day} ${monthAbbr(day.month)} ${day.year}`;
  let period: string;
  if (ago.unit === 'w') {
    const monday = plusDays(day, 1 - weekdayOf(day));
    const sunday = plusDays(monday, 6);
    period = `${monday.day} ${monthAbbr(monday.month)} ${monday.year} to ${sunday.day} ${monthAbbr(sunday.month)} ${sunday.year}`;
  } else if (ago.unit === 'mo') period = `${monthAbbr(day.month)} ${day.year}`;
  else period = `${day.year}-01-01 to ${day.year}-12-31`;
  throw new ParseProblem(
    `“${ago.text}” could be the day ${date} or the whole ${word} it falls in: write “${date}” for the day, or “${period}” for the ${word}.`,
    [date, period],
    [date, period],
  );
}

/**
 * "3 days ago" where a point in time would fit as well ("since 3 days ago", "3 days ago to now") could
 * start at that day's midnight or at this time of day three days ago: refused with both.
 */
function dayOrInstantAgo(c: Ctx, ago: AgoDay, end?: string): never {
  const day = fixedAgoDate(c, ago);
  const unitWord = { d: 'day', w: 'week', mo: 'month', y: 'year' }[ago.unit];
  const clock = `${String(c.nowWall.hour).padStart(2, '0')}:${String(c.nowWall.minute).padStart(2, '0')}`;
  const phrase = end === undefined ? `since ${ago.text}` : `${ago.text} to ${end}`;
  const midnight = end === undefined ? `since ${ago.text} 00:00` : `${ago.text} 00:00 to ${end}`;
  const rolling =
    end === undefined || /^(right )?now$/i.test(end)
      ? `past ${ago.n} ${unitWord}${ago.n === 1 ? '' : 's'}`
      : `${ago.text} ${clock} to ${end}`;
  throw new ParseProblem(
    `“${phrase}” could start at the beginning of that day (${describeInstant(wallNs(c, day), c.tz)}) or at this time of day ${ago.text} (${describeInstant(rollingRange(c, ago.n, ago.unit).startNs, c.tz)}): write “${midnight}” for the first, or “${rolling}” for the second.`,
    [midnight, rolling],
    [midnight, rolling],
  );
}

function fixedAgoDate(c: Ctx, ago: AgoDay): YMD {
  if (ago.unit === 'd') return plusDays(c.today, -ago.n);
  if (ago.unit === 'w') return plusDays(c.today, -7 * ago.n);
  const w = addMonths(c.nowWall, -ago.n * (ago.unit === 'y' ? 12 : 1));
  return { year: w.year, month: w.month, day: w.day };
}

const dayAgo = (ep: EP): AgoDay | undefined => (ep.k === 'day' && !ep.part && !ep.shift ? ep.ago : undefined);

/** An end that is a moment, not a stretch of time. */
const momentary = (ep: EP): boolean =>
  ep.k === 'now' ||
  (ep.k === 'edge' && (ep.which === 'start' || ep.which === 'end')) ||
  ep.k === 'offset' ||
  ep.k === 'ago' ||
  ep.k === 'instant' ||
  ep.k === 'point';

/** "since X": from the start of the most recent X to now. */
export function since(c: Ctx, written: EP): TimeRange {
  const [ep] = settleWeeks(c, written);
  bareDayNumber(ep);
  const ago = dayAgo(ep);
  if (ago) dayOrInstantAgo(c, ago);
  const ref = refOf(ep);
  const d = recentZonedTime(c, ep) ?? (kindOf(ref) === 'fixed' ? fixedDate(c, ref) : startDate(c, ep, ref!));
  return withNotes({ startNs: interval(c, ep, d).start, endNs: c.nowNs }, [
    ...notesOf(ep),
    ...yearNote(c, ref, d),
  ]);
}

export function rollingRange(c: Ctx, n: number, unit: Unit): TimeRange {
  const secondsPer: Partial<Record<Unit, bigint>> = { s: 1n, m: 60n, h: 3600n };
  const exact = secondsPer[unit];
  if (exact !== undefined) return { startNs: c.nowNs - BigInt(n) * exact * 1_000_000_000n, endNs: c.nowNs };
  const back =
    unit === 'mo' || unit === 'y'
      ? addMonths(c.nowWall, -n * (unit === 'y' ? 12 : 1))
      : addDays(c.nowWall, -(unit === 'w' ? 7 * n : n));
  return { startNs: msToNs(instantMs(c, back)) + nsSubMs(c.nowNs), endNs: c.nowNs };
}
