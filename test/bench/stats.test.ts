import { describe, expect, it } from 'vitest';
import { median, percentile, ratio, round, summarize } from '../../bench/stats.js';

describe('bench statistics', () => {
  it('takes nearest-rank percentiles of sorted samples', () => {
    const s = Array.from({ length: 100 }, (_, i) => i + 1); // 1..100
    expect(percentile(s, 0.5)).toBe(50);
    expect(percentile(s, 0.99)).toBe(99);
    expect(percentile(s, 1)).toBe(100);
    expect(percentile(s, 0)).toBe(1);
    expect(percentile([7], 0.99)).toBe(7);
    expect(percentile([], 0.5)).toBeUndefined();
  });

  it('summarizes unsorted samples without changing them', () => {
    const xs = [5, 1, 4, 2, 3];
    expect(summarize(xs)).toEqual({ count: 5, p50: 3, p99: 5, max: 5 });
    expect(xs).toEqual([5, 1, 4, 2, 3]);
    expect(summarize([])).toBeUndefined();
    expect(median([300, 100, 200])).toBe(200);
  });

  it('rounds for the report and gives ratios only when both sides exist', () => {
    expect(round(1.23456)).toBe(1.23);
    expect(round(123.456)).toBe(123.5);
    expect(round(12345.6)).toBe(12346);
    expect(ratio(3, 2)).toBe(1.5);
    expect(ratio(1, 3)).toBe(0.33);
    expect(ratio(null, 2)).toBeNull();
    expect(ratio(2, 0)).toBeNull();
  });
});
