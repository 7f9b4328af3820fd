import { describe, expect, it } from 'vitest';
import { parseTimeRange, toIso, toNanos } from '../../src/time/index.js';

const ctx = { now: new Date('2026-11-02T03:30:00Z'), timeZone: 'Asia/Kolkata' };

function range(text: string) {
  const out = parseTimeRange(text, ctx);
  if (!out.ok) throw new Error(out.error);
  return out.range;
}

// 2026-11-01T09:00:00Z = 1793523600 s (checked with `date -u -d @1793523600`).
describe('precision', () => {
  it('ISO with 9 fraction digits round-trips exactly', () => {
    const r = range('2026-11-01T09:00:00.123456789Z to 2026-11-01T09:00:00.123456790Z');
    expect(toNanos(r.startNs)).toBe('1793523600123456789');
    expect(toNanos(r.endNs)).toBe('1793523600123456790');
    expect(toIso(r.startNs)).toBe('2026-11-01T09:00:00.123456789Z');
    expect(toIso(r.endNs)).toBe('2026-11-01T09:00:00.12345679Z');
  });

  it('19-digit epochs round-trip exactly, beyond float precision', () => {
    const r = range('1793523600123456789 to 9007199254740993123');
    expect(toNanos(r.startNs)).toBe('1793523600123456789');
    expect(toNanos(r.endNs)).toBe('9007199254740993123');
  });

  it('16-, 13- and 10-digit epochs scale to nanoseconds', () => {
    expect(toNanos(range('1793523600123456 to 1793523600123457').startNs)).toBe('1793523600123456000');
    expect(toNanos(range('1793523600123 to 1793523600124').startNs)).toBe('1793523600123000000');
    expect(toNanos(range('1793523600 to 1793523601').startNs)).toBe('1793523600000000000');
  });

  it('offsets apply without losing fraction digits', () => {
    const r = range('2026-11-01T14:30:00.000000001+05:30 to 2026-11-01T04:00:00.000000002-0500');
    expect(toIso(r.startNs)).toBe('2026-11-01T09:00:00.000000001Z');
    expect(toIso(r.endNs)).toBe('2026-11-01T09:00:00.000000002Z');
  });

  it('toIso shows only the fraction digits needed', () => {
    expect(toIso(1793523600000000000n)).toBe('2026-11-01T09:00:00Z');
    expect(toIso(1793523600100000000n)).toBe('2026-11-01T09:00:00.1Z');
    expect(toIso(1793523600000000001n)).toBe('2026-11-01T09:00:00.000000001Z');
    expect(toIso(0n)).toBe('1970-01-01T00:00:00Z');
  });

  it('a nanosecond-precise now is kept exactly', () => {
    const out = parseTimeRange('last 90 minutes', { now: 1793523600123456789n, timeZone: 'UTC' });
    if (!out.ok) throw new Error(out.error);
    expect(toNanos(out.range.endNs)).toBe('1793523600123456789');
    expect(toNanos(out.range.startNs)).toBe('1793518200123456789');
  });

  it('many pseudo-random instants survive toIso → parse and toNanos → parse', () => {
    let seed = 0x2545f4914f6cdd1dn;
    const next = () => {
      seed = (seed * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n;
      return 10n ** 18n + (seed % 3102444800000000000n); // 2001-09-09 (first 19-digit ns) .. 2100
    };
    for (let i = 0; i < 200; i++) {
      const a = next();
      const b = a + 1n + (next() % 86_400_000_000_000n);
      for (const text of [`${toIso(a)} to ${toIso(b)}`, `${toNanos(a)} - ${toNanos(b)}`]) {
        const r = range(text);
        expect([r.startNs, r.endNs]).toEqual([a, b]);
      }
    }
  });
});
