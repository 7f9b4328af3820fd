// `npm run bench`: the bot against a bare Bolt app (acks, and acks during a flood of unsigned bodies from
// another process: flood.ts), time-range parsing, then memory over time (the soak, 10 minutes;
// soak-phase.ts has its settings, BENCH_SOAK_MINUTES=0 skips it).
// Prints a table (with the previous run's cold start and peak RSS beside this one's) and writes
// bench/results.json, which the repository keeps, with a line for the run in bench/runs.jsonl.
// Options (environment): BENCH_QUICK=1 for a short run, BENCH_OUT=<file> for another output file,
// BENCH_KEEP_TMP=1 to keep the children's logs and databases, BENCH_BOT_NODE_ARGS="--cpu-prof
// --cpu-prof-dir=$PWD/prof" to profile the bot (BENCH_BARE_NODE_ARGS: the bare app; absolute dir: the
// children run in a temp dir), BENCH_PHASES=cold,acks,flood,views,sustained,tracking,steps,schedules,
// installs,traces for only some phases (their figures only; write them elsewhere with BENCH_OUT, as the
// others are left out), BENCH_BARE_AS_BOT=1 for an A/A run (the bare app in the bot's place; phases cold
// and acks, to BENCH_OUT).
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type BenchResults, buildResults, formatTable, runLogLine } from './results.js';
import { type BenchOptions, checkBareAsBot, phasesFrom, runBench } from './run.js';
import { runSoakPhase, soakMinutes, writeSections } from './soak-phase.js';

const QUICK: Partial<BenchOptions> = {
  rounds: 1,
  requests: { 1: 30, 50: 100, 200: 200 },
  coldStartRuns: 2,
  viewsOpenRounds: 1,
  sustainedRates: [50, 200, 800],
  sustainedStepMs: 2000,
  trackedFlows: 200,
  trackingWindowMs: 15_000,
  floodRounds: 1,
  floodRequests: 100,
  waitingSteps: 200,
  idleSchedules: 1_000,
  dueSchedules: 200,
  installations: 100,
};

/**
 * BENCH_WAITING_STEPS, BENCH_IDLE_SCHEDULES, BENCH_DUE_SCHEDULES, BENCH_INSTALLATIONS: counts of the steps,
 * schedules and installations phases.
 */
const COUNTS = {
  waitingSteps: 'BENCH_WAITING_STEPS',
  idleSchedules: 'BENCH_IDLE_SCHEDULES',
  dueSchedules: 'BENCH_DUE_SCHEDULES',
  installations: 'BENCH_INSTALLATIONS',
} as const;

/** The results file the repository keeps: the last full run's figures, docs/performance.md's table. */
const KEPT = 'bench/results.json';
/** The log of runs the repository keeps: a line per run written to KEPT, its figures and verdicts. */
const RUNS = 'bench/runs.jsonl';

function readResults(file: string): BenchResults | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  const env = process.env;
  const opts: Partial<BenchOptions> = env.BENCH_QUICK ? { ...QUICK } : {};
  if (env.BENCH_BOT_NODE_ARGS) opts.botNodeArgs = env.BENCH_BOT_NODE_ARGS.split(/\s+/).filter(Boolean);
  if (env.BENCH_BARE_NODE_ARGS) opts.bareNodeArgs = env.BENCH_BARE_NODE_ARGS.split(/\s+/).filter(Boolean);
  if (env.BENCH_BOT_LOG_LEVEL) opts.botLogLevel = env.BENCH_BOT_LOG_LEVEL;
  for (const [key, name] of Object.entries(COUNTS)) {
    const n = Number(env[name]);
    if (env[name] && Number.isInteger(n) && n > 0) opts[key as keyof typeof COUNTS] = n;
  }
  opts.phases = phasesFrom(env.BENCH_PHASES);
  const out = resolve(env.BENCH_OUT ?? KEPT);
  const keeps = out === resolve(KEPT);
  if (env.BENCH_BARE_AS_BOT) {
    checkBareAsBot(opts.phases, keeps);
    opts.bareAsBot = true;
  }
  // The run before this one, as the file this run writes keeps it (else the repository's): its cold start
  // and peak RSS are shown beside this run's.
  const previous = readResults(out) ?? readResults(resolve(KEPT));
  const results = buildResults(await runBench(opts));
  console.log(formatTable(results, previous));
  // Written before the soak, so that the ack figures are kept if the soak is stopped.
  writeSections(out, { ...results });
  console.log(`\nwritten: ${out}`);
  if (keeps) appendFileSync(resolve(RUNS), `${runLogLine(results)}\n`);
  const minutes = opts.bareAsBot ? 0 : soakMinutes(env);
  if (minutes === 0) return;
  const soak = await runSoakPhase(env, minutes);
  writeSections(out, { soak });
  console.log(`soak: ${minutes} min, RSS ${soak.rssMb?.start} → ${soak.rssMb?.end} MB, flat: ${soak.flat}`);
  console.log(`written: ${out} (soak)`);
  if (soak.flat === false) process.exitCode = 1;
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
