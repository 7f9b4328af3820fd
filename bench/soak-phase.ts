// The soak as a phase of a bench run: its settings from the environment, and its section of the results
// file. `npm run bench` runs it last; `npm run bench:soak` runs it alone.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { runSoak, type SoakResults } from './soak.js';

/**
 * BENCH_SOAK_MINUTES (default 10; 1 with BENCH_QUICK; 0 skips the soak and keeps the figures already in
 * the results file), BENCH_SOAK_RATE (commands/s, default 10), BENCH_SOAK_SAMPLE_S (seconds between
 * readings, default 15).
 */
export function soakMinutes(env: NodeJS.ProcessEnv): number {
  const asked = env.BENCH_SOAK_MINUTES;
  if (asked !== undefined && asked.trim() !== '' && Number(asked) >= 0) return Number(asked);
  return env.BENCH_QUICK ? 1 : 10;
}

export async function runSoakPhase(env: NodeJS.ProcessEnv, minutes: number): Promise<SoakResults> {
  const num = (v: string | undefined, d: number) => (v && Number(v) > 0 ? Number(v) : d);
  return runSoak({
    minutes,
    rate: num(env.BENCH_SOAK_RATE, 10),
    sampleEverySec: num(env.BENCH_SOAK_SAMPLE_S, minutes < 5 ? 5 : 15),
    serviceLatencyMs: 100,
    log: (line) => console.error(line),
  });
}

/** Writes the results file with these sections replaced, keeping every other section it holds. */
export function writeSections(out: string, sections: Record<string, unknown>): void {
  const current = existsSync(out) ? (JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>) : {};
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify({ ...current, ...sections }, null, 2)}\n`);
}
