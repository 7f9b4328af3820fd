// A second, independent reading of the time-range rules (docs/time-ranges.md), for the property tests.
// It works from the meaning a generator attached to each phrase, not from the text, and uses only Intl for
// zones: no chrono, nothing from src/time.

export type Part = 'morning' | 'afternoon' | 'evening' | 'night';
export type Unit = 's' | 'm' | 'h' | 'd' | 'w' | 'mo' | 'y';

export type DaySpec =
  | { k: 'rel'; n: number } // today (0), yesterday (-1), tomorrow (1)
  | { k: 'weekday'; wd: number } // bare weekday, 1 = Monday
  | { k: 'lastWeekday'; wd: number }
  | { k: 'date'; y: number; m: number; d: number }
  | { k: 'md'; m: number; d: number } // no year
  | { k: 'numeric'; a: number; b: number; y?: number }; // a/b[/y], order from the locale

export interface Clock {
  h: number;
  mi: number;
  /**
   * How it was written: with am/pm, on the 24-hour clock beyond doubt (hour 0, 13 and later, or a leading
   * zero), or 1 to 12 with neither (`dial`: either half of the day).
   */
  written?: 'ampm' | '24' | 'dial';
}

/** One end of a range: a day (or part of one), a time on a day, now, or a time on the start's day. */
export type End =
  | { now: true }
  | { day: DaySpec; part?: Part; time?: Clock }
  | { sameDay: true; time: Clock };
type DayEnd = Extract<End, { day: DaySpec }>;

export type Meaning =
  | { k: 'rolling'; n: number; unit: Unit }
  | { k: 'calendar'; rel: -1 | 0 | 1; unit: 'week' | 'weekend' | 'month' | 'year' }
  | { k: 'single'; end: End }
  | { k: 'range'; start: End; end: End } // the end's day, when it has none, is the start's
  | { k: 'since'; from: End }
  | { k: 'exact'; startNs: bigint; endNs: bigint }
  | { k: 'refused' }; // a form the rules refuse whatever the context

export interface OracleCtx {
  nowMs: number;
  tz: string;
  locale?: string;
  requirePast: boolean;
}

export type Verdict = { ok: true; startNs: bigint; endNs: bigint } | { ok: false; why: string };

const MAX_NS = 2n ** 63n - 1n;
const DAY_MS = 86_400_000;

// ------------------------------------------------------------------------------------------- zones

interface Local {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
  s: number;
  /** Seconds east of UTC. */
  off: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function local(tz: string, ms: number): Local {
  let f = formats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone: tz,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    });
    formats.set(tz, f);
  }
  const p: Record<string, string> = {};
  for (const x of f.formatToParts(ms)) p[x.type] = x.value;
  // Before standard time, zones were on local mean time, with offsets in seconds ("GMT-03:30:52").
  const m = /^GMT(?:([+-])(\d\d):(\d\d)(?::(\d\d))?)?$/.exec(p.timeZoneName ?? '');
  if (!m) throw new Error(`unexpected offset name ${p.timeZoneName}`);
  const off = m[1]
    ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0))
    : 0;
  return {
    y: Number(p.year),
    mo: Number(p.month),
    d: Number(p.day),
    h: Number(p.hour),
    mi: Number(p.minute),
    s: Number(p.second),
    off,
  };
}

function utcMs(y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): number {
  const t = new Date(0);
  t.setUTCFullYear(y, mo - 1, d);
  t.setUTCHours(h, mi, s, ms);
  return t.getTime();
}

/** A local wall time as an instant: in a gap, later by the gap; when it happens twice, the first time. */
function instant(tz: string, y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): number {
  const asUtc = utcMs(y, mo, d, h, mi, s, ms);
  const offsets = new Set<number>();
  for (const step of [-2, -1, 0, 1, 2]) offsets.add(local(tz, asUtc + step * 43_200_000).off);
  const want = new Date(asUtc);
  const hits = [...offsets]
    .map((o) => asUtc - o * 1000)
    .filter((t) => {
      const l = local(tz, t);
      return (
        l.y === want.getUTCFullYear() &&
        l.mo === want.getUTCMonth() + 1 &&
        l.d === want.getUTCDate() &&
        l.h === want.getUTCHours() &&
        l.mi === want.getUTCMinutes() &&
        l.s === want.getUTCSeconds()
      );
    })
    .sort((a, b) => a - b);
  if (hits.length > 0) return hits[0]!;
  return asUtc - local(tz, asUtc - DAY_MS).off * 1000;
}

// ------------------------------------------------------------------------------------------- dates

interface Ymd {
  y: number;
  m: number;
  d: number;
}

function shift(x: Ymd, days: number): Ymd {
  const t = new Date(utcMs(x.y, x.m, x.d) + days * DAY_MS);
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

function weekday(x: Ymd): number {
  return ((new Date(utcMs(x.y, x.m, x.d)).getUTCDay() + 6) % 7) + 1;
}

function exists(y: number, m: number, d: number): boolean {
  return m >= 1 && m <= 12 && d >= 1 && new Date(utcMs(y, m, d)).getUTCDate() === d;
}

const before = (a: Ymd, b: Ymd) => utcMs(a.y, a.m, a.d) < utcMs(b.y, b.m, b.d);

class Refuse {
  constructor(readonly why: string) {}
}

/** Day/month order: month first in the US and the places that follow it, unknown for some, else day first. */
export function orderOf(locale: string | undefined): 'DMY' | 'MDY' | undefined {
  const region = locale?.split(/[-_]/).at(-1)?.toUpperCase();
  if (!locale || !region || region.length !== 2 || region === locale.toUpperCase()) return undefined;
  if (['US', 'PH', 'PR', 'GU', 'VI', 'AS', 'MP', 'UM', 'FM', 'MH', 'PW'].includes(region)) return 'MDY';
  if (['CA', 'ZA', 'JP', 'CN', 'TW', 'KR', 'KP', 'MN', 'HU', 'LT', 'IR'].includes(region)) return undefined;
  return 'DMY';
}

function numericDay(spec: Extract<DaySpec, { k: 'numeric' }>, locale?: string): DaySpec {
  const probeYear = spec.y ?? 2024; // a leap year: 29 Feb exists when no year is given
  const dayFirst = exists(probeYear, spec.b, spec.a) ? { m: spec.b, d: spec.a } : undefined;
  const monthFirst = exists(probeYear, spec.a, spec.b) ? { m: spec.a, d: spec.b } : undefined;
  let pick = dayFirst ?? monthFirst;
  if (!pick) throw new Refuse('not a date');
  if (dayFirst && monthFirst && spec.a !== spec.b) {
    const order = orderOf(locale);
    if (!order) throw new Refuse('ambiguous numeric date');
    pick = order === 'DMY' ? dayFirst : monthFirst;
  }
  return spec.y === undefined ? { k: 'md', ...pick } : { k: 'date', y: spec.y, ...pick };
}

// ------------------------------------------------------------------------------------------- rules

const PARTS: Record<Part, [number, number]> = {
  morning: [6, 12],
  afternoon: [12, 18],
  evening: [18, 22],
  night: [22, 30],
};

interface Span {
  start: number; // ms
  end: number;
  period: boolean;
}

function spanOn(c: OracleCtx, e: DayEnd | { time: Clock }, x: Ymd): Span {
  if (e.time) {
    const t = instant(c.tz, x.y, x.m, x.d, e.time.h, e.time.mi);
    return { start: t, end: t, period: false };
  }
  const [from, to] = 'part' in e && e.part ? PARTS[e.part] : [0, 24];
  const endDay = shift(x, Math.floor(to / 24));
  return {
    start: instant(c.tz, x.y, x.m, x.d, from),
    end: instant(c.tz, endDay.y, endDay.m, endDay.d, to % 24),
    period: true,
  };
}

const cut = (c: OracleCtx, s: Span) => (s.period && s.start <= c.nowMs && c.nowMs < s.end ? c.nowMs : s.end);

function today(c: OracleCtx): Ymd {
  const l = local(c.tz, c.nowMs);
  return { y: l.y, m: l.mo, d: l.d };
}

/** Fixed days; floating ones (weekday, no year) are returned as undefined and settled by the caller. */
function fixedDay(c: OracleCtx, spec: DaySpec): Ymd | undefined {
  const t = today(c);
  switch (spec.k) {
    case 'rel':
      return shift(t, spec.n);
    case 'lastWeekday':
      return shift(t, -((weekday(t) - spec.wd + 7) % 7 || 7));
    case 'date':
      if (!exists(spec.y, spec.m, spec.d)) throw new Refuse('not a date');
      return { y: spec.y, m: spec.m, d: spec.d };
    default:
      return undefined;
  }
}

function resolveNumeric(c: OracleCtx, spec: DaySpec): DaySpec {
  return spec.k === 'numeric' ? numericDay(spec, c.locale) : spec;
}

/** The weekday `wd` on or before `from`, then the weeks before it. */
function weekdaysBack(from: Ymd, wd: number, n = 6): Ymd[] {
  const first = shift(from, -((weekday(from) - wd + 7) % 7));
  return Array.from({ length: n }, (_, k) => shift(first, -7 * k));
}

/** A day without a year: the most recent one (today included). */
function recentMd(c: OracleCtx, m: number, d: number): Ymd {
  const t = today(c);
  for (let y = t.y; y > t.y - 9; y--) {
    const x = { y, m, d };
    if (exists(y, m, d) && !before(t, x)) return x;
  }
  throw new Refuse('no such day');
}

function single(c: OracleCtx, e: End): [number, number] {
  if (!('day' in e) || e.time) throw new Refuse('a point is not a range');
  const spec = resolveNumeric(c, e.day);
  if (spec.k === 'weekday') {
    const spans = weekdaysBack(today(c), spec.wd).map((x) => spanOn(c, e, x));
    const s = spans.find((x) => x.start < cut(c, x) && cut(c, x) <= c.nowMs) ?? spans[0]!;
    return [s.start, cut(c, s)];
  }
  const x = spec.k === 'md' ? recentMd(c, spec.m, spec.d) : fixedDay(c, spec)!;
  const s = spanOn(c, e, x);
  return [s.start, cut(c, s)];
}

function since(c: OracleCtx, e: End): [number, number] {
  if (!('day' in e)) throw new Refuse('not generated');
  const spec = resolveNumeric(c, e.day);
  let x: Ymd;
  if (spec.k === 'weekday') {
    const days = weekdaysBack(today(c), spec.wd);
    x = days.find((d) => spanOn(c, e, d).start <= c.nowMs) ?? days[0]!;
  } else if (spec.k === 'md') x = recentMd(c, spec.m, spec.d);
  else x = fixedDay(c, spec)!;
  return [spanOn(c, e, x).start, c.nowMs];
}

const dateOf = (c: OracleCtx, ms: number): Ymd => {
  const l = local(c.tz, ms);
  return { y: l.y, m: l.mo, d: l.d };
};

/**
 * A yearless date next to an end that has a year: in that end's year, or the adjacent one when that is
 * under half a year away.
 */
function yearNear(m: number, d: number, anchor: Ymd, dir: 1 | -1): Ymd[] {
  return [anchor.y, anchor.y + dir]
    .map((y) => ({ y, m, d }))
    .filter((x) => exists(x.y, m, d))
    .filter(
      (x) =>
        x.y === anchor.y || Math.abs(utcMs(x.y, m, d) - utcMs(anchor.y, anchor.m, anchor.d)) < 183 * DAY_MS,
    );
}

/**
 * Two times on one day, in minutes from its midnight: an end before the start is the first time that
 * clock time comes after it (the next day). On the 12-hour dial (an end written 1 to 12 with neither am/pm
 * nor a leading zero, and neither on the 24-hour clock beyond doubt) each such end may be either half of
 * the day, within 12 hours of the other end; of several such readings, the one within the day is taken,
 * and more than one is refused.
 */
function sameDayMinutes(a: Clock, b: Clock): [number, number] {
  const s = a.h * 60 + a.mi;
  const e = b.h * 60 + b.mi;
  if (e > s) return [s, e];
  const dial = a.written !== '24' && b.written !== '24' && (a.written === 'dial' || b.written === 'dial');
  if (!dial && e === s) throw new Refuse('end not after start');
  if (!dial) return [s, e + 1440];
  const halves = (m: number, k: Clock) => (k.written === 'dial' ? [m, (m + 720) % 1440] : [m]);
  const readings: [number, number][] = [];
  for (const x of halves(s, a)) {
    for (const y of halves(e, b)) {
      const end = y > x ? y : y + 1440;
      if (end - x <= 720 && !readings.some(([p, q]) => p === x && q === end)) readings.push([x, end]);
    }
  }
  if (readings.length === 1) return readings[0]!;
  const inDay = readings.filter(([, end]) => end <= 1440);
  if (inDay.length === 1) return inDay[0]!;
  throw new Refuse('two readings');
}

/**
 * A range: an end with only a time is on the start's day; two bare weekdays are the most recent such span
 * that is over; a bare weekday start is the latest one before the end, a bare weekday end the first after
 * the start; a yearless start is the most recent one unless the end has a year, then the latest before it;
 * a yearless end is next to the start.
 */
function range(c: OracleCtx, S: End, E: End): [number, number] {
  if (!('day' in S)) throw new Refuse('not generated');
  const sSpec = resolveNumeric(c, S.day);
  const fits = (s: number, e: number) => s < e && e <= c.nowMs;
  if ('sameDay' in E) {
    const [sMin, eMin] = S.time ? sameDayMinutes(S.time, E.time) : [0, E.time.h * 60 + E.time.mi];
    const at = (x: Ymd, min: number) => {
      const d = shift(x, Math.floor(min / 1440));
      return instant(c.tz, d.y, d.m, d.d, Math.floor((min % 1440) / 60), min % 60);
    };
    const on = (x: Ymd): [number, number] => [S.time ? at(x, sMin) : spanOn(c, S, x).start, at(x, eMin)];
    if (sSpec.k === 'weekday') {
      const tries = weekdaysBack(today(c), sSpec.wd).map(on);
      return tries.find(([s, e]) => fits(s, e)) ?? tries[0]!;
    }
    return on(sSpec.k === 'md' ? recentMd(c, sSpec.m, sSpec.d) : fixedDay(c, sSpec)!);
  }
  const eSpec: DaySpec | 'now' = 'now' in E ? 'now' : resolveNumeric(c, E.day);
  if (sSpec.k === 'weekday' && eSpec !== 'now' && eSpec.k === 'weekday') {
    const delta = (eSpec.wd - sSpec.wd + 7) % 7;
    const tries = weekdaysBack(today(c), sSpec.wd).map((x): [number, number] => [
      spanOn(c, S, x).start,
      cut(c, spanOn(c, E as DayEnd, shift(x, delta))),
    ]);
    return tries.find(([s, e]) => fits(s, e)) ?? tries[0]!;
  }
  const eFixed = eSpec === 'now' || (eSpec.k !== 'weekday' && eSpec.k !== 'md');
  if (eFixed) {
    const end = eSpec === 'now' ? c.nowMs : cut(c, spanOn(c, E as DayEnd, fixedDay(c, eSpec)!));
    const endHasYear = eSpec !== 'now' && eSpec.k === 'date';
    let sx: Ymd;
    if (sSpec.k === 'weekday') {
      const days = weekdaysBack(dateOf(c, end), sSpec.wd);
      sx = days.find((x) => spanOn(c, S, x).start < end) ?? days[0]!;
    } else if (sSpec.k === 'md' && endHasYear) {
      const days = yearNear(sSpec.m, sSpec.d, dateOf(c, end), -1);
      if (days.length === 0) throw new Refuse('no such day');
      sx = days.find((x) => spanOn(c, S, x).start < end) ?? days[0]!;
    } else sx = sSpec.k === 'md' ? recentMd(c, sSpec.m, sSpec.d) : fixedDay(c, sSpec)!;
    return [spanOn(c, S, sx).start, end];
  }
  let sx: Ymd;
  if (sSpec.k === 'weekday') {
    const days = weekdaysBack(today(c), sSpec.wd);
    sx = days.find((x) => spanOn(c, S, x).start <= c.nowMs) ?? days[0]!;
  } else sx = sSpec.k === 'md' ? recentMd(c, sSpec.m, sSpec.d) : fixedDay(c, sSpec)!;
  const start = spanOn(c, S, sx).start;
  const from = dateOf(c, start);
  const days =
    eSpec.k === 'weekday'
      ? Array.from({ length: 6 }, (_, k) => shift(from, ((eSpec.wd - weekday(from) + 7) % 7) + 7 * k))
      : yearNear((eSpec as { m: number }).m, (eSpec as { d: number }).d, from, 1);
  if (days.length === 0) throw new Refuse('no such day');
  const ex = days.find((x) => spanOn(c, E as DayEnd, x).end > start) ?? days[0]!;
  return [start, cut(c, spanOn(c, E as DayEnd, ex))];
}

function rolling(c: OracleCtx, n: number, unit: Unit): [number, number] {
  const secs = { s: 1, m: 60, h: 3600 } as Partial<Record<Unit, number>>;
  if (secs[unit] !== undefined) return [c.nowMs - n * secs[unit]! * 1000, c.nowMs];
  const l = local(c.tz, c.nowMs);
  const ms = ((c.nowMs % 1000) + 1000) % 1000;
  let x: Ymd;
  if (unit === 'd' || unit === 'w') x = shift({ y: l.y, m: l.mo, d: l.d }, -(unit === 'w' ? 7 * n : n));
  else {
    const total = l.y * 12 + (l.mo - 1) - (unit === 'y' ? 12 * n : n);
    const y = Math.floor(total / 12);
    const m = (total % 12) + 1;
    const last = new Date(utcMs(y, m + 1, 0)).getUTCDate();
    x = { y, m, d: Math.min(l.d, last) };
  }
  return [instant(c.tz, x.y, x.m, x.d, l.h, l.mi, l.s, ms), c.nowMs];
}

function calendar(
  c: OracleCtx,
  rel: -1 | 0 | 1,
  unit: 'week' | 'weekend' | 'month' | 'year',
): [number, number] {
  const t = today(c);
  let from: Ymd;
  let to: Ymd;
  if (unit === 'week' || unit === 'weekend') {
    const monday = shift(t, 1 - weekday(t));
    from = shift(monday, 7 * rel + (unit === 'weekend' ? 5 : 0));
    to = shift(monday, 7 * rel + 7);
  } else if (unit === 'month') {
    const total = t.y * 12 + (t.m - 1) + rel;
    from = { y: Math.floor(total / 12), m: (total % 12) + 1, d: 1 };
    to = { y: Math.floor((total + 1) / 12), m: ((total + 1) % 12) + 1, d: 1 };
  } else {
    from = { y: t.y + rel, m: 1, d: 1 };
    to = { y: t.y + rel + 1, m: 1, d: 1 };
  }
  const s: Span = {
    start: instant(c.tz, from.y, from.m, from.d),
    end: instant(c.tz, to.y, to.m, to.d),
    period: true,
  };
  return [s.start, cut(c, s)];
}

/** The range the rules give for `m` in context `c`, or why they refuse it. */
export function oracle(m: Meaning, c: OracleCtx): Verdict {
  let startNs: bigint;
  let endNs: bigint;
  try {
    if (m.k === 'refused') return { ok: false, why: 'refused form' };
    if (m.k === 'exact') [startNs, endNs] = [m.startNs, m.endNs];
    else {
      const [s, e] =
        m.k === 'rolling'
          ? rolling(c, m.n, m.unit)
          : m.k === 'calendar'
            ? calendar(c, m.rel, m.unit)
            : m.k === 'single'
              ? single(c, m.end)
              : m.k === 'since'
                ? since(c, m.from)
                : range(c, m.start, m.end);
      if (!Number.isFinite(s) || !Number.isFinite(e)) return { ok: false, why: 'out of reach' };
      [startNs, endNs] = [BigInt(s) * 1_000_000n, BigInt(e) * 1_000_000n];
    }
  } catch (e) {
    if (e instanceof Refuse) return { ok: false, why: e.why };
    throw e;
  }
  if (startNs < 0n || endNs < 0n) return { ok: false, why: 'before 1970' };
  if (startNs > MAX_NS || endNs > MAX_NS) return { ok: false, why: 'after 2262' };
  if (endNs <= startNs) return { ok: false, why: 'end not after start' };
  if (c.requirePast && endNs > BigInt(c.nowMs) * 1_000_000n) return { ok: false, why: 'ends in the future' };
  return { ok: true, startNs, endNs };
}
