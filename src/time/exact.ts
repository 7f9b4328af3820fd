// Exact instants: ISO 8601 with Z/offset and epoch numbers, kept at full nanosecond precision (BigInt only).

const NS_PER_MS = 1_000_000n;
const NS_PER_S = 1_000_000_000n;

/** `offsetMin`: the zone an ISO form names (`Z` is 0); an epoch names none. */
export type ExactParse = { ok: true; ns: bigint; offsetMin?: number } | { ok: false; error: string } | null;

const ISO_ZONED =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)$/i;
const ISO_LOCAL = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?$/i;
const EPOCH_UNITS: Record<number, bigint> = { 10: NS_PER_S, 13: NS_PER_MS, 16: 1000n, 19: 1n };

export interface LocalIso {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  fractionNs: bigint;
}

function fields(m: RegExpExecArray, text: string): { value: LocalIso } | { error: string } {
  const [year, month, day, hour, minute] = [1, 2, 3, 4, 5].map((i) => Number(m[i]));
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const frac = m[7] ?? '';
  if (frac.length > 9)
    return { error: `“${text}” has more than 9 fractional digits (nanoseconds are the limit).` };
  const probe = new Date(Date.UTC(year!, month! - 1, day!));
  const valid =
    month! >= 1 && month! <= 12 && probe.getUTCDate() === day && hour! <= 23 && minute! <= 59 && second <= 59;
  if (!valid) return { error: `“${text}” is not a valid date and time.` };
  return {
    value: {
      year: year!,
      month: month!,
      day: day!,
      hour: hour!,
      minute: minute!,
      second,
      fractionNs: BigInt(frac.padEnd(9, '0') || '0'),
    },
  };
}

/** ISO date-time without a zone ("2026-11-01T09:00:00.5"): wall-clock fields with nanosecond fraction. */
export function parseLocalIso(
  text: string,
): { ok: true; value: LocalIso } | { ok: false; error: string } | null {
  const m = ISO_LOCAL.exec(text);
  if (!m) return null;
  const f = fields(m, text);
  return 'error' in f ? { ok: false, error: f.error } : { ok: true, value: f.value };
}

/** Returns null when `text` is not an exact form at all, an error when it is one but malformed. */
export function parseExact(text: string): ExactParse {
  if (/^\d+$/.test(text)) {
    const unit = EPOCH_UNITS[text.length];
    if (unit === undefined) {
      if (text.length < 5) return null;
      return {
        ok: false,
        error: `“${text}” is not an epoch I recognise: use 10 digits (seconds), 13 (ms), 16 (µs) or 19 (ns).`,
      };
    }
    return { ok: true, ns: BigInt(text) * unit };
  }
  const m = ISO_ZONED.exec(text);
  if (!m) return null;
  const f = fields(m, text);
  if ('error' in f) return { ok: false, error: f.error };
  const v = f.value;
  const zone = m[8]!.toUpperCase();
  let offsetMin = 0;
  if (zone !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const h = Number(digits.slice(0, 2));
    const mi = digits.length > 2 ? Number(digits.slice(2)) : 0;
    if (h > 23 || mi > 59 || (digits.length !== 2 && digits.length !== 4)) {
      return { ok: false, error: `“${text}” has an invalid UTC offset.` };
    }
    offsetMin = (zone[0] === '-' ? -1 : 1) * (h * 60 + mi);
  }
  const d = new Date(0);
  d.setUTCFullYear(v.year, v.month - 1, v.day);
  d.setUTCHours(v.hour, v.minute, v.second, 0);
  const ms = d.getTime() - offsetMin * 60_000;
  return { ok: true, ns: BigInt(ms) * NS_PER_MS + v.fractionNs, offsetMin };
}

export function toNanos(ns: bigint): string {
  return ns.toString();
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

/** UTC ISO 8601 with `Z`, and only as many fractional digits as needed (0..9). */
export function toIso(ns: bigint): string {
  const seconds = floorDiv(ns, NS_PER_S);
  const frac = ns - seconds * NS_PER_S;
  const base = new Date(Number(seconds) * 1000).toISOString().slice(0, -5);
  const fraction = frac === 0n ? '' : `.${frac.toString().padStart(9, '0').replace(/0+$/, '')}`;
  return `${base}${fraction}Z`;
}

export function msToNs(ms: number): bigint {
  return BigInt(ms) * NS_PER_MS;
}

export function nsToMsFloor(ns: bigint): number {
  return Number(floorDiv(ns, NS_PER_MS));
}

export function nsSubMs(ns: bigint): bigint {
  return ns - floorDiv(ns, NS_PER_MS) * NS_PER_MS;
}
