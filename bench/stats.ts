/** Nearest-rank percentile (p in 0..1) of an ascending array; undefined when there are no samples. */
export function percentile(sorted: readonly number[], p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  if (p <= 0) return sorted[0];
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
}

export interface Summary {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

/** p50/p99/max of unsorted samples (ms); undefined when there are none. */
export function summarize(samples: readonly number[]): Summary | undefined {
  if (samples.length === 0) return undefined;
  const s = [...samples].sort((a, b) => a - b);
  return { count: s.length, p50: percentile(s, 0.5)!, p99: percentile(s, 0.99)!, max: s[s.length - 1]! };
}

export function median(samples: readonly number[]): number | undefined {
  return percentile(
    [...samples].sort((a, b) => a - b),
    0.5,
  );
}

/** Rounds for the report: 2 decimals below 10, 1 below 1000, whole numbers above. */
export function round(n: number): number {
  const d = Math.abs(n) < 10 ? 100 : Math.abs(n) < 1000 ? 10 : 1;
  return Math.round(n * d) / d;
}

/** a / b rounded to 2 decimals; null when either side is missing or b is 0. */
export function ratio(a: number | null | undefined, b: number | null | undefined): number | null {
  if (a == null || b == null || b === 0) return null;
  return Math.round((a / b) * 100) / 100;
}
