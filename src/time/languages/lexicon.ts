// What a language's lexicon says: the words and phrases that shape a range, in the grammar's English.
import type { Refusal } from '../endpoint.js';

/** What a lexicon's rules may ask of the language: a count, a unit, which month a word names. */
export interface Helpers {
  count(word: string): number | undefined;
  unit(word: string): string | undefined;
  month(word: string): number | undefined;
}

/** The grammar's English for what a rule matched, a refusal, or null to leave the words as written. */
export type Said = string | Refusal | null;

export interface Lexicon {
  /** Words are separated by spaces (all but Japanese): phrases match whole words only. */
  spaced: boolean;
  /**
   * Times are written on the 24-hour clock ("5 Uhr" is 05:00, "17 Uhr" 17:00): a time read in the language
   * is given to the grammar with its leading zero, which says so.
   */
  clock24?: boolean;
  /**
   * Patterns, tried in order before the words: `{N}` is a count (digits or a number word), `{U}` a unit,
   * `{W}` a word, a space any spacing. A rule is given all the text before its match, what earlier rules
   * made of it in English included.
   */
  rules: [string, (m: RegExpExecArray, h: Helpers, before: string) => Said][];
  /** Whole phrases and their English, longest matched first. */
  words: Record<string, string>;
  /** Units of time and the grammar's word for each. */
  units: Record<string, string>;
  /** Number words a count may be written with. */
  numbers: Record<string, number>;
  /** Words moved before the lexicon is applied, where the language puts them elsewhere than English. */
  reorder?: (text: string) => string;
  /** A first day of the month `word` may name, as the language writes it, for chrono to read ("1. März"). */
  monthProbe?: (word: string) => string;
}

const UNIT_WORDS: Record<string, string> = {
  s: 'seconds',
  m: 'minutes',
  h: 'hours',
  d: 'days',
  w: 'weeks',
  mo: 'months',
  y: 'years',
};

/** Unit words by the grammar's unit: `{ h: 'stunde stunden std' }`. */
export function unitsOf(byUnit: Record<keyof typeof UNIT_WORDS, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [u, words] of Object.entries(byUnit)) for (const w of words.split(' ')) out[w] = UNIT_WORDS[u]!;
  return out;
}

/** The English of "<count> <unit>" a rule matched as groups `n` and `u` ("3 days"), or null. */
export function counted(m: RegExpExecArray, h: Helpers, n: number, u: number): string | null {
  const count = h.count(m[n]!);
  const unit = h.unit(m[u]!);
  return count === undefined || unit === undefined ? null : `${count} ${unit}`;
}

/** The weekdays in a language, Monday first, and their English. */
export function weekdaysOf(names: string[][]): Record<string, string> {
  const english = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
  const out: Record<string, string> = {};
  names.forEach((ws, i) => {
    for (const w of ws) out[w] = english[i]!;
  });
  return out;
}
