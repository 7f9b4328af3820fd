import { describeRange, type EchoOptions } from './describe.js';
import type { TimeRange } from './types.js';

/** A Slack section's text holds 3,000 characters; this leaves room for the words around the echo. */
export const DEFAULT_ECHO_CHARS = 2500;

export interface RangesEchoOptions extends EchoOptions {
  /** The longest the echo may be, in characters (UTF-16 code units, as Slack counts). */
  maxChars?: number;
  /** Between two ranges' echoes. Default: a new line. */
  separator?: string;
}

export function countOf(n: number, noun: string): string {
  return `${n} ${n === 1 ? noun : `${noun}s`}`;
}

const moreRanges = (n: number) => `… and ${countOf(n, 'more range')}`;

/** The whole words of `text` that fit in `max` characters, with "…" when some are left out. */
function clipWords(text: string, max: number): string {
  if (text.length <= max) return text;
  const words: string[] = [];
  let length = -1;
  for (const word of text.split(' ')) {
    if (length + 1 + word.length + 1 > max) break;
    words.push(word);
    length += 1 + word.length;
  }
  // A dash or a bracket left at the end says nothing.
  while (words.length > 0 && !/[\p{L}\p{N}]/u.test(words.at(-1)!)) words.pop();
  return words.length > 0 ? `${words.join(' ')}…` : '';
}

/**
 * The echoes of several ranges, one after another, within `maxChars`: as many whole echoes as fit, then
 * how many were left out ("… and 12 more ranges"). Nothing is cut inside a word.
 */
export function describeRanges(
  ranges: readonly TimeRange[],
  timeZone: string,
  options: RangesEchoOptions = {},
): string {
  const max = Math.max(0, Math.floor(options.maxChars ?? DEFAULT_ECHO_CHARS));
  const sep = options.separator ?? '\n';
  const echoes = ranges.map((r) => describeRange(r, timeZone, options));
  const whole = echoes.join(sep);
  if (whole.length <= max) return whole;
  // The most echoes that fit with the count of those left out after them.
  for (let shown = echoes.length - 1; shown > 0; shown--) {
    const prefix = echoes.slice(0, shown).join(sep);
    if (prefix.length + sep.length + moreRanges(echoes.length - shown).length <= max) {
      return `${prefix}${sep}${moreRanges(echoes.length - shown)}`;
    }
  }
  // Not even one whole echo fits: as much of the first as does, or only the count.
  const rest = echoes.length - 1;
  if (rest === 0) return clipWords(echoes[0]!, max);
  const tail = `${sep}${moreRanges(rest)}`;
  const first = clipWords(echoes[0]!, max - tail.length);
  if (first) return `${first}${tail}`;
  const count = countOf(echoes.length, 'range');
  return count.length <= max ? count : '';
}
