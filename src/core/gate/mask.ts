import { tokenize } from '../grammar/tokenize.js';
import { maskSecrets } from '../secret-text.js';

/**
 * The masking guarantee: a token-like value (core/secret-text.ts) typed into a name, a reason or a
 * description never goes further than the bot's first reading of it. The gate masks every text of an
 * operation before anything else sees it (the service, the store, the audit, the logs, a reply), whichever
 * surface built the operation; a kept command (a schedule's) is masked before it is kept.
 */

/** What the person is told when something they typed was masked. */
export const MASKED_NOTE =
  'A token-like value in what you typed was replaced by "[a token-like value, not shown]" before anything was sent or kept. If it was a token, it has passed through Slack: make a new one.';

/** `value` with every text in it masked (numbers, BigInt instants and functions untouched). */
export function maskValues<T>(value: T): { value: T; masked: boolean } {
  let masked = false;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const m = maskSecrets(v);
      if (m !== v) masked = true;
      return m;
    }
    if (Array.isArray(v)) {
      const out = v.map(walk);
      return out.every((x, i) => x === v[i]) ? v : out;
    }
    if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      let changed = false;
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        out[k] = walk(x);
        if (out[k] !== x) changed = true;
      }
      return changed ? out : v;
    }
    return v;
  };
  const out = walk(value) as T;
  return { value: out, masked };
}

const DOUBLE = /["“”„]/;
const SINGLE = /['‘’]/;

/** A value as the grammar reads it back whole: in quotes that it does not hold. */
function quoted(value: string): string {
  if (!DOUBLE.test(value)) return `"${value}"`;
  if (!SINGLE.test(value)) return `'${value}'`;
  return `"${value.replace(/["“”„]/g, '')}"`;
}

/**
 * A command line with each token-like value masked, still read by the grammar as it was (a masked value is
 * quoted, so the note's spaces stay inside it): what a schedule keeps and runs again. Unmasked text is kept
 * as typed; a line the tokenizer cannot read is masked as plain text (it is refused before it is kept).
 */
export function maskCommandText(text: string): { text: string; masked: boolean } {
  if (maskSecrets(text) === text) return { text, masked: false };
  const read = tokenize(text);
  if (!read.ok) return { text: maskSecrets(text), masked: true };
  const words = read.tokens.map((t) => {
    const value = maskSecrets(t.value);
    if (value === t.value) return t.raw;
    return t.kind === 'keyvalue' ? `${t.rawKey}=${quoted(value)}` : quoted(value);
  });
  return { text: words.join(' '), masked: true };
}
