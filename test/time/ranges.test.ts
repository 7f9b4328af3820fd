import { describe, expect, it } from 'vitest';
import { parseTimeRanges, toIso } from '../../src/time/index.js';

const ctx = { now: new Date('2026-11-22T12:00:00Z'), timeZone: 'Europe/Berlin' };

function isoRanges(text: string): string[][] {
  const out = parseTimeRanges(text, ctx);
  if (!out.ok) throw new Error(out.error);
  return out.ranges.map((r) => [toIso(r.startNs), toIso(r.endNs)]);
}

// Berlin is on CET (UTC+1) throughout November 2026.
describe('several ranges', () => {
  it('splits on ";" and new lines and sorts by start', () => {
    const want = [
      ['2026-10-31T23:00:00Z', '2026-11-03T23:00:00Z'],
      ['2026-11-10T08:00:00Z', '2026-11-10T16:00:00Z'],
    ];
    expect(isoRanges('Nov 1-3; Nov 10 9am-5pm')).toEqual(want);
    expect(isoRanges('Nov 10 9am-5pm\nNov 1-3')).toEqual(want);
    expect(isoRanges('“Nov 10 9am-5pm”;\n\n“Nov 1-3”;')).toEqual(want);
  });

  it('touching ranges are fine', () => {
    expect(isoRanges('Nov 1; Nov 2')).toHaveLength(2);
  });

  it('overlapping ranges are an error naming both', () => {
    const out = parseTimeRanges('Nov 1 to Nov 3\nNov 10; Nov 2 9am-5pm', ctx);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.error).toContain('“Nov 1 to Nov 3”');
    expect(out.error).toContain('“Nov 2 9am-5pm”');
    expect(out.error).toMatch(/overlap/);
  });

  it('a bad part is reported with its position', () => {
    const out = parseTimeRanges('Nov 1; blah', ctx);
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.error).toMatch(/^Range 2 \(“blah”\)/);
  });

  it('nothing but separators is an empty request', () => {
    const out = parseTimeRanges(' ;\n; ', ctx);
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.error).toMatch(/no time range/i);
  });

  it('refuses too many ranges', () => {
    const out = parseTimeRanges(
      Array.from({ length: 51 }, (_, i) => `${i + 1000000000} to ${i + 1000000001}`).join(';'),
      ctx,
    );
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.error).toMatch(/too many/i);
  });

  it('requirePast applies to every part', () => {
    const out = parseTimeRanges('Nov 1; tomorrow', { ...ctx, requirePast: true });
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.error).toMatch(/^Range 2 .*future/);
  });
});
