// The echo of a range outside the current year names its year; the echo of many ranges stays within a bound.
import { describe, expect, it } from 'vitest';
import { DEFAULT_ECHO_CHARS, describeRange, describeRanges, parseTimeRanges } from '../../src/time/index.js';
import { isoZToNs } from '../support/zone-oracle.js';

const r = (start: string, end: string) => ({ startNs: isoZToNs(start), endNs: isoZToNs(end) });
const now = isoZToNs('2026-11-25T12:00:00Z');

describe('the year in the echo', () => {
  it.each([
    [r('2026-11-01T09:00:00Z', '2026-11-01T17:00:00Z'), 'UTC', 'Sun 1 Nov 09:00 – 17:00 UTC'],
    [r('2025-11-01T09:00:00Z', '2025-11-01T17:00:00Z'), 'UTC', 'Sat 1 Nov 2025 09:00 – 17:00 UTC'],
    [
      r('2025-11-01T00:00:00Z', '2025-11-04T00:00:00Z'),
      'UTC',
      'Sat 1 Nov 2025 00:00 – Tue 4 Nov 2025 00:00 UTC',
    ],
    [
      r('2025-11-21T03:30:00Z', '2025-11-21T11:30:00Z'),
      'Asia/Kolkata',
      'Fri 21 Nov 2025 09:00 – 17:00 IST (03:30–11:30 UTC)',
    ],
    [
      r('2024-12-31T22:00:00Z', '2025-01-01T02:00:00Z'),
      'UTC',
      'Tue 31 Dec 2024 22:00 – Wed 1 Jan 2025 02:00 UTC',
    ],
    [
      r('2027-01-01T00:00:00Z', '2027-01-02T00:00:00Z'),
      'America/Los_Angeles',
      'Thu 31 Dec 2026 16:00 – Fri 1 Jan 2027 16:00 PST (Fri 1 Jan 2027 00:00 – Sat 2 Jan 2027 00:00 UTC)',
    ],
    // In Kolkata this is New Year's Day of the current year; in UTC it still is the year before.
    [
      r('2025-12-31T18:30:00Z', '2025-12-31T19:30:00Z'),
      'Asia/Kolkata',
      'Thu 1 Jan 00:00 – 01:00 IST (Wed 31 Dec 2025 18:30–19:30 UTC)',
    ],
  ])('%#: in %s', (range, tz, want) => {
    expect(describeRange(range, tz, { now })).toBe(want);
  });

  it('the current year is the user’s: on New Year’s Eve in Los Angeles, 2027 has begun in UTC', () => {
    const eve = isoZToNs('2027-01-01T03:00:00Z'); // 31 Dec 2026, 19:00 in Los Angeles
    const range = r('2026-12-31T17:00:00Z', '2026-12-31T18:00:00Z');
    expect(describeRange(range, 'America/Los_Angeles', { now: eve })).toBe(
      'Thu 31 Dec 09:00 – 10:00 PST (17:00–18:00 UTC)',
    );
  });

  it('a parsed range from last year is echoed with its year', () => {
    const out = parseTimeRanges('2025-11-01 to 2025-11-03', { now, timeZone: 'Europe/Berlin' });
    if (!out.ok) throw new Error(out.error);
    expect(describeRange(out.ranges[0]!, 'Europe/Berlin', { now })).toBe(
      'Sat 1 Nov 2025 00:00 – Tue 4 Nov 2025 00:00 CET (Fri 31 Oct 2025 23:00 – Mon 3 Nov 2025 23:00 UTC)',
    );
  });
});

/** n touching one-hour ranges from 1 Nov 2026 00:00 UTC. */
function hours(n: number) {
  const start = isoZToNs('2026-11-01T00:00:00Z');
  const hour = 3_600_000_000_000n;
  return Array.from({ length: n }, (_, i) => ({
    startNs: start + BigInt(i) * hour,
    endNs: start + BigInt(i + 1) * hour,
  }));
}

describe('the echo of many ranges', () => {
  it('few ranges: every echo, one a line', () => {
    const ranges = hours(3);
    expect(describeRanges(ranges, 'UTC', { now })).toBe(
      'Sun 1 Nov 00:00 – 01:00 UTC\nSun 1 Nov 01:00 – 02:00 UTC\nSun 1 Nov 02:00 – 03:00 UTC',
    );
    expect(describeRanges(ranges, 'UTC', { now, separator: '; ' })).toBe(
      'Sun 1 Nov 00:00 – 01:00 UTC; Sun 1 Nov 01:00 – 02:00 UTC; Sun 1 Nov 02:00 – 03:00 UTC',
    );
  });

  it('40 ranges typed with “;” fit a Slack section by default, saying how many were left out', () => {
    const day = (i: number) => new Date(Date.UTC(2026, 8, 1 + i)).toISOString().slice(0, 10);
    const text = Array.from({ length: 40 }, (_, i) => `${day(i)} 22:00 to ${day(i + 1)} 06:00`);
    const out = parseTimeRanges(text.join('; '), { now, timeZone: 'Asia/Kolkata' });
    if (!out.ok) throw new Error(out.error);
    const echo = describeRanges(out.ranges, 'Asia/Kolkata', { now });
    expect(echo.length).toBeLessThanOrEqual(DEFAULT_ECHO_CHARS);
    expect(DEFAULT_ECHO_CHARS).toBeLessThan(3000);
    const lines = echo.split('\n');
    const left = Number(/^… and (\d+) more ranges$/.exec(lines.at(-1)!)?.[1]);
    expect(lines.length - 1 + left).toBe(40);
    expect(left).toBeGreaterThan(0);
    expect(lines[0]).toBe(describeRange(out.ranges[0]!, 'Asia/Kolkata', { now }));
  });

  it.each([100, 250, 400, 1000])('within %i characters, whole echoes only', (maxChars) => {
    const ranges = hours(40);
    const echoes = ranges.map((x) => describeRange(x, 'Asia/Kolkata', { now }));
    const echo = describeRanges(ranges, 'Asia/Kolkata', { now, maxChars });
    expect(echo.length).toBeLessThanOrEqual(maxChars);
    const lines = echo.split('\n');
    const shown = lines.slice(0, -1);
    expect(shown).toEqual(echoes.slice(0, shown.length));
    expect(lines.at(-1)).toBe(`… and ${40 - shown.length} more ranges`);
    // No room was wasted: one more echo would not have fitted.
    const more = `${[...shown, echoes[shown.length]].join('\n')}\n… and ${39 - shown.length} more ranges`;
    expect(more.length).toBeGreaterThan(maxChars);
  });

  it('says “1 more range”, never “range(s)”', () => {
    const ranges = hours(2);
    const first = describeRange(ranges[0]!, 'UTC', { now });
    expect(describeRanges(ranges, 'UTC', { now, maxChars: first.length + 20 })).toBe(
      `${first}\n… and 1 more range`,
    );
  });

  it('when not even one echo fits, it is cut between words and the rest are counted', () => {
    const ranges = hours(5);
    const echo = describeRanges(ranges, 'UTC', { now, maxChars: 40 });
    expect(echo).toBe('Sun 1 Nov 00:00…\n… and 4 more ranges');
    expect(describeRanges(ranges.slice(0, 1), 'UTC', { now, maxChars: 20 })).toBe('Sun 1 Nov 00:00…');
    expect(describeRanges(ranges, 'UTC', { now, maxChars: 12 })).toBe('5 ranges');
    expect(describeRanges(ranges, 'UTC', { now, maxChars: 3 })).toBe('');
  });
});
