import { type Ctx, MAX_NS, MIN_NS, makeCtx, ParseProblem } from './context.js';
import { describeInstant } from './describe.js';
import { type Clock, Refusal } from './endpoint.js';
import { combine, type EP, rollingRange, since, single } from './evaluate.js';
import { parseExact, parseLocalIso } from './exact.js';
import { parseEndpointTokens, rolling } from './grammar.js';
import { NAMED_SHIFTS_EXAMPLE, SHIFTS_EXAMPLE } from './shifts.js';
import { tokenize } from './tokens.js';
import type { ParseContext, RangeOutcome, RangesOutcome, TimeRange } from './types.js';

export const EXAMPLES: readonly string[] = [
  'yesterday 9am to 5pm',
  'last 3 days',
  'Nov 1 to Nov 3',
  'since Monday 8am',
  '2026-11-01T09:00:00Z to 2026-11-01T17:00:00Z',
];

const MAX_RANGE_CHARS = 200;
const MAX_RANGES = 50;

const fail = (error: string, examples: readonly string[] = []): RangeOutcome => ({
  ok: false,
  error,
  examples: [...new Set([...examples, ...EXAMPLES])],
});

// Slack clients turn " into “ ”, sometimes only on one side, so quotes at either end are dropped.
const EDGE_QUOTES = /^["'“”‘’„«»`]+|["'“”‘’„«»`]+$/g;

export function normalizeText(text: string): string {
  return String(text ?? '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(EDGE_QUOTES, '')
    .trim();
}

type EndpointParse = { ok: true; ep: EP } | { ok: false; refusal?: Refusal };

// Longer than any one end the grammar reads ("Wednesday, November 25th, 2026 at 12:30pm +05:30"), so the
// many ways of splitting a long text are each cheap to rule out.
const MAX_ENDPOINT_CHARS = 64;

function parseEndpoint(c: Ctx, text: string): EndpointParse {
  const t = text.trim();
  if (t === '' || t.length > MAX_ENDPOINT_CHARS) return { ok: false };
  const exact = parseExact(t);
  if (exact)
    return exact.ok
      ? {
          ok: true,
          ep: {
            k: 'instant',
            ns: exact.ns,
            ...(exact.offsetMin === undefined ? {} : { zone: { offsetMin: exact.offsetMin } }),
          },
        }
      : { ok: false, refusal: new Refusal(exact.error) };
  const local = parseLocalIso(t);
  if (local) {
    if (!local.ok) return { ok: false, refusal: new Refusal(local.error) };
    const v = local.value;
    const clock: Clock = {
      hour: v.hour,
      minute: v.minute,
      second: v.second,
      millisecond: Number(v.fractionNs / 1_000_000n),
      subNs: v.fractionNs % 1_000_000n,
    };
    const date = { year: v.year, month: v.month, day: v.day };
    return { ok: true, ep: { k: 'point', day: { k: 'date', date }, clock, notes: [] } };
  }
  const hit = parseEndpointTokens(tokenize(t), c.g);
  if (!hit) return { ok: false };
  if ('refusal' in hit) return { ok: false, refusal: hit.refusal };
  if ('dayOnly' in hit) return { ok: true, ep: { k: 'dayOnly', day: hit.dayOnly } };
  return { ok: true, ep: hit.ep };
}

// ------------------------------------------------------------------------------------------ the text

const SEPARATORS = /\s+(?:to|until|till|through|thru)\s+|\s*(?:–|—|\.\.)\s*|\s+-\s+/gi;
const HYPHEN = /-/g;

interface Attempt {
  refusal?: Refusal;
}

function note(a: Attempt, p: EndpointParse) {
  if (!p.ok && p.refusal && !a.refusal) a.refusal = p.refusal;
}

function pair(c: Ctx, left: string, right: string, a: Attempt): TimeRange | null {
  const l = parseEndpoint(c, left);
  note(a, l);
  if (!l.ok) return null;
  const r = parseEndpoint(c, right);
  note(a, r);
  if (!r.ok) return null;
  try {
    return combine(c, l.ep, r.ep, [left.trim(), right.trim()]);
  } catch (e) {
    if (!(e instanceof ParseProblem)) throw e;
    a.refusal ??= new Refusal(e.message, e.examples);
    return null;
  }
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

function problem(r: Refusal): ParseProblem {
  return new ParseProblem(r.error, r.examples);
}

const SHIFT_WORDS = /(?:^|[^a-z])shifts?(?![a-z])/i;

/** A phrase about shifts, in a channel that declared none: how to declare them. */
function noShifts(t: string): ParseProblem {
  return new ParseProblem(
    `“${t}” needs this channel's shifts, and none are declared here. Declare them once in the channel with “/tsai use ${SHIFTS_EXAMPLE}” (or with names: “/tsai use ${NAMED_SHIFTS_EXAMPLE}”); until then, give the hours, like “yesterday 6am to 2pm”.`,
    ['yesterday 6am to 2pm'],
  );
}

/**
 * "yesterday from 9am to 5pm", "2 weeks ago from 08:00 to 16:00", "Monday between 9am and 5pm": a day,
 * then two times of day on it. Undefined when the text is not of that shape.
 */
function dayThenTimes(c: Ctx, t: string, a: Attempt): TimeRange | undefined {
  const m = /^(.+?)\s+(from|between)\s+(.+)$/i.exec(t);
  if (!m) return undefined;
  const day = parseEndpoint(c, m[1]!);
  if (!day.ok || day.ep.k !== 'day' || day.ep.part || day.ep.shift) return undefined;
  const dayEp = day.ep;
  const rest = m[3]!;
  const re = m[2]!.toLowerCase() === 'between' ? / and /gi : new RegExp(SEPARATORS.source, 'gi');
  for (let s = re.exec(rest); s; s = re.exec(rest)) {
    const [left, right] = [rest.slice(0, s.index).trim(), rest.slice(s.index + s[0].length).trim()];
    const l = parseEndpoint(c, left);
    const r = parseEndpoint(c, right);
    if (!l.ok || !r.ok || l.ep.k !== 'point' || r.ep.k !== 'point') continue;
    if (l.ep.day.k !== 'none' || r.ep.day.k !== 'none') continue;
    const start: EP = { ...l.ep, day: dayEp.day, ...(dayEp.wd ? { wd: dayEp.wd } : {}), notes: dayEp.notes };
    try {
      return combine(c, start, r.ep, [`${m[1]} ${left}`, right]);
    } catch (e) {
      if (!(e instanceof ParseProblem)) throw e;
      a.refusal ??= new Refusal(e.message, e.examples);
      return undefined;
    }
  }
  return undefined;
}

/** The whole text as one range, or the problem with it. */
function interpret(c: Ctx, t: string, explain = true): TimeRange | ParseProblem {
  if (!c.g.shifts && SHIFT_WORDS.test(t)) return noShifts(t);
  const roll = rolling(tokenize(t));
  if (roll) return 'refusal' in roll ? problem(roll.refusal) : rollingRange(c, roll.n, roll.unit);
  const a: Attempt = {};

  const sinceM = /^(?:ever\s+)?since\s+(.+)$/i.exec(t);
  if (sinceM) {
    const p = parseEndpoint(c, sinceM[1]!);
    if (p.ok) return notYetCome(c, since(c, p.ep), sinceM[1]!);
    return p.refusal ? problem(p.refusal) : unreadable(c, t, explain);
  }
  const open = /^(?:until|till|before|up\s+to|through)\s+(.+)$/i.exec(t);
  if (open && parseEndpoint(c, open[1]!).ok) {
    return new ParseProblem(`“${t}” has no start: give one, like “yesterday 9am to ${open[1]}”.`, [
      `yesterday 9am to ${open[1]}`,
    ]);
  }
  const between = /^between\s+(.+)$/i.exec(t);
  if (between) {
    const rest = between[1]!;
    const and = / and /gi;
    for (let m = and.exec(rest); m; m = and.exec(rest)) {
      const range = pair(c, rest.slice(0, m.index), rest.slice(m.index + m[0].length), a);
      if (range) return range;
    }
    if (a.refusal) return problem(a.refusal);
    return new ParseProblem(
      `“${t}” should read “between <start> and <end>”, e.g. “between 9am and 5pm yesterday”.`,
      ['between 9am and 5pm yesterday'],
    );
  }
  const dayFirst = dayThenTimes(c, t, a);
  if (dayFirst) return dayFirst;
  const from = /^from\s+(.+)$/i.exec(t);
  const body = from ? from[1]! : t;
  const separated = splitAt(c, body, SEPARATORS, a);
  if (separated) return separated;
  if (!from) {
    const one = parseEndpoint(c, body);
    note(a, one);
    if (one.ok) return single(c, one.ep, body);
  }
  const hyphenated = splitAt(c, body, HYPHEN, a);
  if (hyphenated) return hyphenated;
  if (from && !a.refusal && parseEndpoint(c, body).ok) {
    return new ParseProblem(
      `“${t}” has no end: write “${t} to …”, or “since ${body}” for a range that ends now.`,
      [`since ${body}`],
    );
  }
  if (a.refusal) return problem(a.refusal);
  return unreadable(c, t, explain);
}

/** "since 8am" before 8am: the user wrote no end, so the problem is the start, not the order of the two. */
function notYetCome(c: Ctx, r: TimeRange, from: string): TimeRange | ParseProblem {
  if (r.startNs <= c.nowNs) return r;
  return new ParseProblem(
    `The end (now, ${describeInstant(c.nowNs, c.tz)}) is not after the start (${describeInstant(r.startNs, c.tz)}): “${from}” has not come yet. Give a start before now, like “since yesterday 8am”.`,
    ['since yesterday 8am'],
  );
}

// No range the grammar reads is longer than this many words ("from the 1st of November 2025 9:00 EST to …").
const MAX_RANGE_WORDS = 16;

/** What could not be read; when a leading part of the text is a range, it says which part that was. */
function unreadable(c: Ctx, t: string, explain: boolean): ParseProblem {
  const words = explain ? t.split(' ') : [];
  for (let n = Math.min(words.length - 1, MAX_RANGE_WORDS); n >= 1; n--) {
    const head = words.slice(0, n).join(' ');
    let r: TimeRange | ParseProblem;
    try {
      r = interpret(c, head, false);
    } catch (e) {
      if (e instanceof ParseProblem) continue;
      throw e;
    }
    if (!(r instanceof ParseProblem)) {
      const rest = words.slice(n).join(' ');
      return new ParseProblem(
        `I could only read part of “${t}” (“${head}”); the rest (“${rest}”) is not something I understand, and I won't guess.`,
      );
    }
  }
  return new ParseProblem(`I could not read “${t}” as a time range.`);
}

function checkRange(c: Ctx, r: TimeRange, requirePast: boolean): ParseProblem | null {
  if (r.startNs < MIN_NS || r.endNs < MIN_NS) {
    return new ParseProblem(
      `The range would start at ${describeInstant(r.startNs, c.tz)}, before 1 Jan 1970 00:00 UTC, and the service keeps nothing earlier. Start on or after 1970-01-01, like “2025-11-01 to 2025-11-03”.`,
      ['2025-11-01 to 2025-11-03'],
    );
  }
  if (r.endNs > MAX_NS || r.startNs > MAX_NS) {
    return new ParseProblem(
      `The range would end at ${describeInstant(r.endNs, c.tz)}, after 11 Apr 2262 23:47 UTC, the latest time the service can store. Give a range within it, like “2025-11-01 to 2025-11-03”.`,
      ['2025-11-01 to 2025-11-03'],
    );
  }
  if (r.endNs <= r.startNs) {
    return new ParseProblem(
      `The end (${describeInstant(r.endNs, c.tz)}) is not after the start (${describeInstant(r.startNs, c.tz)}).`,
    );
  }
  if (requirePast && r.endNs > c.nowNs) {
    return new ParseProblem(
      `The range ends in the future (${describeInstant(r.endNs, c.tz)}), where no data exists yet; here it must end by now (${describeInstant(c.nowNs, c.tz)}).`,
      ['yesterday 9am to now'],
    );
  }
  return null;
}

function parseWith(c: Ctx, text: string, requirePast: boolean): RangeOutcome {
  const o = readRange(c, text, requirePast);
  return o.ok ? o : { ...o, examples: workingNow(c, o.examples, requirePast) };
}

/**
 * The examples a refusal offers that read at this very moment: "today" is empty at the stroke of
 * midnight, and "yesterday 9am to now" fails where the ranges must end before 9am. An offered example
 * that is then refused would send a person in a circle.
 */
function workingNow(c: Ctx, examples: readonly string[], requirePast: boolean): string[] {
  return examples.filter((e) => readRange(c, e, requirePast).ok);
}

function readRange(c: Ctx, text: string, requirePast: boolean): RangeOutcome {
  const t = normalizeText(text);
  if (t === '') return fail('No time range given.');
  if (t.length > MAX_RANGE_CHARS)
    return fail(`That time range is too long (over ${MAX_RANGE_CHARS} characters).`);
  let r: TimeRange | ParseProblem;
  try {
    r = interpret(c, t);
  } catch (e) {
    if (e instanceof ParseProblem) return fail(e.message, e.examples);
    throw e;
  }
  if (r instanceof ParseProblem) return fail(r.message, r.examples);
  const bad = checkRange(c, r, requirePast);
  return bad ? fail(bad.message, bad.examples) : { ok: true, range: r };
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
