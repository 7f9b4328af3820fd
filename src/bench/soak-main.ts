// `npm run bench:soak`: memory over time. BENCH_SOAK_MINUTES (default 10), BENCH_SOAK_RATE (commands/s,
// default 10), BENCH_SOAK_SAMPLE_S (seconds between readings, default 15). Adds its figures to
// bench/results.json as `soak` (BENCH_OUT for another file), keeping the rest of the file.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { runSoak } from './soak.js';

async function main(): Promise<void> {
  const env = process.env;
  const num = (v: string | undefined, d: number) => (v && Number(v) > 0 ? Number(v) : d);
  const soak = await runSoak({
    minutes: num(env.BENCH_SOAK_MINUTES, 10),
    rate: num(env.BENCH_SOAK_RATE, 10),
    sampleEverySec: num(env.BENCH_SOAK_SAMPLE_S, 15),
    serviceLatencyMs: 100,
    log: (line) => console.error(line),
  });
  const out = resolve(env.BENCH_OUT ?? 'bench/results.json');
  const current = existsSync(out) ? (JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>) : {};
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify({ ...current, soak }, null, 2)}\n`);
  console.log(JSON.stringify(soak, null, 2));
  console.log(`\nwritten: ${out} (soak)`);
  if (soak.flat === false) process.exitCode = 1;
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
