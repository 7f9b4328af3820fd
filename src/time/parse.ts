import { clockWords, hhmm, onDial, spanReadings, withTime } from './clock-spans.js';
import { type Ctx, MAX_NS, MIN_NS, makeCtx, NotARange, ParseProblem } from './context.js';
import { describeInstant } from './describe.js';
import type { EP } from './endpoint.js';
import { type Clock, PART_NOTE, PARTS, Refusal } from './endpoint.js';
import { combine, rollingRange, since, single, spanProblem } from './evaluate.js';
import { parseExact, parseLocalIso } from './exact.js';
import { parseEndpointTokens, rolling } from './grammar.js';
import { hourSpan } from './hour-spans.js';
import { isoInterval } from './iso-interval.js';
import { inEnglish, type Language } from './languages/index.js';
import { NAMED_SHIFTS_EXAMPLE, SHIFTS_EXAMPLE } from './shifts.js';
import { tokenize } from './tokens.js';
import type {
  FoundRange,
  ParseContext,
  RangeOutcome,
  RangesOutcome,
  TimeRange,
  TimeReading,
} from './types.js';
import { monthSpan, soFar, toDate } from './wording.js';

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

// JavaScript prints the zone's name in brackets after its offset ("… GMT+0100 (Central European Standard
// Time)"); the offset says it all.
const ZONE_NAME_AFTER_OFFSET = /((?:GMT|UTC)[+-]\d{4}) \([^()]{1,60}\)/gi;

export function normalizeText(text: string): string {
  return String(text ?? '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(EDGE_QUOTES, '')
    .trim()
    .replace(ZONE_NAME_AFTER_OFFSET, '$1');
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
      h24: true, // ISO 8601 times are on the 24-hour clock
      text: t.slice(11),
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
    a.refusal ??= new Refusal(e.message, e.examples, e.readings);
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
  return new ParseProblem(r.error, r.examples, r.readings);
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
      a.refusal ??= new Refusal(e.message, e.examples, e.readings);
      return undefined;
    }
  }
  return undefined;
}

/**
 * The whole text as one range, or the problem with it. The forms read beside the grammar (spans of hours,
 * ISO intervals, …) are tried only for a text the grammar does not read, so none of them changes a reading
 * the grammar makes. `explain`: for a text not read at all, say which leading part of it could be.
 */
function interpret(c: Ctx, t: string, explain = true): TimeRange | ParseProblem {
  let r: TimeRange | ParseProblem;
  try {
    r = interpretWords(c, t);
  } catch (e) {
    if (!(e instanceof ParseProblem)) throw e;
    r = e;
  }
  if (!(r instanceof ParseProblem)) return r;
  const other = otherForms(c, t);
  if (other) return other;
  return r instanceof NotARange && explain ? unreadable(c, t, true) : r;
}

/** The forms read beside the grammar, or undefined when the text is none of them. */
function otherForms(c: Ctx, t: string): TimeRange | ParseProblem | undefined {
  const current = toDate(t);
  if (current) return interpret(c, current, false);
  const inner = soFar(t);
  if (inner) return sinceItBegan(c, inner);
  try {
    return isoInterval(c, t) ?? monthSpan(c, t) ?? hoursOfDay(c, t);
  } catch (e) {
    if (!(e instanceof ParseProblem)) throw e;
    return e;
  }
}

/** "today so far", "this shift so far": the stretch going on, which ends now; one that is over is refused. */
function sinceItBegan(c: Ctx, inner: string): TimeRange | ParseProblem {
  const r = interpret(c, inner, false);
  if (r instanceof ParseProblem || r.endNs === c.nowNs) return r;
  return new ParseProblem(
    `“${inner}” is not going on now, so none of it is “so far”: write “${inner}” for all of it.`,
    [inner],
  );
}

const isPartNote = (n: string) => (Object.values(PART_NOTE) as string[]).includes(n);

/** "yesterday 8-4", "between 6 and 8 this evening": hours of a day, in the half of the day they fit. */
function hoursOfDay(c: Ctx, t: string): TimeRange | ParseProblem | undefined {
  const span = hourSpan(t, c.g);
  if (!span) return undefined;
  const { day, dayText, a, b } = span;
  const picks = spanReadings(a, b, day.part);
  if (picks.length === 0 && !day.part) return undefined;
  if (picks.length === 0) {
    const p = PARTS[day.part!];
    return new ParseProblem(
      `“${t}”: ${a.text} to ${b.text} is not in the ${day.part} (${hhmm(p.from * 3_600_000)}–${hhmm(p.to * 3_600_000)}). Give the day and the hours, like “yesterday 6pm to 8pm”.`,
      ['yesterday 6pm to 8pm'],
    );
  }
  if (picks.length > 1) {
    return spanProblem(
      t,
      picks,
      (p) => `${dayText} ${clockWords(p.start, 'start')} to ${clockWords(p.end, 'end')}`,
    );
  }
  const p = picks[0]!;
  const halves = onDial(a, b) ? [`${a.text}–${b.text} = ${hhmm(p.start)}–${hhmm(p.end)}`] : [];
  const start: EP = {
    k: 'point',
    day: day.day,
    ...(day.wd ? { wd: day.wd } : {}),
    clock: withTime(a, p.start),
    notes: [...day.notes.filter((n) => !isPartNote(n)), ...halves],
  };
  const end: EP = { k: 'point', day: { k: 'none' }, clock: withTime(b, p.end), notes: [] };
  return combine(c, start, end, [`${dayText} ${a.text}`, `${b.text}`]);
}

function interpretWords(c: Ctx, t: string): TimeRange | ParseProblem {
  if (!c.g.shifts && SHIFT_WORDS.test(t)) return noShifts(t);
  const roll = rolling(tokenize(t));
  if (roll) return 'refusal' in roll ? problem(roll.refusal) : rollingRange(c, roll.n, roll.unit);
  const a: Attempt = {};

  const sinceM = /^(?:ever\s+)?since\s+(.+)$/i.exec(t);
  if (sinceM) {
    const p = parseEndpoint(c, sinceM[1]!);
    if (p.ok) return notYetCome(c, since(c, p.ep), sinceM[1]!);
    return p.refusal ? problem(p.refusal) : unreadable(c, t, false);
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
  return unreadable(c, t, false);
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
  return new NotARange(`I could not read “${t}” as a time range.`);
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

/**
 * The one reading of a text in context, which every caller shares. A problem that lists readings makes
 * the text ambiguous: only the readings that read now are offered (a reading in the future is not one
 * where data must exist), and one that reads no more leaves the text refused.
 */
function readOne(c: Ctx, text: string, requirePast: boolean, explain = true): TimeReading {
  const t = normalizeText(text);
  if (t === '') return { kind: 'none', error: 'No time range given.' };
  if (t.length > MAX_RANGE_CHARS)
    return {
      kind: 'refused',
      error: `That time range is too long (over ${MAX_RANGE_CHARS} characters).`,
      examples: [],
    };
  const r = c.lang ? inLanguage(c, c.lang, t, explain) : interpret(c, t, explain);
  const bad = r instanceof ParseProblem ? r : checkRange(c, r, requirePast);
  if (!bad) return { kind: 'exact', range: r as TimeRange };
  if (bad instanceof NotARange) return { kind: 'none', error: bad.message };
  const readings = bad.readings.filter((x) => readsNow(c, x, requirePast));
  if (readings.length > 0) return { kind: 'ambiguous', error: bad.message, readings, examples: bad.examples };
  return { kind: 'refused', error: bad.message, examples: bad.examples };
}

/**
 * A text from someone whose Slack language is `lang`: as the grammar reads it (English always works), else
 * put in the grammar's words by the language's lexicon and read so. A refusal of the translation says
 * what it was read as, since it quotes the grammar's words.
 */
function inLanguage(c: Ctx, lang: Language, t: string, explain: boolean): TimeRange | ParseProblem {
  const r = interpret(c, t, false);
  // Read in English but refused ("between 00:15 and 12:15 am": the end is 00:15): the words were the
  // grammar's, so its refusal stands. Read in German instead, "am" would be "on" and the range a different
  // one than the person wrote.
  if (!(r instanceof NotARange)) return r;
  const said = inEnglish(t, lang);
  if (said === undefined) return explain ? interpret(c, t, true) : r;
  if (said instanceof Refusal) return problem(said);
  const read = interpret(c, said, explain);
  if (!(read instanceof ParseProblem)) return read;
  const Kind = read instanceof NotARange ? NotARange : ParseProblem;
  return new Kind(`I read “${t}” as “${said}”. ${read.message}`, read.examples, read.readings);
}

const readsNow = (c: Ctx, text: string, requirePast: boolean): boolean =>
  readOne(c, text, requirePast, false).kind === 'exact';

/**
 * As a refusal: the examples it offers read at this very moment ("today" is empty at the stroke of
 * midnight, and "yesterday 9am to now" fails where the ranges must end before 9am): an offered example
 * that is then refused would send a person in a circle. The readings of an ambiguous text come first.
 */
function outcomeOf(c: Ctx, r: TimeReading, requirePast: boolean): RangeOutcome {
  if (r.kind === 'exact') return { ok: true, range: r.range };
  const given = r.kind === 'none' ? [] : r.kind === 'ambiguous' ? [...r.readings, ...r.examples] : r.examples;
  const examples = [...new Set([...given, ...EXAMPLES])].filter((e) => readsNow(c, e, requirePast));
  return {
    ok: false,
    error: r.error,
    examples,
    ...(r.kind === 'ambiguous' ? { readings: r.readings } : {}),
  };
}

function parseWith(c: Ctx, text: string, requirePast: boolean): RangeOutcome {
  return outcomeOf(c, readOne(c, text, requirePast), requirePast);
}

export function parseTimeRange(text: string, ctx: ParseContext): RangeOutcome {
  const c = makeCtx(ctx);
  if (typeof c === 'string') return fail(c);
  return parseWith(c, text, ctx.requirePast === true);
}

/**
 * What `text` says as one time range: exact, ambiguous (with each reading), refused (with why) or none at
 * all. The same reading parseTimeRange makes, for a caller that asks of a part of a longer text.
 */
export function readTimeRange(text: string, ctx: ParseContext): TimeReading {
  const c = makeCtx(ctx);
  if (typeof c === 'string') return { kind: 'refused', error: c, examples: [] };
  return readOne(c, text, ctx.requirePast === true);
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
      // Each reading of this range, with the others as given: the whole text as it reads when typed.
      const whole = (r: string) => parts.map((p, k) => (k === i ? r : p)).join('; ');
      return {
        ok: false,
        error: where + o.error,
        examples: o.examples,
        ...(o.readings ? { readings: o.readings.map(whole) } : {}),
      };
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

// Around a range in a sentence: quotes and brackets before it, punctuation after it.
const LEADING = /^["'“‘([«„]+/;
const TRAILING = /["'”’)\]»,.;:!?]+$/;

/**
 * The time ranges in a longer text ("train a model on temperature at Pump A using last week"): where each
 * is and its reading, exact or ambiguous, leftmost and longest first, none overlapping. Each is what
 * readTimeRange says of those words alone; words that make no range, or one that is refused, are not
 * among them.
 */
export function findTimeRanges(text: string, ctx: ParseContext): FoundRange[] {
  const c = makeCtx(ctx);
  if (typeof c === 'string') return [];
  const source = String(text ?? '');
  const words = [...source.matchAll(/\S+/g)].map((m) => ({ from: m.index, to: m.index + m[0].length }));
  const found: FoundRange[] = [];
  for (let i = 0; i < words.length; ) {
    let hit: FoundRange | undefined;
    for (let j = Math.min(words.length, i + MAX_RANGE_WORDS); j > i && !hit; j--) {
      const raw = source.slice(words[i]!.from, words[j - 1]!.to);
      const lead = LEADING.exec(raw)?.[0].length ?? 0;
      const piece = raw.slice(lead).replace(TRAILING, '');
      if (piece === '') continue;
      const reading = readOne(c, piece, ctx.requirePast === true, false);
      if (reading.kind === 'exact' || reading.kind === 'ambiguous') {
        const from = words[i]!.from + lead;
        hit = { from, to: from + piece.length, text: piece, reading };
        i = j;
      }
    }
    if (hit) found.push(hit);
    else i++;
  }
  return found;
}
