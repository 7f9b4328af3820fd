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

function isSpace(ch: string): boolean {
  return /\s/.test(ch);
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

export function tokenize(text: string): TokenizeOutcome {
  const chars = [...text];
  const tokens: Token[] = [];
  let i = 0;

  /** Reads a quoted run starting at `i` (an opening quote); returns the content and the index after it. */
  const readQuoted = (start: number): { value: string; end: number } | { error: string } => {
    const open = chars[start]!;
    const closers = closersFor(open)!;
    let j = start + 1;
    let value = '';
    while (j < chars.length && !closers.has(chars[j]!)) value += chars[j++];
    if (j >= chars.length) {
      return { error: `A quote (${open}) is not closed: close it, e.g. name="Pump 3 baseline".` };
    }
    return { value, end: j + 1 };
  };

  const readBare = (start: number): { value: string; end: number } => {
    let j = start;
    let value = '';
    while (j < chars.length && !isSpace(chars[j]!)) value += chars[j++];
    return { value, end: j };
  };

  while (i < chars.length) {
    if (isSpace(chars[i]!)) {
      i++;
      continue;
    }
    const start = i;
    if (closersFor(chars[i]!)) {
      const q = readQuoted(i);
      if ('error' in q) return { ok: false, error: q.error };
      // Text glued to a closing quote belongs to the same token: "a"b -> ab
      const rest = readBare(q.end);
      i = rest.end;
      tokens.push({
        kind: 'positional',
        value: decodeSlackEntities(q.value + rest.value),
        raw: chars.slice(start, i).join(''),
        quoted: true,
      });
      continue;
    }
    // Unquoted: a key=value token when the text before the first '=' is a key.
    let j = i;
    let head = '';
    while (j < chars.length && !isSpace(chars[j]!) && chars[j] !== '=') head += chars[j++];
    if (chars[j] === '=' && KEY.test(head)) {
      j++;
      let value = '';
      const quoted = j < chars.length && closersFor(chars[j]!) !== undefined;
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
        raw: chars.slice(start, i).join(''),
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
