/**
 * Splits a slash-command text into positional and key=value tokens.
 * Values may be quoted with straight or curly quotes; keys are case-insensitive and `-`/`_` are the same.
 */

/** `quoted`: the value was written in quotes (a name, where a resource ID may go). */
export type Token =
  | { kind: 'positional'; value: string; raw: string; quoted: boolean }
  | { kind: 'keyvalue'; key: string; rawKey: string; value: string; raw: string; quoted: boolean };

export type TokenizeOutcome = { ok: true; tokens: Token[] } | { ok: false; error: string };

const DOUBLE_OPEN = new Set(['"', '“', '”', '„']);
const DOUBLE_CLOSE = new Set(['"', '”', '“']);
const SINGLE_OPEN = new Set(["'", '‘', '’']);
const SINGLE_CLOSE = new Set(["'", '’', '‘']);
const KEY = /^[A-Za-z][A-Za-z0-9_-]*$/;

const WHITESPACE = /\s/;

/** `\s` as a regular expression reads it, the ASCII cases without one: this runs in every command's ack. */
function isSpace(code: number): boolean {
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return WHITESPACE.test(String.fromCharCode(code));
}

function closersFor(open: string): Set<string> | undefined {
  if (DOUBLE_OPEN.has(open)) return DOUBLE_CLOSE;
  if (SINGLE_OPEN.has(open)) return SINGLE_CLOSE;
  return undefined;
}

/** Slack escapes `&`, `<`, `>` in command text; decode them once so values are what the user typed. */
export function decodeSlackEntities(text: string): string {
  return text.replace(/&(amp|lt|gt);/g, (_m, name: string) =>
    name === 'amp' ? '&' : name === 'lt' ? '<' : '>',
  );
}

export function normalizeKey(key: string): string {
  return key.toLowerCase().replace(/_/g, '-');
}

/**
 * Reads the text by UTF-16 unit, not by code point: every character that separates tokens (space, `=`,
 * the quotes) is a single unit, and the halves of a surrogate pair are never one of them, so slices keep
 * each pair whole.
 */
export function tokenize(text: string): TokenizeOutcome {
  const tokens: Token[] = [];
  const n = text.length;
  let i = 0;

  /** Reads a quoted run starting at `start` (an opening quote); returns the content and the index after it. */
  const readQuoted = (start: number): { value: string; end: number } | { error: string } => {
    const open = text[start]!;
    const closers = closersFor(open)!;
    let j = start + 1;
    while (j < n && !closers.has(text[j]!)) j++;
    if (j >= n) {
      return { error: `A quote (${open}) is not closed: close it, e.g. name="Pump 3 baseline".` };
    }
    return { value: text.slice(start + 1, j), end: j + 1 };
  };

  const readBare = (start: number): { value: string; end: number } => {
    let j = start;
    while (j < n && !isSpace(text.charCodeAt(j))) j++;
    return { value: text.slice(start, j), end: j };
  };

  while (i < n) {
    if (isSpace(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    if (closersFor(text[i]!)) {
      const q = readQuoted(i);
      if ('error' in q) return { ok: false, error: q.error };
      // Text glued to a closing quote belongs to the same token: "a"b -> ab
      const rest = readBare(q.end);
      i = rest.end;
      tokens.push({
        kind: 'positional',
        value: decodeSlackEntities(q.value + rest.value),
        raw: text.slice(start, i),
        quoted: true,
      });
      continue;
    }
    // Unquoted: a key=value token when the text before the first '=' is a key.
    let j = i;
    while (j < n && !isSpace(text.charCodeAt(j)) && text[j] !== '=') j++;
    const head = text.slice(i, j);
    if (text[j] === '=' && KEY.test(head)) {
      j++;
      let value = '';
      const quoted = j < n && closersFor(text[j]!) !== undefined;
      if (quoted) {
        const q = readQuoted(j);
        if ('error' in q) return { ok: false, error: q.error };
        value = q.value;
        j = q.end;
      }
      const rest = readBare(j);
      value += rest.value;
      i = rest.end;
      tokens.push({
        kind: 'keyvalue',
        key: normalizeKey(head),
        rawKey: head,
        value: decodeSlackEntities(value),
        raw: text.slice(start, i),
        quoted,
      });
      continue;
    }
    const bare = readBare(i);
    i = bare.end;
    tokens.push({
      kind: 'positional',
      value: decodeSlackEntities(bare.value),
      raw: bare.value,
      quoted: false,
    });
  }
  return { ok: true, tokens };
}
