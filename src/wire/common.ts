import { z } from 'zod';

/** Non-empty, at most 128 chars, no '/', whitespace or control characters, not '.' or '..': safe as a URL path segment. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
export const ID_PATTERN = /^(?!\.{1,2}$)[^/\s\u0000-\u001f\u007f]{1,128}$/;

/** Type error message that says "is required" when the field is missing. */
export function expected(what: string) {
  return { error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : what) };
}

export const idString = z
  .string(expected('must be an ID string, e.g. "1353853719423311872"'))
  .regex(
    ID_PATTERN,
    'must be a non-empty ID of at most 128 characters without "/", spaces or control characters',
  );

export const nameString = z
  .string(expected('must be a string'))
  .refine((s) => s.trim().length > 0, 'must not be empty');

/** Nanoseconds since the Unix epoch as a digit string (19 digits covers 2001..2286). */
export const nanosString = z
  .string(expected('must be nanoseconds since epoch as a digit string, e.g. "1732176000000000000"'))
  .regex(
    /^(0|[1-9]\d{0,18})$/,
    'must be nanoseconds since epoch as a digit string, e.g. "1732176000000000000"',
  );

const ISO_UTC = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z$/;

/** ISO 8601 UTC with 'Z' and up to 9 fraction digits, e.g. "2025-11-21T03:30:00.123456789Z". */
export const isoUtcString = z
  .string(expected('must be an ISO 8601 UTC timestamp, e.g. "2025-11-21T03:30:00Z"'))
  .refine((s) => isoToNanos(s) !== null, {
    message:
      'must be an ISO 8601 UTC timestamp ending in Z with up to 9 fraction digits, e.g. "2025-11-21T03:30:00Z"',
  });

/** Exact instant of an ISO UTC string in ns, or null when it is not a valid calendar instant. */
export function isoToNanos(s: string): bigint | null {
  const m = ISO_UTC.exec(s);
  if (!m) return null;
  const [y, mo, d, h, mi, se] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const ms = Date.UTC(y, mo - 1, d, h, mi, se);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  if (h > 23 || mi > 59 || se > 59) return null;
  const frac = BigInt((m[7] ?? '').padEnd(9, '0'));
  return BigInt(ms) * 1_000_000n + frac;
}

/** Formats zod issues as "path: problem; path: problem", naming each offending field. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${formatPath(i.path) || 'body'}: ${i.message}`)
    .join('; ');
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out ? `.${String(p)}` : String(p);
  }
  return out;
}
