// chrono-node reads the calendar dates and clock times inside a phrase; the grammar decides which words
// form one (the atom), what it means and when it is refused. Only the components chrono is certain of are
// used: never its `date()`, its implied values or its `forwardDate`, since it knows no IANA zone and would
// settle a day, a year or an offset by rules that are not ours.
import { createRequire } from 'node:module';
import type * as Chrono from 'chrono-node';

/** Which of chrono's parsers reads an atom. */
export type Reader =
  | 'monthFirst' // chrono.strict: month names, ISO dates, clock times, 01/11/2025 as 11 Jan
  | 'dayFirst' // chrono.en.GB: 01/11/2025 as 1 Nov
  | 'monthYear'; // chrono.casual: "Nov 2025", a month without a day, which the strict parser skips

export type Field = Chrono.Component;
export type Fields = Partial<Record<Field, number>>;

const FIELDS: readonly Field[] = [
  'year',
  'month',
  'day',
  'weekday',
  'hour',
  'minute',
  'second',
  'millisecond',
  'meridiem',
  'timezoneOffset',
];

// A leap day, so that a yearless "Feb 29" (whose year chrono implies from the reference) is a valid date;
// offset 0, so that nothing chrono does depends on the machine's zone. No component taken from chrono
// depends on this reference: implied ones are never read.
const REFERENCE: Chrono.ParsingReference = { instant: new Date(Date.UTC(2000, 1, 29, 12)), timezone: 0 };

// chrono-node costs ~120 ms of CPU to load, a quarter of the bot's start-up, and only commands with a
// time range need it: it is loaded on the first read (synchronously, from its CommonJS build). Its English
// entry only: the package's main one loads a dozen locales the grammar never asks for, over three times
// the heap (docs/performance.md).
let parsers: Record<Reader, Chrono.Chrono> | undefined;

function parser(reader: Reader): Chrono.Chrono {
  if (!parsers) {
    const en = createRequire(import.meta.url)('chrono-node/en') as typeof Chrono.en;
    parsers = { monthFirst: en.strict, dayFirst: en.GB, monthYear: en.casual };
  }
  return parsers[reader];
}

// The same atoms come up again and again: in every way of splitting a range at its separators, and in
// the next user's phrase. A read costs 3–15 µs; a repeated one, a map lookup.
const MAX_MEMO = 4096;
const memo = new Map<string, Fields | null>();

/**
 * The components chrono is certain of in `text`, when it reads all of it as one date or time and nothing
 * else (no range); otherwise undefined.
 */
export function recognise(reader: Reader, text: string): Fields | undefined {
  const lower = text.toLowerCase();
  const key = `${reader}\n${lower}`;
  let fields = memo.get(key);
  if (fields === undefined) {
    fields = null;
    const results = parser(reader).parse(lower, REFERENCE);
    const r = results[0];
    if (results.length === 1 && r && r.index === 0 && r.text === lower && !r.end) {
      fields = {};
      for (const f of FIELDS) if (r.start.isCertain(f)) fields[f] = r.start.get(f) ?? Number.NaN;
    }
    if (memo.size >= MAX_MEMO) memo.clear();
    memo.set(key, fields);
  }
  return fields ?? undefined;
}

/**
 * As `recognise`, but only when chrono is certain of every component in `need`, of nothing outside
 * `need` and `may`, and each is a whole number: anything more (a zone, a weekday, a year the grammar did
 * not see) means chrono read the atom differently from the grammar, and the atom is not taken.
 */
export function recogniseAs(
  reader: Reader,
  text: string,
  need: readonly Field[],
  may: readonly Field[] = [],
): Fields | undefined {
  const fields = recognise(reader, text);
  if (!fields) return undefined;
  for (const f of need) if (!Number.isInteger(fields[f])) return undefined;
  for (const [f, v] of Object.entries(fields) as [Field, number][]) {
    if (!need.includes(f) && !may.includes(f)) return undefined;
    if (!Number.isInteger(v)) return undefined;
  }
  return fields;
}

// ---------------------------------------------------------------------------------- other languages

/** The languages whose chrono parser reads dates and times written in them. */
export type Language = 'de' | 'fr' | 'es' | 'pt' | 'nl' | 'ja';

// Each is loaded the first time someone whose Slack language it is writes a range chrono's English does
// not read: nobody else pays for it.
const languages = new Map<Language, Chrono.Chrono>();

function languageParser(lang: Language): Chrono.Chrono {
  let p = languages.get(lang);
  if (!p) {
    p = (createRequire(import.meta.url)(`chrono-node/${lang}`) as { strict: Chrono.Chrono }).strict;
    languages.set(lang, p);
  }
  return p;
}

/** Whether `lang`'s parser is loaded: for the tests that check nobody pays for a language they do not use. */
export const languageLoaded = (lang: Language): boolean => languages.has(lang);

/** A date or a time chrono read in a language: the components it is certain of, and an end if it read one. */
export interface Written {
  start: Fields;
  end?: Fields;
}

const writtenMemo = new Map<string, Written | null>();
const WRITTEN_FIELDS: readonly Field[] = [
  'year',
  'month',
  'day',
  'weekday',
  'hour',
  'minute',
  'second',
  'meridiem',
];

function certain(c: Chrono.ParsedComponents): Fields | undefined {
  if (c.isCertain('timezoneOffset')) return undefined;
  const f: Fields = {};
  for (const k of WRITTEN_FIELDS) if (c.isCertain(k)) f[k] = c.get(k) ?? Number.NaN;
  const date = f.month !== undefined && f.day !== undefined;
  const time = f.hour !== undefined;
  return (date || time) && Object.values(f).every(Number.isInteger) ? f : undefined;
}

/**
 * What chrono reads in `text`, written in `lang`, when it reads all of it as one date or time (or one
 * range of them) and nothing relative to now: the reading of "gestern" or "il y a 3 jours" is the
 * grammar's, never chrono's.
 */
export function recogniseWritten(lang: Language, text: string): Written | undefined {
  const lower = text.toLowerCase();
  const key = `${lang}\n${lower}`;
  let found = writtenMemo.get(key);
  if (found === undefined) {
    found = null;
    const results = languageParser(lang).parse(lower, REFERENCE);
    const r = results[0];
    if (
      results.length === 1 &&
      r &&
      r.index === 0 &&
      r.text === lower &&
      !r.tags().has('result/relativeDate')
    ) {
      const start = certain(r.start);
      const end = r.end ? certain(r.end) : undefined;
      if (start && (!r.end || end)) found = end ? { start, end } : { start };
    }
    if (writtenMemo.size >= MAX_MEMO) writtenMemo.clear();
    writtenMemo.set(key, found);
  }
  return found ?? undefined;
}
