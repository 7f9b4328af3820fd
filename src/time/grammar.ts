// Text → meaning, before any zone conversion. The grammar is small on purpose: every form it accepts has
// one documented reading, and a form that people use with two readings is refused with both spelled out.
// It finds the words that make up a calendar date or a clock time and has chrono-node read them
// (chrono.ts); what those words mean in the phrase, and whether they are accepted at all, stays here.

import {
  daysIn,
  isoDate,
  MONTH_NAMES,
  monthAbbr,
  plusDays,
  plusMonths,
  WEEKDAY_NAMES,
  weekdayOf,
  type YMD,
} from './calendar.js';
import { type Fields, recogniseAs } from './chrono.js';
import { edgeAt } from './edges.js';
import {
  type AgoDay,
  type Clock,
  type DayRef,
  type EndpointHit,
  type GrammarCtx,
  PART_NOTE,
  type Part,
  Refusal,
  refuse,
  span,
  type Unit,
  WEEKEND_NOTE,
  type Zone,
} from './endpoint.js';
import { fullYear, twoDigitYearsFor } from './locale.js';
import { offsetAt } from './offsets.js';
import { describeShifts, type ShiftSpan, shiftNote } from './shifts.js';
import { atomText, indices, isWord, type R, type Tok, textOf } from './tokens.js';
import { UNITS } from './units.js';
import { weekAt } from './weeks.js';

// ---------------------------------------------------------------------------------------------- pieces

const WEEKDAYS = new Map<string, number>();
WEEKDAY_NAMES.forEach((name, i) => {
  WEEKDAYS.set(name.toLowerCase(), i + 1);
  WEEKDAYS.set(name.slice(0, 3).toLowerCase(), i + 1);
});
for (const [w, d] of [
  ['tues', 2],
  ['weds', 3],
  ['thur', 4],
  ['thurs', 4],
] as const)
  WEEKDAYS.set(w, d);

const PART_WORDS = new Set<string>(['morning', 'afternoon', 'evening', 'night']);

const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
};

/**
 * Fixed-offset zone abbreviations. Names that stand for more than one zone (IST: India, Israel, Ireland;
 * BST: Britain, Bangladesh; CST/CDT: US Central, China, Cuba; AST) are only taken when they are what the
 * user's own zone is called at that time; otherwise they are refused.
 */
const ZONE_ABBR: Record<string, number> = {
  utc: 0,
  gmt: 0,
  z: 0,
  wet: 0,
  west: 60,
  cet: 60,
  cest: 120,
  eet: 120,
  eest: 180,
  msk: 180,
  est: -300,
  edt: -240,
  mst: -420,
  mdt: -360,
  pst: -480,
  pdt: -420,
  akst: -540,
  akdt: -480,
  hst: -600,
  jst: 540,
  kst: 540,
  hkt: 480,
  sgt: 480,
  awst: 480,
  acst: 570,
  acdt: 630,
  aest: 600,
  aedt: 660,
  nzst: 720,
  nzdt: 780,
};
// Without a count only whole singular words: "last hour", "past week"; "last h" is not English.
const SINGULAR_UNITS = new Map<string, Unit>(
  Object.entries({
    second: 's',
    minute: 'm',
    min: 'm',
    hour: 'h',
    hr: 'h',
    day: 'd',
    week: 'w',
    wk: 'w',
    month: 'mo',
    year: 'y',
    yr: 'y',
  }) as [string, Unit][],
);

const AMBIGUOUS_ZONES = new Set(['ist', 'bst', 'cst', 'cdt', 'ast']);

/** Which month a word names ("Nov", "sept", "November"): chrono's reading of "<word> 1". */
export function monthOfWord(word: string): number | undefined {
  if (word.length < 3) return undefined; // no month name is shorter: spares chrono "to", "on", "am"…
  const f = recogniseAs('monthFirst', `${word} 1`, ['month', 'day']);
  return f?.day === 1 ? f.month : undefined;
}

/** A month name, and a full stop after it ("Nov."), which chrono is not given. */
function month(t: Tok[], i: number): R<number> {
  const x = t[i];
  const m = x && !x.num ? monthOfWord(x.s) : undefined;
  if (m === undefined) return [];
  return [[m, isWord(t, i + 1, '.') && t[i + 1]!.glued ? i + 2 : i + 1]];
}

function weekday(t: Tok[], i: number): R<number> {
  const x = t[i];
  const d = x && !x.num ? WEEKDAYS.get(x.s) : undefined;
  if (d === undefined) return [];
  return [[d, t[i + 1]?.s === '.' && t[i + 1]!.glued ? i + 2 : i + 1]];
}

function dayNumber(t: Tok[], i: number): R<number> {
  const x = t[i];
  if (!x?.num || x.s.length > 2) return [];
  const n = Number(x.s);
  if (n < 1) return [];
  const suffix = t[i + 1];
  if (suffix?.glued && !suffix.num && ['st', 'nd', 'rd', 'th'].includes(suffix.s)) return [[n, i + 2]];
  return [[n, i + 1]];
}

function year(t: Tok[], i: number): R<number> {
  const x = t[i];
  return x?.num && x.s.length === 4 ? [[Number(x.s), i + 1]] : [];
}

interface DayHit {
  ref: DayRef;
  wd?: number;
  notes: string[];
  refusal?: Refusal;
  ago?: AgoDay;
}

const MAX_COUNT = 1_000_000;

/** "3", "three", "a": how many of a unit. */
function countAt(t: Tok[], i: number): R<{ n: number; text: string }> {
  const x = t[i];
  if (!x) return [];
  if (x.num) return [[{ n: x.s.length > 7 ? Number.POSITIVE_INFINITY : Number(x.s), text: x.s }, i + 1]];
  const n = NUMBER_WORDS[x.s];
  return n === undefined ? [] : [[{ n, text: x.raw }, i + 1]];
}

/** "3 days ago", "90 minutes ago", "an hour ago", "2h ago": a count of a unit before now. */
function agoAt(t: Tok[], i: number): R<{ n: number; unit: Unit; text: string; ok: boolean }> {
  const out: R<{ n: number; unit: Unit; text: string; ok: boolean }> = [];
  for (const [count, j] of countAt(t, i)) {
    const u = t[j];
    const unit = u && !u.num ? UNITS.get(u.s) : undefined;
    if (!unit || !isWord(t, j + 1, 'ago')) continue;
    const ok = Number.isInteger(count.n) && count.n >= 1 && count.n <= MAX_COUNT;
    out.push([{ n: count.n, unit, text: textOf(t, i, j + 2), ok }, j + 2]);
  }
  return out;
}

const badCount = (text: string, example: string): Refusal =>
  new Refusal(`“${text}” does not give a usable count: give a whole number from 1, like “${example}”.`, [
    example,
  ]);

const refused = (error: string, examples: string[], readings: string[] = []): DayHit => ({
  ref: { k: 'none' },
  notes: [],
  refusal: new Refusal(error, examples, readings),
});

/** A date chrono could not read: a day its month does not have, or else not a date at all. */
function notADate(text: string, m: number, d: number, y: number | undefined, example: string): DayHit {
  if (m >= 1 && m <= 12 && d > daysIn(m, y)) {
    const name = MONTH_NAMES[m - 1]!;
    const has =
      y === undefined ? `${name} has at most ${daysIn(m)} days` : `${name} ${y} has ${daysIn(m, y)} days`;
    return refused(`“${text}” is not a date: ${has}.`, [`${monthAbbr(m)} 1`]);
  }
  return refused(`“${text}” is not a date.`, [example]);
}

/** The day chrono read: with a year of its own only when the text gave one. */
function dated(f: Fields, notes: string[] = []): DayHit {
  const [month, day] = [f.month!, f.day!];
  return {
    ref:
      f.year === undefined
        ? { k: 'monthDay', month, day }
        : { k: 'date', date: { year: f.year, month, day } },
    notes,
  };
}

const DATE: ['month', 'day'] = ['month', 'day'];
const DATE_WITH_YEAR: ['year', 'month', 'day'] = ['year', 'month', 'day'];

/**
 * A date written with a month name, read by chrono from `atom` (the month, day and year tokens, without
 * "the" or a full stop after the month): it must read a month, a day and, only when one is written, a year.
 */
function namedDateHit(t: Tok[], atom: number[], text: string, m: number, d: number, y?: number): DayHit {
  const f = recogniseAs('monthFirst', atomText(t, atom), y === undefined ? DATE : DATE_WITH_YEAR);
  if (f && f.month === m) return dated(f);
  return notADate(text, m, d, y, `${monthAbbr(m)} 1`);
}

/** "Nov 1", "November 1st, 2026", "1 Nov", "the 1st of November 2026", optionally after a weekday. */
function namedDate(t: Tok[], i: number): R<DayHit> {
  const out: R<DayHit> = [];
  const starts: [number | undefined, number][] = [[undefined, i]];
  for (const [wd, j] of weekday(t, i)) starts.push([wd, isWord(t, j, ',') ? j + 1 : j]);
  for (const [wd, s] of starts) {
    const forms: [number, number, number[], number][] = []; // month, day, tokens for chrono, next
    for (const [m, j] of month(t, s)) {
      const k = isWord(t, j, 'the') ? j + 1 : j;
      for (const [d, n] of dayNumber(t, k)) forms.push([m, d, [s, ...indices(k, n)], n]);
    }
    const k0 = isWord(t, s, 'the') ? s + 1 : s;
    for (const [d, j] of dayNumber(t, k0)) {
      const k = isWord(t, j, 'of') ? j + 1 : j;
      for (const [m, n] of month(t, k)) forms.push([m, d, [...indices(k0, k), k], n]);
    }
    const withWd = (h: DayHit): DayHit => (wd ? { ...h, wd } : h);
    for (const [m, d, atom, n] of forms) {
      out.push([withWd(namedDateHit(t, atom, textOf(t, s, n), m, d)), n]);
      const afterComma = isWord(t, n, ',') ? n + 1 : n;
      for (const [y, e] of year(t, afterComma)) {
        out.push([withWd(namedDateHit(t, [...atom, ...indices(n, e)], textOf(t, s, e), m, d, y)), e]);
      }
    }
  }
  return out;
}

/** 2026-11-01, 2026/11/01, 2026.11.01: year first is never ambiguous. */
function isoLikeDate(t: Tok[], i: number): R<DayHit> {
  const [y, s1, m, s2, d] = [t[i], t[i + 1], t[i + 2], t[i + 3], t[i + 4]];
  if (!y?.num || y.s.length !== 4 || !s1 || !m?.num || !s2 || !d?.num) return [];
  if (!['-', '/', '.'].includes(s1.s) || s2.s !== s1.s) return [];
  if (![s1, m, s2, d].every((x) => x.glued) || m.s.length > 2 || d.s.length > 2) return [];
  const text = textOf(t, i, i + 5);
  const f = recogniseAs('monthFirst', text, DATE_WITH_YEAR);
  const hit = f ? dated(f) : notADate(text, Number(m.s), Number(d.s), Number(y.s), '2026-11-01');
  return [[hit, i + 5]];
}

/**
 * 01/11/2025, 1/11, 01.11.2025, 01-11-2025: day and month in the order of the user's region. chrono reads
 * it both ways (it swaps the two itself when only the other order is a date); two different readings are
 * the ambiguous case, settled by the region or refused.
 */
function numericDate(t: Tok[], i: number, g: GrammarCtx): R<DayHit> {
  const [a, s1, b] = [t[i], t[i + 1], t[i + 2]];
  if (!a?.num || !s1?.glued || !b?.num || !b.glued || a.s.length > 2 || b.s.length > 2) return [];
  if (!['/', '.', '-'].includes(s1.s)) return [];
  let next = i + 3;
  let y: number | undefined;
  const s2 = t[i + 3];
  const c = t[i + 4];
  let century = '';
  if (s2?.s === s1.s && s2.glued && c?.num && c.glued) {
    next = i + 5;
    // A two-digit year where the person's locale writes dates that way, in its order and with its
    // separator (de-DE: 03.03.26): in the hundred years around now.
    const yy = c.s.length === 2 ? twoDigitYearsFor(g.locale) : undefined;
    if (yy && yy.separator === s1.s) {
      y = fullYear(Number(c.s), g.today.year);
      century = String(y);
    } else if (c.s.length !== 4) {
      const text = textOf(t, i, next);
      return [
        [
          refused(
            `“${text}” has a ${c.s.length}-digit year; write the year in full, or the date with a month name, like “1 Nov 2025” or “2025-11-01”.`,
            ['1 Nov 2025', '2025-11-01'],
          ),
          next,
        ],
      ];
    }
    y ??= Number(c.s);
  } else if (s1.s !== '/') {
    return []; // 1.5 and 1-3 are not dates
  }
  const text = textOf(t, i, next);
  const need = y === undefined ? DATE : DATE_WITH_YEAR;
  // chrono is given the year in full: its own reading of a two-digit year is not the locale's.
  const atom = century ? `${a.s}${s1.s}${b.s}${s1.s}${century}` : text;
  const dayFirst = recogniseAs('dayFirst', atom, need);
  const monthFirst = recogniseAs('monthFirst', atom, need);
  if (!dayFirst && !monthFirst) {
    return [
      [refused(`“${text}” is not a date in either day/month order.`, ['1 Nov 2025', '2025-11-01']), next],
    ];
  }
  if (!dayFirst || !monthFirst || (dayFirst.month === monthFirst.month && dayFirst.day === monthFirst.day)) {
    const r = (dayFirst ?? monthFirst)!;
    return [[dated(r, century ? [`${text} = ${r.day} ${monthAbbr(r.month!)} ${r.year}`] : []), next]];
  }
  const spell = (r: Fields) => `${r.day} ${monthAbbr(r.month!)}${y === undefined ? '' : ` ${y}`}`;
  const iso = (r: Fields) => isoDate({ year: y!, month: r.month!, day: r.day! });
  if (g.order) {
    const r = g.order === 'DMY' ? dayFirst : monthFirst;
    const how = g.order === 'DMY' ? 'day first' : 'month first';
    return [[dated(r, [`${text} = ${spell(r)} (${how}, as in ${g.locale ?? 'your region'})`]), next]];
  }
  const readings = `“${text}” could be ${spell(dayFirst)} (day first) or ${spell(monthFirst)} (month first), and I don't know which order your region uses.`;
  const fix =
    y === undefined
      ? `Write the month as a word: “${spell(dayFirst)}” or “${spell(monthFirst)}”.`
      : `Write the month as a word or the date year first: “${spell(dayFirst)}” or “${iso(dayFirst)}” (or “${spell(monthFirst)}” / “${iso(monthFirst)}”).`;
  const examples =
    y === undefined
      ? [spell(dayFirst), spell(monthFirst)]
      : [spell(dayFirst), iso(dayFirst), spell(monthFirst), iso(monthFirst)];
  return [[refused(`${readings} ${fix}`, examples, [spell(dayFirst), spell(monthFirst)]), next]];
}

/** A day: today, yesterday, tomorrow, (last|next) Friday, Friday, a named or numeric date. */
function dayRef(t: Tok[], i0: number, g: GrammarCtx): R<DayHit> {
  const i = isWord(t, i0, 'on') ? i0 + 1 : i0;
  const out: R<DayHit> = [];
  const today = g.today;
  const x = t[i];
  if (!x) return out;
  if (!x.num) {
    if (x.s === 'today') out.push([{ ref: { k: 'date', date: today, rel: true }, notes: [] }, i + 1]);
    if (x.s === 'yesterday')
      out.push([{ ref: { k: 'date', date: plusDays(today, -1), rel: true }, notes: [] }, i + 1]);
    if (x.s === 'tomorrow')
      out.push([{ ref: { k: 'date', date: plusDays(today, 1), rel: true }, notes: [] }, i + 1]);
    const d = isWord(t, i, 'the') ? i + 1 : i;
    if (isWord(t, d, 'day') && isWord(t, d + 1, 'before') && isWord(t, d + 2, 'yesterday'))
      out.push([{ ref: { k: 'date', date: plusDays(today, -2), rel: true }, notes: [] }, d + 3]);
    if (['last', 'previous', 'next', 'this'].includes(x.s)) {
      for (const [wd, j] of weekday(t, i + 1)) {
        const back = (weekdayOf(today) - wd + 7) % 7 || 7;
        const ahead = (wd - weekdayOf(today) + 7) % 7 || 7;
        if (x.s === 'next')
          out.push([{ ref: { k: 'date', date: plusDays(today, ahead), rel: true }, notes: [] }, j]);
        else if (x.s !== 'this')
          out.push([{ ref: { k: 'date', date: plusDays(today, -back), rel: true }, notes: [] }, j]);
        else if (wd === weekdayOf(today))
          out.push([{ ref: { k: 'date', date: today, rel: true }, notes: [] }, j]);
        else {
          const name = WEEKDAY_NAMES[wd - 1]!;
          out.push([
            {
              ref: { k: 'none' },
              notes: [],
              refusal: new Refusal(
                `“this ${name}” could be the ${name} just gone or the coming one: write “${name}” or “last ${name}” for the most recent one, or “next ${name}” for the coming one.`,
                [name, `last ${name}`],
                [`last ${name}`, `next ${name}`],
              ),
            },
            j,
          ]);
        }
      }
    }
    for (const [wd, j] of weekday(t, i)) out.push([{ ref: { k: 'weekday', wd }, notes: [] }, j]);
  }
  out.push(...daysAgo(t, i, today));
  out.push(...namedDate(t, i), ...isoLikeDate(t, i), ...numericDate(t, i, g));
  return out;
}

/**
 * "3 days ago", "2 weeks ago", "a month ago": the day that many calendar days, weeks or months before
 * today in the user's zone (a month back keeps the day of the month, or the month's last day).
 */
function daysAgo(t: Tok[], i: number, today: YMD): R<DayHit> {
  const out: R<DayHit> = [];
  for (const [a, j] of agoAt(t, i)) {
    if (a.unit === 's' || a.unit === 'm' || a.unit === 'h') continue;
    if (!a.ok) {
      out.push([{ ref: { k: 'none' }, notes: [], refusal: badCount(a.text, '3 days ago 9am to 5pm') }, j]);
      continue;
    }
    const date =
      a.unit === 'd'
        ? plusDays(today, -a.n)
        : a.unit === 'w'
          ? plusDays(today, -7 * a.n)
          : plusMonths(today, -a.n * (a.unit === 'y' ? 12 : 1));
    out.push([
      { ref: { k: 'date', date, rel: true }, notes: [], ago: { n: a.n, unit: a.unit, text: a.text } },
      j,
    ]);
  }
  return out;
}

function zone(t: Tok[], i: number): R<Zone> {
  const out: R<Zone> = [];
  const x = t[i];
  if (!x) return out;
  const offset = (j: number): R<number> => {
    const sign = t[j];
    const h = t[j + 1];
    if (!sign || (sign.s !== '+' && sign.s !== '-') || !h?.num || !h.glued) return [];
    const k = sign.s === '-' ? -1 : 1;
    const res: R<number> = [];
    if (h.s.length <= 2) {
      if (Number(h.s) <= 14) res.push([k * Number(h.s) * 60, j + 2]);
      const colon = t[j + 2];
      const mm = t[j + 3];
      if (colon?.s === ':' && colon.glued && mm?.num && mm.glued && mm.s.length === 2 && Number(mm.s) < 60) {
        if (Number(h.s) <= 14) res.push([k * (Number(h.s) * 60 + Number(mm.s)), j + 4]);
      }
    } else if (h.s.length === 4 && Number(h.s.slice(0, 2)) <= 14 && Number(h.s.slice(2)) < 60) {
      res.push([k * (Number(h.s.slice(0, 2)) * 60 + Number(h.s.slice(2))), j + 2]);
    }
    return res;
  };
  if (!x.num && (x.s === 'utc' || x.s === 'gmt' || x.s === 'z')) {
    out.push([{ offsetMin: 0 }, i + 1]);
    if (x.s !== 'z') for (const [off, j] of offset(i + 1)) out.push([{ offsetMin: off }, j]);
  } else if (!x.num && ZONE_ABBR[x.s] !== undefined) {
    out.push([{ offsetMin: ZONE_ABBR[x.s]! }, i + 1]);
  } else if (!x.num && AMBIGUOUS_ZONES.has(x.s)) {
    out.push([{ ambiguous: x.s.toUpperCase() }, i + 1]);
  }
  for (const [off, j] of offset(i)) out.push([{ offsetMin: off }, j]);
  return out;
}

interface ClockHit {
  clock: Clock;
  refusal?: Refusal;
}

/**
 * 9am, 9:30 pm, 17:00, 17:00:05.25, noon, midnight; optionally followed by a zone. chrono reads the hour,
 * minute, second and meridiem; the fraction of a second is ours, to the nanosecond, since chrono keeps
 * only milliseconds and reads ".25" as 25 of them. Noon and midnight are ours too: midnight has a rule.
 * With `hours`, a plain hour ("8", "16") is a time too: only a span of hours tied to a day reads one.
 */
export function clock(t: Tok[], i: number, hours = false): R<ClockHit> {
  const bare: R<ClockHit> = [];
  const x = t[i];
  if (!x) return [];
  const zero = { minute: 0, second: 0, millisecond: 0, subNs: 0n };
  if (!x.num && (x.s === 'noon' || x.s === 'midday'))
    bare.push([{ clock: { hour: 12, ...zero, text: x.raw } }, i + 1]);
  if (!x.num && x.s === 'midnight')
    bare.push([{ clock: { hour: 0, ...zero, midnight: true, text: x.raw } }, i + 1]);
  if (x.num && x.s.length <= 2) {
    let j = i + 1;
    const atom = [i];
    let frac = '';
    let colon = false;
    let seconds = false;
    const c1 = t[j];
    const mm = t[j + 1];
    if (c1?.s === ':' && c1.glued && mm?.num && mm.glued && mm.s.length === 2) {
      colon = true;
      atom.push(j, j + 1);
      j += 2;
      const c2 = t[j];
      const ss = t[j + 1];
      if (c2?.s === ':' && c2.glued && ss?.num && ss.glued && ss.s.length === 2) {
        seconds = true;
        atom.push(j, j + 1);
        j += 2;
        const dot = t[j];
        const ff = t[j + 1];
        if (dot?.s === '.' && dot.glued && ff?.num && ff.glued && ff.s.length <= 9) {
          frac = ff.s;
          j += 2;
        }
      }
    }
    const ampm = isWord(t, j, 'am', 'pm');
    if (ampm) atom.push(j++);
    const h = Number(x.s);
    const written = {
      text: textOf(t, i, j),
      ...(!ampm && h >= 1 && h <= 12 && x.s[0] !== '0' ? { dial: true } : {}),
      ...(!ampm && (h === 0 || h >= 13 || x.s[0] === '0') ? { h24: true } : {}),
    };
    if (hours && !colon && !ampm && h <= 23) {
      bare.push([{ clock: { hour: h, ...zero, ...written } }, j]);
    }
    if (colon || ampm) {
      // chrono takes "0am" for 12am; on a 12-hour clock the hour is 1 to 12.
      const f =
        ampm && (h < 1 || h > 12)
          ? undefined
          : recogniseAs(
              'monthFirst',
              atomText(t, atom),
              seconds ? ['hour', 'minute', 'second'] : ['hour', 'minute'],
              ['meridiem'],
            );
      const fracNs = BigInt(frac.padEnd(9, '0') || '0');
      const c: Clock = {
        hour: f?.hour ?? 0,
        minute: f?.minute ?? 0,
        second: f?.second ?? 0,
        millisecond: Number(fracNs / 1_000_000n),
        subNs: fracNs % 1_000_000n,
        ...written,
      };
      if (!f) {
        bare.push([
          {
            clock: c,
            refusal: new Refusal(`“${textOf(t, i, j)}” is not a time of day: use 9am, 9:30pm or 17:00.`, [
              'yesterday 9am to 5pm',
            ]),
          },
          j,
        ]);
      } else bare.push([{ clock: c }, j]);
    }
  }
  const out: R<ClockHit> = [...bare];
  for (const [hit, j] of bare) {
    for (const [z, k] of zone(t, j)) out.push([{ ...hit, clock: { ...hit.clock, zone: z } }, k]);
  }
  return out;
}

// -------------------------------------------------------------------------------------------- endpoints

/** Weeks, months, years, weekends and parts of days named relative to today. */
function namedPeriod(t: Tok[], i: number, g: GrammarCtx): R<EndpointHit> {
  const out: R<EndpointHit> = [];
  const today = g.today;
  const the = isWord(t, i, 'the');
  const j = the ? i + 1 : i;
  const rel = t[j] && !t[j]!.num ? t[j]!.s : '';
  const what = t[j + 1] && !t[j + 1]!.num ? t[j + 1]!.s : '';
  if (['this', 'last', 'previous', 'next'].includes(rel)) out.push(...relativePeriod(t, i, today, rel, what));
  if (!the && isWord(t, i, 'tonight')) {
    out.push([
      {
        ep: { k: 'day', day: { k: 'date', date: today, rel: true }, part: 'night', notes: [PART_NOTE.night] },
      },
      i + 1,
    ]);
  }
  if (isWord(t, j, 'weekend')) {
    out.push([
      refuse(
        `“${textOf(t, i, j + 1)}” could be this weekend or the last one: write “last weekend” or “this weekend”.`,
        ['last weekend'],
        ['last weekend', 'this weekend'],
      ),
      j + 1,
    ]);
  }
  if (t[j] && PART_WORDS.has(t[j]!.s)) {
    const part = t[j]!.s;
    const ex = part === 'night' ? 'last night' : `yesterday ${part}`;
    out.push([
      refuse(`“${textOf(t, i, j + 1)}” needs a day: write “${ex}” or name the day, like “Monday ${part}”.`, [
        ex,
      ]),
      j + 1,
    ]);
  }
  if (
    isWord(t, j, 'week', 'weekend', 'month', 'year') &&
    isWord(t, j + 1, 'before') &&
    isWord(t, j + 2, 'last')
  ) {
    out.push([calendarSpan(t[j]!.s, -2, today), j + 3]);
  }
  if (!the) out.push(...monthWithoutDay(t, i, today));
  return out;
}

/** The week, weekend, month or year `step` of them from the one today is in ("the week before last": -2). */
function calendarSpan(what: string, step: number, today: YMD): EndpointHit {
  const monday = plusDays(today, 1 - weekdayOf(today));
  if (what === 'week') return span(plusDays(monday, 7 * step), plusDays(monday, 7 * step + 7));
  if (what === 'weekend') {
    return span(plusDays(monday, 7 * step + 5), plusDays(monday, 7 * step + 7), [WEEKEND_NOTE]);
  }
  if (what === 'month') {
    const first = { ...today, day: 1 };
    return span(plusMonths(first, step), plusMonths(first, step + 1));
  }
  const jan1 = { year: today.year + step, month: 1, day: 1 };
  return span(jan1, { ...jan1, year: jan1.year + 1 });
}

/** “this/last/previous/next” with a week, weekend, month, year, part of day or month name. */
function relativePeriod(t: Tok[], i: number, today: YMD, rel: string, what: string): R<EndpointHit> {
  const out: R<EndpointHit> = [];
  const the = isWord(t, i, 'the');
  const j = the ? i + 1 : i;
  const at = j + 2;
  const monday = plusDays(today, 1 - weekdayOf(today));
  const first = { ...today, day: 1 };
  const jan1 = { year: today.year, month: 1, day: 1 };
  const step = rel === 'this' ? 0 : rel === 'next' ? 1 : -1;
  if (what === 'day') {
    const word = step === 0 ? 'today' : step > 0 ? 'tomorrow' : 'yesterday';
    const alt = step < 0 ? ', or “past 24 hours” for the last 24 hours' : '';
    out.push([
      refuse(`“${textOf(t, i, at)}” is not a day I can pin down: write “${word}”${alt}.`, [word]),
      at,
    ]);
  } else if (the && (rel === 'last' || rel === 'next') && ['week', 'month', 'year'].includes(what)) {
    const n = what === 'week' ? '7 days' : what;
    const rolling = rel === 'last' ? `, or “past ${n}” for the ${n} up to now` : '';
    out.push([
      refuse(
        `“${textOf(t, i, at)}” could mean the calendar ${what} or the ${rel === 'next' ? 'coming' : 'past'} ${n}: write “${rel} ${what}” for the calendar ${what}${rolling}.`,
        [`${rel} ${what}`, ...(rel === 'last' ? [`past ${n}`] : [])],
        rel === 'last' ? [`last ${what}`, `past ${n}`] : [],
      ),
      at,
    ]);
  } else if (!(the && rel === 'this')) {
    if (what === 'week') out.push([span(plusDays(monday, 7 * step), plusDays(monday, 7 * step + 7)), at]);
    if (what === 'weekend') {
      out.push([span(plusDays(monday, 7 * step + 5), plusDays(monday, 7 * step + 7), [WEEKEND_NOTE]), at]);
    }
    if (what === 'month') out.push([span(plusMonths(first, step), plusMonths(first, step + 1)), at]);
    if (what === 'year') {
      out.push([span({ ...jan1, year: jan1.year + step }, { ...jan1, year: jan1.year + step + 1 }), at]);
    }
    if (!the && PART_WORDS.has(what)) out.push(partOfDay(t, i, at, rel, what as Part, today));
    for (const [m, k] of month(t, j + 1)) {
      const y = today.month >= m ? today.year : today.year - 1;
      const name = MONTH_NAMES[m - 1]!;
      out.push([
        refuse(
          `“${textOf(t, i, k)}” could mean more than one ${name}: give the year, like “${monthAbbr(m)} ${y}”.`,
          [`${monthAbbr(m)} ${y}`],
        ),
        k,
      ]);
    }
  }
  return out;
}

/** “this morning”, “last night” and the like; the ones that pin no time down are refused with a better wording. */
function partOfDay(
  t: Tok[],
  i: number,
  at: number,
  rel: string,
  part: Part,
  today: YMD,
): [EndpointHit, number] {
  if (rel === 'this' && part !== 'night') {
    return [
      { ep: { k: 'day', day: { k: 'date', date: today, rel: true }, part, notes: [PART_NOTE[part]] } },
      at,
    ];
  }
  if (rel === 'last' && part === 'night') {
    const date = plusDays(today, -1);
    return [{ ep: { k: 'day', day: { k: 'date', date, rel: true }, part, notes: [PART_NOTE.night] } }, at];
  }
  const ex = part === 'night' ? 'last night' : `yesterday ${part}`;
  const alt = part === 'night' ? '“last night” or “tonight”' : `“yesterday ${part}” or “this ${part}”`;
  return [refuse(`“${textOf(t, i, at)}” is not a time I can pin down: write ${alt}.`, [ex]), at];
}

/** A month named alone or with a year: the year makes it a span, without one it asks for more. */
function monthWithoutDay(t: Tok[], i: number, today: YMD): R<EndpointHit> {
  const out: R<EndpointHit> = [];
  for (const [m, k] of month(t, i)) {
    const y = today.month >= m ? today.year : today.year - 1;
    const comma = isWord(t, k, ',') ? k + 1 : k;
    for (const [, e] of year(t, comma)) {
      const f = recogniseAs('monthYear', atomText(t, [i, ...indices(k, e)]), ['year', 'month']);
      if (f && f.month === m) {
        const first = { year: f.year!, month: m, day: 1 };
        out.push([span(first, plusMonths(first, 1)), e]);
      } else {
        out.push([
          refuse(`“${textOf(t, i, e)}” is not a month I can read: write it like “${monthAbbr(m)} ${y}”.`, [
            `${monthAbbr(m)} ${y}`,
          ]),
          e,
        ]);
      }
    }
    out.push([
      refuse(
        `“${textOf(t, i, k)}” names a month but no day or year: give a day (“${monthAbbr(m)} 1”), days (“${monthAbbr(m)} 1 to ${monthAbbr(m)} ${daysIn(m, y)}”) or the month with its year (“${monthAbbr(m)} ${y}”).`,
        [`${monthAbbr(m)} ${y}`, `${monthAbbr(m)} 1`],
      ),
      k,
    ]);
  }
  return out;
}

function dayHitToEndpoint(h: DayHit, extra: Partial<{ part: Part }> = {}): EndpointHit {
  if (h.refusal) return { refusal: h.refusal };
  const notes = [...h.notes, ...(extra.part ? [PART_NOTE[extra.part]] : [])];
  const ago = h.ago && !extra.part ? { ago: h.ago } : {};
  return { ep: { k: 'day', day: h.ref, ...(h.wd ? { wd: h.wd } : {}), ...extra, ...ago, notes } };
}

// ------------------------------------------------------------------------------------------- shifts

const SHIFT_WORD = new Set(['shift']);
/** How many shifts "the last N shifts" may count back: a month of three shifts a day. */
export const MAX_SHIFT_COUNT = 100;

/**
 * "<label> shift" at `i`: a shift named by its name ("night shift") or by its start ("22:00 shift").
 * A word before "shift" that names none of the channel's shifts is refused with the ones it has.
 */
function labelledShift(t: Tok[], i: number, spans: ShiftSpan[]): R<ShiftSpan | Refusal> {
  const x = t[i];
  if (!x) return [];
  const first = spans[0]!;
  const unknown = (text: string) =>
    new Refusal(
      `“${text}” is not one of this channel's shifts (${describeShifts(spans)}): name one of them, like “the ${first.label} shift yesterday”, or write “last shift” or “this shift”.`,
      [`the ${first.label} shift yesterday`, 'last shift'],
    );
  const [colon, mm] = [t[i + 1], t[i + 2]];
  if (
    x.num &&
    x.s.length <= 2 &&
    colon?.s === ':' &&
    colon.glued &&
    mm?.num &&
    mm.glued &&
    mm.s.length === 2
  ) {
    if (!isWord(t, i + 3, 'shift')) return [];
    const start = `${x.s.padStart(2, '0')}:${mm.s}`;
    const s = spans.find((sp) => sp.start === start);
    return [[s ?? unknown(textOf(t, i, i + 4)), i + 4]];
  }
  if (x.num || !t[i + 1] || !SHIFT_WORD.has(t[i + 1]!.s) || t[i + 1]!.num) return [];
  if (['last', 'previous', 'this', 'current', 'the'].includes(x.s)) return [];
  if (x.s === 'next') {
    return [
      [
        new Refusal(
          '“next shift” has not started yet, so there is no data from it: write “this shift” for the one going on, or “last shift”.',
          ['last shift', 'this shift'],
        ),
        i + 2,
      ],
    ];
  }
  const s = spans.find((sp) => sp.name === x.s);
  return [[s ?? unknown(textOf(t, i, i + 2)), i + 2]];
}

function dayShift(d: DayHit, s: ShiftSpan | Refusal): EndpointHit {
  if (s instanceof Refusal) return { refusal: s };
  if (d.refusal) return { refusal: d.refusal };
  return {
    ep: { k: 'day', day: d.ref, ...(d.wd ? { wd: d.wd } : {}), shift: s, notes: [...d.notes, shiftNote(s)] },
  };
}

/**
 * "last shift", "this shift", "the previous shift", "last night shift", "the night shift yesterday",
 * "the morning shift on Tuesday", "yesterday's night shift", "the 22:00 shift on Nov 3".
 */
function shiftEndpoints(t: Tok[], i: number, g: GrammarCtx): R<EndpointHit> {
  const spans = g.shifts;
  if (!spans || spans.length === 0) return [];
  const out: R<EndpointHit> = [];
  const j = isWord(t, i, 'the') ? i + 1 : i;
  if (isWord(t, j, 'last', 'previous', 'this', 'current') && isWord(t, j + 1, 'shift')) {
    const which = isWord(t, j, 'this', 'current') ? 'this' : 'last';
    out.push([{ ep: { k: 'shift', which, notes: [] } }, j + 2]);
  }
  // "the last 3 shifts": the three most recent shifts that are over, one after the other.
  if (isWord(t, j, 'last', 'previous', 'past')) {
    for (const [count, k] of countAt(t, j + 1)) {
      if (!isWord(t, k, 'shifts')) continue;
      const ok = Number.isInteger(count.n) && count.n >= 1 && count.n <= MAX_SHIFT_COUNT;
      out.push([
        ok
          ? { ep: { k: 'shift', which: 'last', count: count.n, notes: [] } }
          : refuse(
              `“${textOf(t, i, k + 1)}” does not give a usable count of shifts: give a whole number from 1 to ${MAX_SHIFT_COUNT}, like “last 3 shifts”.`,
              ['last 3 shifts'],
            ),
        k + 1,
      ]);
    }
  }
  if (isWord(t, j, 'last', 'previous')) {
    for (const [s, k] of labelledShift(t, j + 1, spans)) {
      out.push([
        s instanceof Refusal
          ? { refusal: s }
          : {
              ep: {
                k: 'shift',
                which: 'last',
                span: s,
                ...(isWord(t, j, 'last') ? { saidLast: true as const } : {}),
                notes: [shiftNote(s)],
              },
            },
        k,
      ]);
    }
  }
  for (const [s, k] of labelledShift(t, j, spans)) {
    for (const [d, e] of dayRef(t, k, g)) out.push([dayShift(d, s), e]);
    if (s instanceof Refusal) {
      out.push([{ refusal: s }, k]);
      continue;
    }
    out.push([
      refuse(
        `“${textOf(t, i, k)}” needs a day: write “the ${s.label} shift yesterday”, “the ${s.label} shift on Monday”, or “last ${s.label} shift” for the most recent one that is over.`,
        [`the ${s.label} shift yesterday`, `last ${s.label} shift`],
      ),
      k,
    ]);
  }
  for (const [d, k] of dayRef(t, i, g)) {
    let m = k;
    if ((t[m]?.s === "'" || t[m]?.s === '’') && t[m]!.glued && t[m + 1]?.s === 's' && t[m + 1]!.glued) m += 2;
    else if (isWord(t, m, 'the')) m++;
    for (const [s, e] of labelledShift(t, m, spans)) out.push([dayShift(d, s), e]);
  }
  return out;
}

function pointOf(d: DayHit, c: ClockHit, text: string): EndpointHit {
  if (d.refusal) return { refusal: d.refusal };
  if (c.refusal) return { refusal: c.refusal };
  if (c.clock.midnight && d.ref.k !== 'none') {
    return refuse(
      `“${text}” is ambiguous: midnight could be the start or the end of that day. Write 00:00 with the day it starts, like “Nov 2 00:00”.`,
      ['yesterday 00:00 to today 00:00'],
    );
  }
  return { ep: { k: 'point', day: d.ref, clock: c.clock, ...(d.wd ? { wd: d.wd } : {}), notes: d.notes } };
}

const NONE: DayHit = { ref: { k: 'none' }, notes: [] };

/** The year printed last, after the date and the time (`date`, C's ctime: "Tue Mar 3 14:05:00 PST 2026"). */
function printed(t: Tok[], d: DayHit, e: number): R<DayHit> {
  if (d.ref.k !== 'monthDay' || !t[e]?.num || t[e]!.s.length !== 4 || d.refusal) return [];
  const date = { year: Number(t[e]!.s), month: d.ref.month, day: d.ref.day };
  return [[{ ...d, ref: { k: 'date', date } }, e + 1]];
}

/** Every reading of `t[i..]` as one endpoint; the caller keeps those that use every token. */
function endpoints(t: Tok[], i: number, g: GrammarCtx): R<EndpointHit> {
  const out: R<EndpointHit> = [];
  if (isWord(t, i, 'now') || (isWord(t, i, 'right') && isWord(t, i + 1, 'now'))) {
    out.push([{ ep: { k: 'now' } }, isWord(t, i, 'now') ? i + 1 : i + 2]);
  }
  for (const [a, j] of agoAt(t, i)) {
    if (a.unit !== 's' && a.unit !== 'm' && a.unit !== 'h') continue;
    out.push([
      a.ok ? { ep: { k: 'ago', n: a.n, unit: a.unit } } : { refusal: badCount(a.text, '3 hours ago to now') },
      j,
    ]);
  }
  out.push(...shiftEndpoints(t, i, g));
  out.push(...namedPeriod(t, i, g));
  for (const [d, j] of dayRef(t, i, g)) {
    out.push([dayHitToEndpoint(d), j]);
    if (t[j] && PART_WORDS.has(t[j]!.s)) {
      out.push([dayHitToEndpoint(d, { part: t[j]!.s as Part }), j + 1]);
    }
    const k = isWord(t, j, 'at') || isWord(t, j, ',') ? j + 1 : j;
    for (const [c, e] of clock(t, k)) {
      out.push([pointOf(d, c, textOf(t, i, e)), e]);
      for (const [p, f] of printed(t, d, e)) out.push([pointOf(p, c, textOf(t, i, f)), f]);
    }
  }
  const ci = isWord(t, i, 'at') ? i + 1 : i;
  for (const [c, j] of clock(t, ci)) {
    out.push([pointOf(NONE, c, textOf(t, i, j)), j]);
    for (const [d, e] of dayRef(t, j, g)) out.push([pointOf(d, c, textOf(t, i, e)), e]);
  }
  const di = isWord(t, i, 'the') ? i + 1 : i;
  for (const [n, j] of dayNumber(t, di)) out.push([{ dayOnly: n }, j]);
  // Last, so that none of them takes the place of a reading above.
  out.push(...offsetAt(t, i), ...weekAt(t, i), ...edgeAt(t, i, (u, k) => endpoints(u, k, g)));
  return out;
}

/** The one reading of `text` as an endpoint, a refusal, or undefined when it is not one. */
export function parseEndpointTokens(t: Tok[], g: GrammarCtx): EndpointHit | undefined {
  let refusal: EndpointHit | undefined;
  for (const [hit, j] of endpoints(t, 0, g)) {
    if (j !== t.length) continue;
    if ('refusal' in hit) refusal ??= hit;
    else return hit;
  }
  return refusal;
}

// ------------------------------------------------------------------------------------- rolling windows

export type RollingHit = { n: number; unit: Unit } | { refusal: Refusal } | undefined;

const FILLERS = ['in', 'over', 'for', 'during', 'within', 'from'];

/**
 * "last 3 days", "past 24 hours", "the last 2 weeks", "in the past hour", "last 90 minutes":
 * [now − N units, now]. "last week" (no number) is the calendar week, left to namedPeriod; with a
 * filler in front ("the last week") it could be either, so it is refused.
 */
export function rolling(t: Tok[]): RollingHit {
  let i = 0;
  let filler = false;
  if (isWord(t, i, ...FILLERS)) {
    i++;
    filler = true;
  }
  if (isWord(t, i, 'the')) {
    i++;
    filler = true;
  }
  if (!isWord(t, i, 'last', 'past', 'previous')) return undefined;
  const rel = t[i]!.s;
  i++;
  let n: number | undefined;
  let countText = '';
  const x = t[i];
  if (x?.num) {
    countText = x.s;
    n = x.s.length > 7 ? Number.POSITIVE_INFINITY : Number(x.s);
    i++;
  } else if (x && NUMBER_WORDS[x.s] !== undefined && t[i + 1] && UNITS.has(t[i + 1]!.s)) {
    countText = x.s;
    n = NUMBER_WORDS[x.s];
    i++;
  }
  const u = t[i];
  if (!u || u.num || i + 1 !== t.length) return undefined;
  const unit = n === undefined ? SINGULAR_UNITS.get(u.s) : UNITS.get(u.s);
  if (!unit) return undefined;
  if (n !== undefined) {
    if (!(n >= 1 && n <= 1_000_000)) {
      return {
        refusal: new Refusal(`“${countText}” is not a usable count: give a whole number from 1.`, [
          'last 3 days',
        ]),
      };
    }
    return { n, unit };
  }
  if (rel === 'past' || unit === 's' || unit === 'm' || unit === 'h') return { n: 1, unit };
  if (unit === 'd') {
    return {
      refusal: new Refusal(
        `“${textOf(t, 0, t.length)}” could mean yesterday or the last 24 hours: write “yesterday” or “past 24 hours”.`,
        ['yesterday', 'past 24 hours'],
        ['yesterday', 'past 24 hours'],
      ),
    };
  }
  if (!filler || (rel === 'previous' && isWord(t, 0, 'the'))) return undefined; // the calendar period
  const word = unit === 'w' ? 'week' : unit === 'mo' ? 'month' : 'year';
  const n2 = unit === 'w' ? '7 days' : word;
  return {
    refusal: new Refusal(
      `“${textOf(t, 0, t.length)}” could mean the last calendar ${word} or the past ${n2}: write “last ${word}” or “past ${n2}”.`,
      [`last ${word}`, `past ${n2}`],
      [`last ${word}`, `past ${n2}`],
    ),
  };
}
