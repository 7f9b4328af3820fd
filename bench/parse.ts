import { performance } from 'node:perf_hooks';
import { findTimeRanges, parseTimeRange } from '../src/time/index.js';
import { LANGUAGE_PHRASES, SAMPLE_PHRASES } from '../src/time/phrases.js';

const ZONES = ['UTC', 'America/New_York', 'Asia/Kolkata', 'Europe/Berlin'];
const NOW = new Date('2026-11-02T03:30:00Z');
const ROUNDS = 30;
const WARMUP_ROUNDS = 5;
const FUZZ_STRINGS = 5000;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

export interface ParseFigures {
  /** Over every sample phrase, English and the other languages alike. */
  medianMs: number;
  p99Ms: number;
  phrases: number;
  /** The phrases written in another language (LANGUAGE_PHRASES) alone. */
  languages: { phrases: number; medianMs: number; p99Ms: number };
  /** Finding the range in a sentence (findTimeRanges), as requests written as sentences will. */
  find: { sentences: number; medianMs: number; p99Ms: number };
  /** One parse of each fuzzed string (random and mutated phrases): how long the slowest ones take. */
  fuzz: { strings: number; medianMs: number; p99Ms: number; maxMs: number; accepted: number };
}

/**
 * Time to parse one phrase of the sample table, over every phrase × zone, after warm-up rounds; and the
 * time per fuzzed string, since hostile or mistyped text must never be slow either.
 */
export async function benchParse(): Promise<ParseFigures> {
  const cases = [
    ...ZONES.flatMap((timeZone) => SAMPLE_PHRASES.map((text) => ({ text, timeZone, locale: undefined }))),
    ...ZONES.flatMap((timeZone) => LANGUAGE_PHRASES.map(({ text, locale }) => ({ text, timeZone, locale }))),
  ];
  const ctx = (c: (typeof cases)[number]) => ({
    now: NOW,
    timeZone: c.timeZone,
    ...(c.locale ? { locale: c.locale } : {}),
  });
  for (const c of cases) {
    const out = parseTimeRange(c.text, ctx(c));
    if (!out.ok) throw new Error(`bench phrase no longer parses: “${c.text}” in ${c.timeZone}: ${out.error}`);
  }
  // A few more unmeasured rounds so the JIT has settled before timing starts.
  for (let round = 0; round < WARMUP_ROUNDS; round++) {
    for (const c of cases) parseTimeRange(c.text, ctx(c));
  }
  const samples: number[] = [];
  const inLanguages: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of cases) {
      const t0 = performance.now();
      parseTimeRange(c.text, ctx(c));
      const ms = performance.now() - t0;
      samples.push(ms);
      if (c.locale) inLanguages.push(ms);
    }
  }
  samples.sort((a, b) => a - b);
  inLanguages.sort((a, b) => a - b);
  return {
    medianMs: percentile(samples, 0.5),
    p99Ms: percentile(samples, 0.99),
    phrases: cases.length,
    languages: {
      phrases: inLanguages.length / ROUNDS,
      medianMs: percentile(inLanguages, 0.5),
      p99Ms: percentile(inLanguages, 0.99),
    },
    find: benchFind(),
    fuzz: benchFuzz(),
  };
}

const SENTENCES = [
  'train a model on temperature at Pump A using last week',
  'score pump 3 with the new model for yesterday 8-4 and tell me how it did',
  'compare the week before last with now-2h, please',
  'learn the vibration model again on the data from Nov 1 to Nov 3',
  'what happened at the station overnight',
];

/** Finding the range in each sentence, after a warm-up round. */
function benchFind(): ParseFigures['find'] {
  const ctx = { now: NOW, timeZone: 'Europe/Berlin' };
  for (const s of SENTENCES) findTimeRanges(s, ctx);
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const s of SENTENCES) {
      const t0 = performance.now();
      findTimeRanges(s, ctx);
      samples.push(performance.now() - t0);
    }
  }
  samples.sort((a, b) => a - b);
  return {
    sentences: SENTENCES.length,
    medianMs: percentile(samples, 0.5),
    p99Ms: percentile(samples, 0.99),
  };
}

function benchFuzz(): ParseFigures['fuzz'] {
  const strings = fuzzStrings(FUZZ_STRINGS, 0x5eed);
  const locales = ['en-GB', undefined, undefined, 'de-DE', undefined, 'fr-FR', 'ja-JP'];
  const ctx = (i: number) => ({
    now: NOW,
    timeZone: ZONES[i % ZONES.length]!,
    locale: locales[i % locales.length],
  });
  for (const [i, s] of strings.entries()) parseTimeRange(s, ctx(i)); // warm-up
  const samples: number[] = [];
  let accepted = 0;
  for (const [i, s] of strings.entries()) {
    const t0 = performance.now();
    const out = parseTimeRange(s, ctx(i));
    samples.push(performance.now() - t0);
    if (out.ok) accepted++;
  }
  samples.sort((a, b) => a - b);
  return {
    strings: strings.length,
    medianMs: percentile(samples, 0.5),
    p99Ms: percentile(samples, 0.99),
    maxMs: samples.at(-1)!,
    accepted,
  };
}

const VOCABULARY = [
  'to',
  'until',
  '-',
  '–',
  '..',
  'between',
  'and',
  'since',
  'from',
  'the',
  'last',
  'past',
  'next',
  'this',
  'night',
  'morning',
  'weekend',
  'week',
  'month',
  'year',
  'day',
  'days',
  'hours',
  'today',
  'yesterday',
  'tomorrow',
  'Monday',
  'Fri',
  'Nov',
  'March',
  '1st',
  '31',
  '9am',
  '5pm',
  '17:00',
  'midnight',
  'noon',
  'EST',
  'IST',
  '+05:30',
  '2026-11-01',
  '01/11/2025',
  '13.11.2025',
  '1793512800',
  '2026-11-01T09:00:00Z',
  'now',
  ';',
  '"',
  '“',
  'now-2h',
  '-90m',
  '/d',
  '@d',
  'PT12H',
  '2026-11-01T06:00Z/PT12H',
  'W44',
  'KW',
  'so far',
  'WTD',
  '8-4',
  'gestern',
  'bis',
  'Uhr',
  'hier',
  'à',
  '17h',
  '昨日',
  'から',
];
const ODD = [
  '\u0000',
  '\u200b',
  'é',
  'ß',
  '日',
  '😀',
  '\t',
  '\n',
  ' ',
  ':',
  '/',
  '.',
  ',',
  '-',
  '+',
  '9',
  '0',
];

/**
 * Deterministic fuzz input: sample phrases with characters and words inserted, dropped, swapped or
 * repeated, random word salad from the grammar's own vocabulary, and random characters, up to a little over
 * the 200-character limit.
 */
export function fuzzStrings(n: number, seed: number): string[] {
  let state = seed >>> 0;
  const rnd = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const kind = i % 4;
    let s: string;
    if (kind <= 1) {
      s = pick(SAMPLE_PHRASES);
      const edits = 1 + Math.floor(rnd() * 4);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(rnd() * (s.length + 1));
        const op = Math.floor(rnd() * 6);
        if (op === 0) s = s.slice(0, at) + pick(ODD) + s.slice(at);
        else if (op === 1) s = s.slice(0, at) + s.slice(at + 1 + Math.floor(rnd() * 3));
        else if (op === 2) s = `${s.slice(0, at)} ${pick(VOCABULARY)} ${s.slice(at)}`;
        else if (op === 3) s = s.split(' ').reverse().join(' ');
        else if (op === 4) s = `${s} ${s}`.slice(0, 220);
        else s = s.replace(/\d/, String(Math.floor(rnd() * 10)));
      }
    } else if (kind === 2) {
      const words = 1 + Math.floor(rnd() * 12);
      s = Array.from({ length: words }, () => pick(VOCABULARY)).join(rnd() < 0.8 ? ' ' : '');
    } else {
      const len = Math.floor(rnd() * 220);
      s = Array.from({ length: len }, () =>
        rnd() < 0.3 ? pick(ODD) : String.fromCharCode(32 + Math.floor(rnd() * 95)),
      ).join('');
    }
    out.push(s);
  }
  return out;
}
