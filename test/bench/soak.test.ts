import { describe, expect, it } from 'vitest';
import { isFlat, trend } from '../../bench/soak.js';
import { soakMinutes } from '../../bench/soak-phase.js';

const series = (values: (number | null)[]) => values.map((value, i) => ({ atMin: i, value }));

describe('the soak summary', () => {
  it('start and end are the medians of the first and last quarter; the slope is fitted on all', () => {
    // Quarters of 3: medians 100 (98, 100, 104) and 101 (99, 101, 102); noise, no slope to speak of.
    expect(trend(series([100, 104, 98, 101, 103, 99, 100, 102, 99, 101, 102, 99]))).toEqual({
      start: 100,
      end: 101,
      growth: 1,
      slopePerMinute: -0.07,
    });
    expect(trend(series([100, 110, 120, 130]))).toEqual({
      start: 100,
      end: 130,
      growth: 30,
      slopePerMinute: 10,
    });
  });

  it('missing readings are left out, and fewer than two give no trend', () => {
    expect(trend(series([null, 50, null, 60]))).toEqual({
      start: 50,
      end: 60,
      growth: 10,
      slopePerMinute: 5,
    });
    expect(trend(series([null, 50]))).toBeNull();
  });

  it('flat: each growth within max(10 MB, 10 %) for the resident set and max(5 MB, 10 %) per heap', () => {
    const t = (start: number, growth: number) => ({ start, end: start + growth, growth, slopePerMinute: 0 });
    expect(isFlat(t(150, 9), [t(30, 4), t(20, 5)])).toBe(true);
    expect(isFlat(t(300, 29), [t(80, 8)])).toBe(true);
    expect(isFlat(t(150, 16), [t(30, 1)])).toBe(false);
    expect(isFlat(t(150, 1), [t(30, 6)])).toBe(false);
    expect(isFlat(null, [])).toBeNull();
  });
});

describe('how long the bench soaks', () => {
  it('10 minutes unless told; 1 in a quick run; 0 skips it', () => {
    expect(soakMinutes({})).toBe(10);
    expect(soakMinutes({ BENCH_QUICK: '1' })).toBe(1);
    expect(soakMinutes({ BENCH_SOAK_MINUTES: '0' })).toBe(0);
    expect(soakMinutes({ BENCH_SOAK_MINUTES: '60', BENCH_QUICK: '1' })).toBe(60);
    expect(soakMinutes({ BENCH_SOAK_MINUTES: 'ten' })).toBe(10);
  });
});
