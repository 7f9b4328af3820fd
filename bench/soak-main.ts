// `npm run bench:soak`: memory over time alone, the last phase of `npm run bench` (settings: soak-phase.ts).
// Adds its figures to bench/results.json as `soak` (BENCH_OUT for another file), keeping the rest.
import { resolve } from 'node:path';
import { runSoakPhase, soakMinutes, writeSections } from './soak-phase.js';

async function main(): Promise<void> {
  const env = process.env;
  const soak = await runSoakPhase(env, soakMinutes(env) || 10);
  const out = resolve(env.BENCH_OUT ?? 'bench/results.json');
  writeSections(out, { soak });
  console.log(JSON.stringify(soak, null, 2));
  console.log(`\nwritten: ${out} (soak)`);
  if (soak.flat === false) process.exitCode = 1;
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
