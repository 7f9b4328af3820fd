import { performance } from 'node:perf_hooks';
import { parseTimeRange } from '../time/index.js';
import { SAMPLE_PHRASES } from '../time/phrases.js';

const ZONES = ['UTC', 'America/New_York', 'Asia/Kolkata', 'Europe/Berlin'];
const NOW = new Date('2026-11-02T03:30:00Z');
const ROUNDS = 30;
const WARMUP_ROUNDS = 5;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

/** Time to parse one phrase of the sample table, over every phrase × zone, after warm-up rounds. */
export async function benchParse(): Promise<{ medianMs: number; p99Ms: number; phrases: number }> {
  const cases = ZONES.flatMap((timeZone) => SAMPLE_PHRASES.map((text) => ({ text, timeZone })));
  for (const c of cases) {
    const out = parseTimeRange(c.text, { now: NOW, timeZone: c.timeZone });
    if (!out.ok) throw new Error(`bench phrase no longer parses: “${c.text}” in ${c.timeZone}: ${out.error}`);
  }
  // A few more unmeasured rounds so the JIT has settled before timing starts.
  for (let round = 0; round < WARMUP_ROUNDS; round++) {
    for (const c of cases) parseTimeRange(c.text, { now: NOW, timeZone: c.timeZone });
  }
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of cases) {
      const t0 = performance.now();
      parseTimeRange(c.text, { now: NOW, timeZone: c.timeZone });
      samples.push(performance.now() - t0);
    }
  }
  samples.sort((a, b) => a - b);
  return { medianMs: percentile(samples, 0.5), p99Ms: percentile(samples, 0.99), phrases: cases.length };
}
