// Words and symbols of a phrase, as the grammar matches them: lower case for matching, as typed for messages.

export interface Tok {
  /** Lower case, for matching. */
  s: string;
  /** As typed, for messages. */
  raw: string;
  num: boolean;
  /** No whitespace before it. */
  glued: boolean;
}

/** Readings that start at a token: each with the index of the token after it. */
export type R<T> = [T, number][];

const TOKENS = /(\s*)(\d+|[a-z]+|\S)/giy;

export function tokenize(input: string): Tok[] {
  const out: Tok[] = [];
  const text = input.replace(/(?<![a-z])([ap])\.m\.?/gi, '$1m');
  TOKENS.lastIndex = 0;
  for (let m = TOKENS.exec(text); m; m = TOKENS.exec(text)) {
    const raw = m[2]!;
    const code = raw.charCodeAt(0);
    out.push({ s: raw.toLowerCase(), raw, num: code >= 48 && code <= 57, glued: m[1] === '' });
  }
  return out;
}

export const isWord = (t: Tok[], i: number, ...ws: string[]): boolean =>
  t[i] !== undefined && !t[i]!.num && ws.includes(t[i]!.s);

export function textOf(t: Tok[], from: number, to: number): string {
  let s = '';
  for (let i = from; i < to; i++) s += (i > from && !t[i]!.glued ? ' ' : '') + t[i]!.raw;
  return s;
}

export const indices = (from: number, to: number): number[] =>
  Array.from({ length: to - from }, (_, k) => from + k);

/** The text of some of the tokens, for chrono: without the fillers the grammar allows inside an atom. */
export function atomText(t: Tok[], at: number[]): string {
  let s = '';
  at.forEach((i, k) => {
    s += (k > 0 && !(t[i]!.glued && at[k - 1] === i - 1) ? ' ' : '') + t[i]!.raw;
  });
  return s;
}
