import { createRequire } from 'node:module';
import type * as Chrono from 'chrono-node';
import { describeInstant } from './describe.js';
import { msToNs, nsSubMs, nsToMsFloor, parseExact, parseLocalIso } from './exact.js';
import type { ParseContext, RangeOutcome, RangesOutcome, TimeRange } from './types.js';
import {
  addDays,
  addMonths,
  isoWeekday,
  isValidTimeZone,
  midnight,
  offsetMinutesAt,
  type Wall,
  wallAt,
  wallToInstantMs,
} from './zone.js';

export const EXAMPLES: readonly string[] = [
  'yesterday 9am to 5pm',
  'last 3 days',
  'Nov 1 to Nov 3',
  'since Monday 8am',
  '2026-11-01T09:00:00Z to 2026-11-01T17:00:00Z',
];

const MAX_RANGE_CHARS = 200;
const MAX_RANGES = 50;

interface Ctx {
  nowNs: bigint;
  nowMs: number;
  tz: string;
  nowWall: Wall;
  ref: { instant: Date; timezone: number };
}

interface DateParts {
  year: number;
  month: number;
  day: number;
}

interface TimeParts {
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  subMsNs: bigint;
}

type Endpoint =
  | { kind: 'exact'; ns: bigint }
  | {
      kind: 'wall';
      date: DateParts;
      dateKnown: boolean;
      weekdayOnly: boolean;
      time: TimeParts | null; // null: a whole day
      offsetMin?: number; // an explicit zone in the text ("9am EST")
    }
  | { kind: 'dayOfMonth'; day: number }; // the "3" of "Nov 1-3"

type EndpointParse = { ok: true; ep: Endpoint } | { ok: false; error?: string; understood?: string };

class ParseProblem {
  constructor(readonly message: string) {}
}

const fail = (error: string): RangeOutcome => ({ ok: false, error, examples: [...EXAMPLES] });

// Slack clients turn " into “ ”, sometimes only on one side, so quotes at either end are dropped.
const EDGE_QUOTES = /^["'“”‘’„«»`]+|["'“”‘’„«»`]+$/g;

export function normalizeText(text: string): string {
  return String(text ?? '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(EDGE_QUOTES, '')
    .trim();
}

function makeCtx(ctx: ParseContext): Ctx | string {
  if (!ctx || !isValidTimeZone(ctx.timeZone)) {
    return `“${String(ctx?.timeZone)}” is not a time zone I know (use an IANA name such as Europe/Berlin).`;
  }
  let nowNs: bigint;
  if (typeof ctx.now === 'bigint') nowNs = ctx.now;
  else if (ctx.now instanceof Date && Number.isFinite(ctx.now.getTime())) nowNs = msToNs(ctx.now.getTime());
  else return 'The reference time is not a valid instant.';
  const nowMs = nsToMsFloor(nowNs);
  return {
    nowNs,
    nowMs,
    tz: ctx.timeZone,
    nowWall: wallAt(ctx.timeZone, nowMs),
    ref: { instant: new Date(nowMs), timezone: offsetMinutesAt(ctx.timeZone, nowMs) },
  };
}

function wallNs(c: Ctx, w: Wall, subMsNs = 0n): bigint {
  return msToNs(wallToInstantMs(c.tz, w)) + subMsNs;
}

function dayStartNs(c: Ctx, d: DateParts): bigint {
  return wallNs(c, { ...d, hour: 0, minute: 0, second: 0, millisecond: 0 });
}

function resolve(c: Ctx, ep: Endpoint, role: 'start' | 'end'): bigint {
  if (ep.kind === 'exact') return ep.ns;
  if (ep.kind === 'dayOfMonth') throw new ParseProblem('A bare day number needs a month before it.');
  if (ep.time === null) {
    const d = role === 'end' ? addDays({ ...ep.date, ...zeroTime }, 1) : ep.date;
    return dayStartNs(c, d);
  }
  const w: Wall = { ...ep.date, ...ep.time };
  if (ep.offsetMin !== undefined) {
    const d = new Date(0);
    d.setUTCFullYear(w.year, w.month - 1, w.day);
    d.setUTCHours(w.hour, w.minute, w.second, w.millisecond);
    return msToNs(d.getTime() - ep.offsetMin * 60_000) + ep.time.subMsNs;
  }
  return wallNs(c, w, ep.time.subMsNs);
}

const zeroTime = { hour: 0, minute: 0, second: 0, millisecond: 0 };

// chrono-node costs ~120 ms of CPU to load, a quarter of the bot's start-up, and only commands with a
// time range need it: it is loaded on the first parse (synchronously, from its CommonJS build).
let casual: Chrono.Chrono | undefined;
const chronoParser = {
  parse(text: string, ref: Parameters<Chrono.Chrono['parse']>[1]) {
    casual ??= (createRequire(import.meta.url)('chrono-node') as typeof Chrono).casual;
    return casual.parse(text, ref);
  },
};

function parseEndpoint(c: Ctx, text: string): EndpointParse {
  const t = text.trim();
  if (t === '') return { ok: false };
  const lower = t.toLowerCase();
  if (lower === 'now') return { ok: true, ep: { kind: 'exact', ns: c.nowNs } };
  const exact = parseExact(t);
  if (exact)
    return exact.ok ? { ok: true, ep: { kind: 'exact', ns: exact.ns } } : { ok: false, error: exact.error };
  const local = parseLocalIso(t);
  if (local) {
    if (!local.ok) return { ok: false, error: local.error };
    const v = local.value;
    const ms = Number(v.fractionNs / 1_000_000n);
    return {
      ok: true,
      ep: {
        kind: 'wall',
        date: { year: v.year, month: v.month, day: v.day },
        dateKnown: true,
        weekdayOnly: false,
        time: {
          hour: v.hour,
          minute: v.minute,
          second: v.second,
          millisecond: ms,
          subMsNs: v.fractionNs % 1_000_000n,
        },
      },
    };
  }
  const dom = /^(\d{1,2})(?:st|nd|rd|th)?$/i.exec(t);
  if (dom) return { ok: true, ep: { kind: 'dayOfMonth', day: Number(dom[1]) } };
  const results = chronoParser.parse(t, c.ref);
  const r = results[0];
  if (!r || results.length !== 1 || r.index !== 0 || r.text.length !== t.length || r.end) {
    return { ok: false, understood: r?.text };
  }
  const s = r.start;
  const dayCertain = s.isCertain('day');
  const weekdayCertain = s.isCertain('weekday');
  if (!dayCertain && !weekdayCertain && (s.isCertain('month') || s.isCertain('year'))) {
    return { ok: false, error: `“${t}” names a month or year but no day: give a day such as “Nov 1”.` };
  }
  const time: TimeParts | null = s.isCertain('hour')
    ? {
        hour: s.get('hour') ?? 0,
        minute: s.get('minute') ?? 0,
        second: s.get('second') ?? 0,
        millisecond: s.get('millisecond') ?? 0,
        subMsNs: 0n,
      }
    : null;
  const ep: Endpoint = {
    kind: 'wall',
    date: { year: s.get('year')!, month: s.get('month')!, day: s.get('day')! },
    dateKnown: dayCertain || weekdayCertain || s.isCertain('month'),
    // Only a bare weekday is pinned to the past; "next Friday" means what it says.
    weekdayOnly: weekdayCertain && !dayCertain && !WEEKDAY_MODIFIER.test(t),
    time,
  };
  if (s.isCertain('timezoneOffset')) {
    const off = s.get('timezoneOffset');
    if (off !== null && off !== undefined) ep.offsetMin = off;
  }
  return { ok: true, ep };
}

const WEEKDAY_MODIFIER = /\b(next|this|coming|last|past|previous)\b/i;

/** A weekday on its own ("Monday") means the most recent one, never a future one. */
function pastWeekday(c: Ctx, ep: Endpoint): Endpoint {
  if (ep.kind !== 'wall' || !ep.weekdayOnly) return ep;
  if (resolve(c, ep, 'start') <= c.nowNs) return ep;
  return { ...ep, date: dateOf(addDays({ ...ep.date, ...zeroTime }, -7)) };
}

function dateOf(w: DateParts): DateParts {
  return { year: w.year, month: w.month, day: w.day };
}

function combine(c: Ctx, startEp: Endpoint, endEp: Endpoint): TimeRange {
  let s = startEp;
  let e = endEp;
  if (s.kind === 'dayOfMonth') throw new ParseProblem('A range cannot start with a bare day number.');
  if (e.kind === 'dayOfMonth') {
    if (s.kind !== 'wall' || !s.dateKnown || s.weekdayOnly) {
      throw new ParseProblem(
        `A bare day number (“${e.day}”) as the end needs a start with a month, like “Nov 1-3”.`,
      );
    }
    const probe = new Date(Date.UTC(2000, 0, 1));
    probe.setUTCFullYear(s.date.year, s.date.month - 1, e.day);
    if (probe.getUTCDate() !== e.day) throw new ParseProblem(`Day ${e.day} does not exist in that month.`);
    e = { kind: 'wall', date: { ...s.date, day: e.day }, dateKnown: true, weekdayOnly: false, time: null };
  }
  s = pastWeekday(c, s);
  if (s.kind === 'wall' && e.kind === 'wall') {
    if (!s.dateKnown && e.dateKnown) s = { ...s, date: e.date, dateKnown: true };
    else if (s.dateKnown && !e.dateKnown) e = { ...e, date: s.date, dateKnown: true };
  }
  const startNs = resolve(c, s, 'start');
  let endNs = resolve(c, e, 'end');
  if (e.kind === 'wall' && e.weekdayOnly && endNs <= startNs) {
    endNs = resolve(c, { ...e, date: dateOf(addDays({ ...e.date, ...zeroTime }, 7)) }, 'end');
  }
  return { startNs, endNs };
}

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
  twelve: 12,
};

const UNIT_ALIASES: [RegExp, 's' | 'm' | 'h' | 'd' | 'w' | 'mo'][] = [
  [/^(s|secs?|seconds?)$/, 's'],
  [/^(m|mins?|minutes?)$/, 'm'],
  [/^(h|hrs?|hours?)$/, 'h'],
  [/^(d|days?)$/, 'd'],
  [/^(w|wks?|weeks?)$/, 'w'],
  [/^(mo|mos|months?)$/, 'mo'],
];

const RELATIVE =
  /^(?:(?:in|over|for|during) the )?(last|past|previous) (?:(\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|twelve) ?)?([a-z]+)$/;

function relativeRange(c: Ctx, lower: string): TimeRange | null {
  const m = RELATIVE.exec(lower);
  if (!m) return null;
  const unit = UNIT_ALIASES.find(([re]) => re.test(m[3]!))?.[1];
  if (!unit) return null;
  const hasNumber = m[2] !== undefined;
  const n = hasNumber ? (NUMBER_WORDS[m[2]!] ?? Number(m[2])) : 1;
  if (!Number.isSafeInteger(n) || n <= 0 || n > 100_000)
    throw new ParseProblem(`“${m[2]}” is not a usable count.`);
  if (!hasNumber && m[1] !== 'past' && (unit === 'w' || unit === 'mo')) return null; // "last week": calendar
  const secondsPer = { s: 1n, m: 60n, h: 3600n } as const;
  if (unit === 's' || unit === 'm' || unit === 'h') {
    return { startNs: c.nowNs - BigInt(n) * secondsPer[unit] * 1_000_000_000n, endNs: c.nowNs };
  }
  const back = unit === 'mo' ? addMonths(c.nowWall, -n) : addDays(c.nowWall, -(unit === 'w' ? 7 * n : n));
  return { startNs: wallNs(c, back, nsSubMs(c.nowNs)), endNs: c.nowNs };
}

function calendarRange(c: Ctx, lower: string): TimeRange | null {
  const today = midnight(c.nowWall);
  const monday = addDays(today, 1 - isoWeekday(today));
  const firstOfMonth = { ...today, day: 1 };
  switch (lower) {
    case 'today':
      return { startNs: wallNs(c, today), endNs: c.nowNs };
    case 'yesterday':
      return { startNs: wallNs(c, addDays(today, -1)), endNs: wallNs(c, today) };
    case 'this week':
      return { startNs: wallNs(c, monday), endNs: c.nowNs };
    case 'last week':
    case 'previous week':
      return { startNs: wallNs(c, addDays(monday, -7)), endNs: wallNs(c, monday) };
    case 'this month':
      return { startNs: wallNs(c, firstOfMonth), endNs: c.nowNs };
    case 'last month':
    case 'previous month':
      return { startNs: wallNs(c, addMonths(firstOfMonth, -1)), endNs: wallNs(c, firstOfMonth) };
    default:
      return null;
  }
}

const SEPARATORS = /\s+(?:to|until|till|through|thru)\s+|\s*(?:–|—|\.\.)\s*|\s+-\s+/gi;
const HYPHEN = /-/g;

interface Attempt {
  range?: TimeRange;
  error?: string;
  understood?: string;
}

function pair(c: Ctx, left: string, right: string, a: Attempt): TimeRange | null {
  const l = parseEndpoint(c, left);
  const r = l.ok ? parseEndpoint(c, right) : null;
  if (l.ok && r?.ok) return combine(c, l.ep, r.ep);
  const bad = !l.ok ? l : r && !r.ok ? r : null;
  if (bad?.error && !a.error) a.error = bad.error;
  return null;
}

function splitAt(c: Ctx, t: string, re: RegExp, a: Attempt): TimeRange | null {
  re.lastIndex = 0;
  for (let m = re.exec(t); m; m = re.exec(t)) {
    const left = t.slice(0, m.index).trim();
    const right = t.slice(m.index + m[0].length).trim();
    if (left && right) {
      const range = pair(c, left, right, a);
      if (range) return range;
    }
  }
  return null;
}

function single(c: Ctx, t: string, a: Attempt): TimeRange | null {
  const p = parseEndpoint(c, t);
  if (!p.ok) {
    if (p.error) a.error = p.error;
    if (p.understood) a.understood = p.understood;
    return null;
  }
  const ep = pastWeekday(c, p.ep);
  if (ep.kind === 'exact') {
    throw new ParseProblem(
      `“${t}” is a single instant, not a range: add an end (“${t} to …”) or write “since ${t}”.`,
    );
  }
  if (ep.kind === 'dayOfMonth') return null;
  if (ep.time !== null) {
    throw new ParseProblem(
      `“${t}” is a single point in time, not a range: add an end (“${t} to 5pm”) or write “since ${t}”.`,
    );
  }
  const startNs = resolve(c, ep, 'start');
  const dayEnd = resolve(c, ep, 'end');
  // A day that is still running ends now.
  const endNs = startNs <= c.nowNs && c.nowNs < dayEnd ? c.nowNs : dayEnd;
  return { startNs, endNs };
}

function interpret(c: Ctx, t: string): TimeRange | string {
  const lower = t.toLowerCase();
  const a: Attempt = {};
  const direct = calendarRange(c, lower) ?? relativeRange(c, lower);
  if (direct) return direct;
  const since = /^since\s+(.+)$/i.exec(t);
  if (since) {
    const p = parseEndpoint(c, since[1]!);
    if (p.ok) {
      if (p.ep.kind === 'dayOfMonth') return `“${t}” needs a month, like “since Nov 3”.`;
      const ep = pastWeekday(c, p.ep);
      return { startNs: resolve(c, ep, 'start'), endNs: c.nowNs };
    }
    return p.error ?? unreadable(since[1]!, p.understood);
  }
  const between = /^between\s+(.+)$/i.exec(t);
  if (between) {
    const rest = between[1]!;
    const and = / and /gi;
    for (let m = and.exec(rest); m; m = and.exec(rest)) {
      const range = pair(c, rest.slice(0, m.index), rest.slice(m.index + m[0].length), a);
      if (range) return range;
    }
    return a.error ?? `“${t}” should read “between <start> and <end>”, e.g. “between 9am and 5pm yesterday”.`;
  }
  const from = /^from\s+(.+)$/i.exec(t);
  const body = from ? from[1]! : t;
  // Unambiguous separators first; a lone hyphen only after the whole text failed as one date ("2026-11-01").
  const result =
    splitAt(c, body, SEPARATORS, a) ?? (from ? null : single(c, body, a)) ?? splitAt(c, body, HYPHEN, a);
  if (result) return result;
  if (from && !a.error && parseEndpoint(c, body).ok) {
    return `“${t}” has no end: write “${t} to …”, or “since ${body}” for a range that ends now.`;
  }
  return a.error ?? unreadable(t, a.understood ?? chronoParser.parse(t, c.ref)[0]?.text);
}

function unreadable(t: string, understood?: string): string {
  if (understood && understood.length < t.length) {
    const rest = t.replace(understood, ' ').replace(/\s+/g, ' ').trim();
    return `I could only read part of “${t}” (“${understood}”); the rest (“${rest}”) is not something I understand, and I won't guess.`;
  }
  return `I could not read “${t}” as a time range.`;
}

function checkRange(c: Ctx, r: TimeRange, requirePast: boolean): string | null {
  if (r.endNs <= r.startNs) {
    return `The end (${describeInstant(r.endNs, c.tz)}) is not after the start (${describeInstant(r.startNs, c.tz)}).`;
  }
  if (requirePast && r.endNs > c.nowNs) {
    return `The range ends in the future (${describeInstant(r.endNs, c.tz)}); here it must end by now (${describeInstant(c.nowNs, c.tz)}).`;
  }
  return null;
}

function parseWith(c: Ctx, text: string, requirePast: boolean): RangeOutcome {
  const t = normalizeText(text);
  if (t === '') return fail('No time range given.');
  if (t.length > MAX_RANGE_CHARS)
    return fail(`That time range is too long (over ${MAX_RANGE_CHARS} characters).`);
  let r: TimeRange | string;
  try {
    r = interpret(c, t);
  } catch (e) {
    if (e instanceof ParseProblem) return fail(e.message);
    throw e;
  }
  if (typeof r === 'string') return fail(r);
  const problem = checkRange(c, r, requirePast);
  return problem ? fail(problem) : { ok: true, range: r };
}

export function parseTimeRange(text: string, ctx: ParseContext): RangeOutcome {
  const c = makeCtx(ctx);
  if (typeof c === 'string') return fail(c);
  return parseWith(c, text, ctx.requirePast === true);
}

export function parseTimeRanges(text: string, ctx: ParseContext): RangesOutcome {
  const c = makeCtx(ctx);
  if (typeof c === 'string') return fail(c) as RangesOutcome;
  const parts = String(text ?? '')
    .split(/[;\n]/)
    .map(normalizeText)
    .filter((p) => p !== '');
  if (parts.length === 0) return fail('No time range given.') as RangesOutcome;
  if (parts.length > MAX_RANGES) return fail(`Too many ranges (at most ${MAX_RANGES}).`) as RangesOutcome;
  const items: { text: string; range: TimeRange }[] = [];
  for (const [i, part] of parts.entries()) {
    const o = parseWith(c, part, ctx.requirePast === true);
    if (!o.ok) {
      const where = parts.length > 1 ? `Range ${i + 1} (“${part}”): ` : '';
      return { ok: false, error: where + o.error, examples: o.examples };
    }
    items.push({ text: part, range: o.range });
  }
  items.sort((x, y) => (x.range.startNs < y.range.startNs ? -1 : x.range.startNs > y.range.startNs ? 1 : 0));
  for (let i = 1; i < items.length; i++) {
    const prev = items[i - 1]!;
    const cur = items[i]!;
    if (cur.range.startNs < prev.range.endNs) {
      return fail(
        `“${prev.text}” and “${cur.text}” overlap; give ranges that do not overlap.`,
      ) as RangesOutcome;
    }
  }
  return { ok: true, ranges: items.map((x) => x.range) };
}
