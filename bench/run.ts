import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { SEED } from '../standins/emulator/index.js';
import {
  closedLoop,
  type DriverTarget,
  firstAck,
  openLoop,
  type RunResult,
  slashCommandBody,
} from './driver.js';
import { measureFlood } from './flood.js';
import { INSTALL_CLIENT, measureInstalls } from './installs.js';
import { machineInfo } from './machine.js';
import { benchParse } from './parse.js';
import {
  type AppProcess,
  otherThreadsMs,
  procCpuMs,
  procStatusMb,
  resetPeakRss,
  rssSampler,
  spawnApp,
  tail,
  threadsCpuMs,
} from './procs.js';
import { type AckCommand, CONCURRENCIES, type Concurrency, type Measurements } from './results.js';
import { measureDueRuns, measureIdleSchedules } from './schedules.js';
import { type IssuedCommand, ServicesClient } from './services-client.js';
import { summarize } from './stats.js';
import { measureStepAcks, measureWaitingSteps, type StepsContext } from './steps.js';
import { measureTraces } from './traces.js';
import { measureTracking } from './tracking.js';

export interface BenchOptions {
  /**
   * Alternating bot/bare rounds per command and concurrency. Even, so that each app goes first in half
   * of them: the first of a pair runs after the other's pause or the bot's settling, the second does not.
   */
  rounds: number;
  /** Requests per round at each concurrency. */
  requests: Record<Concurrency, number>;
  coldStartRuns: number;
  viewsOpenRounds: number;
  sustainedRates: number[];
  sustainedStepMs: number;
  serviceLatencyMs: number;
  botLogLevel: string;
  /** Extra node flags for the bot (e.g. `--cpu-prof`). */
  botNodeArgs: string[];
  /**
   * The bare app in the bot's place (an A/A run): its ratios are what the method itself moves, the spread
   * a verdict on the bot has to be read against.
   */
  bareAsBot: boolean;
  /** Extra node flags for the bare app, to profile it the same way. */
  bareNodeArgs: string[];
  /** Flows followed at once in the flow-following phase, and how long it measures. */
  trackedFlows: number;
  trackingWindowMs: number;
  /** Flood phase: rounds without and with the flood, signed `help` commands per round, flood connections. */
  floodRounds: number;
  floodRequests: number;
  floodConnections: number;
  /** Workflow Builder steps left waiting for their flows (the tracking phase's window). */
  waitingSteps: number;
  /** Schedules held between their runs, and schedules due at the same minute. */
  idleSchedules: number;
  dueSchedules: number;
  /** "Add to Slack": installations of the many-installations bot (the installs phase). */
  installations: number;
  /** The phases to run (all by default); the time-range parse always runs. */
  phases: ReadonlySet<Phase>;
  log(line: string): void;
}

export const PHASES = [
  'cold',
  'acks',
  'flood',
  'views',
  'sustained',
  'tracking',
  'steps',
  'schedules',
  'installs',
  'traces',
] as const;
export type Phase = (typeof PHASES)[number];

/** `BENCH_PHASES=cold,acks`: the phases named, in their usual order; anything unknown is an error. */
export function phasesFrom(list: string | undefined): ReadonlySet<Phase> {
  if (!list) return new Set(PHASES);
  const named = list
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const unknown = named.filter((p) => !(PHASES as readonly string[]).includes(p));
  if (unknown.length)
    throw new Error(`unknown bench phase(s) ${unknown.join(', ')}; known: ${PHASES.join(', ')}`);
  return new Set(named as Phase[]);
}

/**
 * An A/A run (`BENCH_BARE_AS_BOT=1`) measures cold starts and acks only, and never into the kept results:
 * the other phases drive what only the bot does (forms, flows, steps), and its figures are not the bot's.
 */
export function checkBareAsBot(phases: ReadonlySet<Phase>, writesKeptResults: boolean): void {
  const others = [...phases].filter((p) => p !== 'cold' && p !== 'acks');
  if (others.length || writesKeptResults)
    throw new Error(
      'BENCH_BARE_AS_BOT=1 measures cold starts and acks only, into a file of its own: add ' +
        'BENCH_PHASES=cold,acks BENCH_OUT=/tmp/aa.json',
    );
}

export const DEFAULT_OPTIONS: BenchOptions = {
  rounds: 8,
  requests: { 1: 1000, 50: 600, 200: 1200 },
  coldStartRuns: 5,
  viewsOpenRounds: 4,
  sustainedRates: [25, 50, 100, 200, 300, 400, 600, 800, 1000, 1300, 1600, 2000],
  sustainedStepMs: 4000,
  serviceLatencyMs: 2000,
  botLogLevel: 'info',
  botNodeArgs: [],
  bareAsBot: false,
  bareNodeArgs: [],
  trackedFlows: 1_000,
  trackingWindowMs: 60_000,
  floodRounds: 3,
  floodRequests: 300,
  floodConnections: 8,
  waitingSteps: 1_000,
  idleSchedules: 10_000,
  dueSchedules: 1_000,
  installations: 1_000,
  phases: new Set(PHASES),
  log: (line) => console.error(line),
};

const USERS = ['U0ALICE', 'U0BOB', 'U0CAROL'];
const CHANNEL = 'C0GENERAL';

/** `/tsai learn` with every argument, on the emulator's seed workspace and signals, over a past range. */
export const LEARN_TEXT =
  `learn workspace=${SEED.workspaces.pumpStation} ` +
  `signals=${SEED.signals.temperature}:temperature,${SEED.signals.pressure}:pressure ` +
  'range="2026-11-01 to 2026-11-03" model-name="bench model" name="bench learn"';
export const COMMAND_TEXT: Record<AckCommand | 'modal', string> = {
  help: 'help',
  learn: LEARN_TEXT,
  modal: 'learn',
};

const distDir = fileURLToPath(new URL('..', import.meta.url));

type Who = 'bot' | 'bare';

export async function runBench(opts: Partial<BenchOptions> = {}): Promise<Measurements> {
  const o: BenchOptions = { ...DEFAULT_OPTIONS, ...opts };
  const log = o.log;
  const signingSecret = randomBytes(16).toString('hex');
  const botToken = `xoxb-bench-${randomBytes(8).toString('hex')}`;
  const tmp = mkdtempSync(join(tmpdir(), 'tsai-bench-'));
  const m: Measurements = {
    machine: machineInfo(),
    ack: [],
    viewsOpen: null,
    sustainedCommandsPerSecond: null,
    coldStart: { bot: [], bare: [] },
    peakRss: { botMb: null, bareMb: null },
    parse: null,
  };

  const loadBefore = loadavg();
  log(`load average before: ${loadBefore.map((x) => x.toFixed(2)).join(' ')}`);
  const date = new Date().toISOString();
  m.parse = await measureParse(log);

  const services = await ServicesClient.start({
    signingSecret,
    botToken,
    latencyMs: o.serviceLatencyMs,
    ...installsOf(o),
  });
  let dbCount = 0;
  const envFor = (who: Who): Record<string, string> => {
    const slack = {
      SLACK_BOT_TOKEN: botToken,
      SLACK_SIGNING_SECRET: signingSecret,
      SLACK_API_URL: services.info.slackApiUrl,
    };
    if (who === 'bare') return slack;
    return {
      ...slack,
      TSAI_BASE_URL: services.info.emulatorUrl,
      TSAI_TOKEN: services.info.serviceToken,
      TSAI_ACCOUNT_ID: services.info.accountId,
      TSAI_DEFAULT_TIMEZONE: 'UTC',
      // The schedules phase measures 10,000 schedules of one person in one channel: what the bot costs at
      // that scale, not the limits that keep one person from making them.
      TSAI_SCHEDULES_PER_PERSON: '20000',
      TSAI_SCHEDULES_PER_CHANNEL: '20000',
      DATABASE_URL: join(tmp, `bot-${++dbCount}.sqlite`),
      LOG_LEVEL: o.botLogLevel,
      NODE_ENV: 'production',
    };
  };
  const spawnWho = async (who: Who, tag: string, more: Record<string, string> = {}) => {
    const env = { ...envFor(who), ...more };
    const p = await spawnApp({
      name: who,
      entry:
        who === 'bot' && !o.bareAsBot
          ? join(distDir, 'bot', 'main.js')
          : join(distDir, 'bench', 'bare-bolt.js'),
      env,
      logFile: join(tmp, `${who}-${tag}.log`),
      nodeArgs: who === 'bot' ? o.botNodeArgs : o.bareNodeArgs,
      // Not the checkout: a developer's .env there would change the bot under test.
      cwd: tmp,
    });
    return Object.assign(p, { database: env.DATABASE_URL });
  };
  const target = (p: AppProcess): DriverTarget => ({ origin: p.origin, signingSecret });
  const bodies = (issued: IssuedCommand[], text: string) => (i: number) =>
    slashCommandBody({
      text,
      user: USERS[i % USERS.length]!,
      channel: CHANNEL,
      triggerId: issued[i]!.triggerId,
      responseUrl: issued[i]!.responseUrl,
    });
  const issue = (n: number) => services.issue(n, USERS, CHANNEL);

  const settleBot = async (label: string) => {
    const s = await services.settle(2500, 60_000);
    if (!s.settled) log(`${label}: the bot's follow-up work did not finish within 60 s`);
    await services.reset();
  };

  const b: Bench = { o, log, services, target, bodies, issue, settleBot, spawnWho };
  const running: AppProcess[] = [];
  try {
    await runPhases(b, m, running, { signingSecret, tmp });
  } finally {
    const loadAfter = loadavg();
    log(`load average after: ${loadAfter.map((x) => x.toFixed(2)).join(' ')}`);
    const over1Min = (l: number[]) => Math.round(l[0]! * 100) / 100;
    m.run = { date, loadAverage: { before: over1Min(loadBefore), after: over1Min(loadAfter) } };
    await Promise.allSettled(running.map((p) => p.stop()));
    await services.stop();
    if (!process.env.BENCH_KEEP_TMP) rmSync(tmp, { recursive: true, force: true });
    else log(`bench temp dir (logs, databases): ${tmp}`);
  }
  return m;
}

/** Each phase the options ask for, in order; `running` collects the apps started, for the caller to stop. */
async function runPhases(
  b: Bench,
  m: Measurements,
  running: AppProcess[],
  at: { signingSecret: string; tmp: string },
): Promise<void> {
  const { o, log, services, spawnWho, target, issue, bodies, settleBot } = b;
  const { signingSecret, tmp } = at;
  const phase = (p: Phase) => o.phases.has(p);
  if (phase('cold')) await measureColdStarts(b, m);
  // The phases that share one bot and one bare app (the last two start their own).
  if (PHASES.some((p) => p !== 'cold' && p !== 'installs' && p !== 'traces' && phase(p))) {
    const { bare, bot } = await startApps(b, running);
    await warmUp(b, bare, bot);
    if (phase('acks')) await measureAcks(b, m, bare, bot);
    if (phase('flood')) m.flood = await measureFloods(b, [bot, bare]);

    if (bot) {
      if (phase('views')) m.viewsOpen = await measureViewsOpen(b, bot);
      if (phase('sustained')) m.sustainedCommandsPerSecond = await measureSustained(b, bot);
      if (phase('tracking')) m.tracking = await measureFollowing(b, running);
      if (phase('steps')) m.steps = await measureSteps(b, running, { bare, bot });
      if (phase('schedules')) m.schedules = await measureSchedules(b, running);
    }
  }
  if (phase('installs')) {
    // Alone on the machine: the apps of the other phases would weigh on one bot and not the other.
    await Promise.allSettled(running.splice(0).map((p) => p.stop()));
    const installs = await runInstallsPhase(o, services, signingSecret, tmp);
    if (installs) m.installs = installs;
  }
  if (phase('traces')) {
    // Alone too: three apps of their own, the bot with tracing off and on beside the bare app.
    await Promise.allSettled(running.splice(0).map((p) => p.stop()));
    m.traces = await measureTraces({
      log,
      spawn: spawnWho,
      target,
      issue,
      bodies,
      settle: settleBot,
      learnText: LEARN_TEXT,
      coldStartRuns: o.coldStartRuns,
      rounds: o.rounds,
      requests: { 1: Math.min(o.requests[1], 300), 50: o.requests[50] },
    });
  }
}

/** The time-range parse, with its fuzz run logged. */
async function measureParse(log: (line: string) => void): Promise<Measurements['parse']> {
  log('time-range parse …');
  const parse = await benchParse();
  const f = parse.fuzz;
  log(
    `time-range parse in other languages: ${parse.languages.phrases} phrases, median ${parse.languages.medianMs.toFixed(3)} ms, p99 ${parse.languages.p99Ms.toFixed(3)} ms; a range found in a sentence: median ${parse.find.medianMs.toFixed(3)} ms, p99 ${parse.find.p99Ms.toFixed(3)} ms`,
  );
  log(
    `time-range fuzz: ${f.strings} strings, per string median ${f.medianMs.toFixed(3)} ms, p99 ${f.p99Ms.toFixed(3)} ms, max ${f.maxMs.toFixed(3)} ms`,
  );
  return parse;
}

/** The workspaces the installations phase installs in, when it runs: one per tenant, and one more. */
function installsOf(o: BenchOptions) {
  return o.phases.has('installs') ? { installs: { teams: o.installations + 1, ...INSTALL_CLIENT } } : {};
}

/** The installations phase (installs.ts): two bots in "Add to Slack" mode, started from the bundle. */
function runInstallsPhase(o: BenchOptions, services: ServicesClient, signingSecret: string, tmp: string) {
  return measureInstalls({
    services,
    spawnBot: (env, tag) =>
      spawnApp({
        name: tag,
        entry: join(distDir, 'bot', 'main.js'),
        env,
        logFile: join(tmp, `${tag}.log`),
        nodeArgs: o.botNodeArgs,
        cwd: tmp,
      }),
    signingSecret,
    slackApiUrl: services.info.slackApiUrl,
    emulatorUrl: services.info.emulatorUrl,
    tmp,
    logLevel: o.botLogLevel,
    installations: o.installations,
    rounds: o.rounds,
    requests: { 1: o.requests[1], 50: o.requests[50] },
    texts: { help: COMMAND_TEXT.help, learn: COMMAND_TEXT.learn },
    log: o.log,
  });
}

/** What every measurement uses: the options, the stand-ins, and how to start, reach and drive an app. */
interface Bench {
  o: BenchOptions;
  log: (line: string) => void;
  services: ServicesClient;
  /** A new process; a bot's has the path of its SQLite file. */
  spawnWho: (
    who: Who,
    tag: string,
    env?: Record<string, string>,
  ) => Promise<AppProcess & { database?: string }>;
  target: (p: AppProcess) => DriverTarget;
  bodies: (issued: IssuedCommand[], text: string) => (i: number) => string;
  issue: (n: number) => Promise<IssuedCommand[]>;
  /** Waits for the bot's follow-up work, then clears the stand-ins. */
  settleBot: (label: string) => Promise<void>;
}

/** Cold start: spawn → first 200 to a signed `/tsai help`, alternating, fresh SQLite file per bot run. */
async function measureColdStarts(b: Bench, m: Measurements): Promise<void> {
  for (let run = 0; run < b.o.coldStartRuns; run++) {
    for (const who of run % 2 ? (['bot', 'bare'] as const) : (['bare', 'bot'] as const)) {
      const [one] = await b.issue(1);
      const p = await b.spawnWho(who, `cold-${run}`);
      const ms = await firstAck(b.target(p), () => b.bodies([one!], 'help')(0), {
        start: p.spawnedAt,
        timeoutMs: 20_000,
        alive: p.alive,
      });
      // CPU spent by then (the process, and its main thread): unlike the time, barely moved by other load.
      const cpu = procCpuMs(p.pid);
      const mainCpu = procCpuMs(p.pid, true);
      await p.stop();
      if (ms == null) {
        const why = p.alive() ? 'no ack within 20 s' : 'exited before acking';
        b.log(`${who}: ${why} (cold start run ${run + 1}); log tail:\n${tail(p.logFile)}`);
        continue;
      }
      m.coldStart[who].push(ms);
      b.log(
        `cold start ${who} #${run + 1}: ${ms.toFixed(0)} ms (CPU by then ${cpu} ms, main thread ${mainCpu} ms)`,
      );
    }
  }
  await b.services.settle(1000, 10_000);
  await b.services.reset();
}

/** Starts the bare Bolt app and the bot for the measurements that share them; a bot that does not start is left out. */
async function startApps(
  b: Bench,
  running: AppProcess[],
): Promise<{ bare: AppProcess; bot: AppProcess | undefined }> {
  const apps: Partial<Record<Who, AppProcess>> = {};
  for (const who of ['bare', 'bot'] as const) {
    const p = await b.spawnWho(who, 'main');
    running.push(p);
    const [one] = await b.issue(1);
    const ms = await firstAck(b.target(p), () => b.bodies([one!], 'help')(0), {
      start: p.spawnedAt,
      timeoutMs: 20_000,
      alive: p.alive,
    });
    if (ms == null) b.log(`${who} did not start; it is left out. Log tail:\n${tail(p.logFile)}`);
    else apps[who] = p;
  }
  const bare = apps.bare;
  if (!bare) throw new Error('the bare Bolt app did not start; nothing to compare against');
  const bot = apps.bot;

  return { bare, bot };
}

/** Warm-up (not measured): the JIT, connection pools and the bot's caches. */
async function warmUp(b: Bench, bare: AppProcess, bot: AppProcess | undefined): Promise<void> {
  for (const p of [bare, bot]) {
    if (!p) continue;
    for (const cmd of ['help', 'learn'] as const) {
      const issued = await b.issue(100);
      await closedLoop(b.target(p), {
        concurrency: 10,
        total: 100,
        maxMs: 30_000,
        body: b.bodies(issued, COMMAND_TEXT[cmd]),
      });
    }
  }
  if (bot) {
    await b.services.settle(2500, 60_000);
    const reqs = await b.services.serviceRequests();
    const learns = reqs.filter((r) => r.method === 'POST' && /flows$/.test(r.path)).length;
    b.log(`warm-up: the service received ${learns} flow requests for 100 learn commands`);
    if (learns === 0)
      b.log('WARNING: the learn command did not reach the service; check LEARN_TEXT against the grammar');
    await b.services.reset();
  }
}

/** Ack latency, alternating bot and bare each round; peak RSS over the 200-concurrent runs. */
async function measureAcks(
  b: Bench,
  m: Measurements,
  bare: AppProcess,
  bot: AppProcess | undefined,
): Promise<void> {
  for (const c of CONCURRENCIES) {
    let samplers: { who: Who; pid: number; hwm: boolean; sampler: ReturnType<typeof rssSampler> }[] = [];
    if (c === 200) {
      samplers = [bare, bot]
        .filter((p): p is AppProcess => !!p)
        .map((p) => ({
          who: p.name as Who,
          pid: p.pid,
          hwm: resetPeakRss(p.pid),
          sampler: rssSampler(p.pid),
        }));
    }
    for (const cmd of ['help', 'learn'] as const) {
      const row = { command: cmd, concurrency: c, bot: [] as number[], bare: [] as number[] };
      const mainCpu = { bot: [] as number[], bare: [] as number[] };
      for (let round = 0; round < b.o.rounds; round++) {
        const order = round % 2 ? ([bare, bot] as const) : ([bot, bare] as const);
        for (const p of order) {
          if (!p) continue;
          const n = b.o.requests[c];
          const issued = await b.issue(n);
          const cpu0 = procCpuMs(p.pid);
          const threads0 = threadsCpuMs(p.pid);
          const main0 = threads0.get(p.pid) ?? null;
          const r = await closedLoop(b.target(p), {
            concurrency: c,
            total: n,
            maxMs: 60_000,
            body: b.bodies(issued, COMMAND_TEXT[cmd]),
            untimedFirst: true,
          });
          const cpu1 = procCpuMs(p.pid);
          const threads1 = threadsCpuMs(p.pid);
          const main1 = threads1.get(p.pid) ?? null;
          row[p.name as Who].push(...r.latencies);
          if (main0 != null && main1 != null) mainCpu[p.name as Who].push((main1 - main0) / r.sent);
          if (p === bot) await b.settleBot(`${cmd} c=${c}`);
          const cpu2 = procCpuMs(p.pid);
          const others = otherThreadsMs(p.pid, threads0, threads1, threadsCpuMs(p.pid));
          const per = (before: number | null, after: number | null) =>
            before == null || after == null ? '?' : ((after - before) / r.sent).toFixed(2);
          logRun(
            b.log,
            `${cmd} c=${c} ${p.name} round ${round + 1}`,
            r,
            `; CPU/command ${per(cpu0, cpu1)} ms while acking (main thread ${per(main0, main1)}, busiest other ${per(0, others.busiest)}, the rest ${per(0, others.rest)}), ${per(cpu0, cpu2)} ms with follow-up work`,
          );
        }
      }
      m.ack.push(row);
      logMainCpu(b.log, `${cmd} c=${c}`, mainCpu);
    }
    for (const s of samplers) {
      const sampled = s.sampler.stop();
      const hwm = s.hwm ? procStatusMb(s.pid, 'VmHWM') : null;
      const peak = Math.max(hwm ?? 0, sampled ?? 0) || null;
      m.peakRss[s.who === 'bot' ? 'botMb' : 'bareMb'] = peak;
      b.log(`peak RSS ${s.who} (c=200): ${peak?.toFixed(1)} MB (VmHWM ${hwm?.toFixed(1) ?? 'n/a'})`);
    }
  }
}

/**
 * Flow tracking, by a bot of its own on a fresh database: the emulator's reset starts its flow IDs again,
 * and a bot that already followed flow 1400…001 would take a new one with that ID for the same flow.
 */
async function measureFollowing(b: Bench, running: AppProcess[]): Promise<Measurements['tracking']> {
  return withFreshBot(b, running, 'tracking', (follower) =>
    measureTracking({
      bot: follower,
      services: b.services,
      target: b.target,
      issue: b.issue,
      bodies: b.bodies,
      learnText: (i) => LEARN_TEXT.replace('name="bench learn"', `name="followed ${i}"`),
      log: b.log,
      flows: b.o.trackedFlows,
      windowMs: b.o.trackingWindowMs,
      latencyMs: b.o.serviceLatencyMs,
    }),
  );
}

/**
 * `measure` with a bot of its own on a fresh database (the emulator's flow IDs start again), acking a
 * signed `help`; stopped after, so that what it still follows does not weigh on the phases after it.
 */
async function withFreshBot<T>(
  b: Bench,
  running: AppProcess[],
  tag: string,
  measure: (bot: AppProcess & { database?: string }) => Promise<T>,
): Promise<T> {
  await b.services.settle(2500, 120_000);
  await b.services.reset();
  const p = await b.spawnWho('bot', tag);
  running.push(p);
  const [probe] = await b.issue(1);
  await firstAck(b.target(p), () => b.bodies([probe!], 'help')(0), {
    start: p.spawnedAt,
    timeoutMs: 20_000,
    alive: p.alive,
  });
  try {
    return await measure(p);
  } finally {
    await p.stop();
  }
}

/** Signed acks while another process floods each app with unsigned and falsely signed nested bodies. */
async function measureFloods(b: Bench, apps: (AppProcess | undefined)[]): Promise<Measurements['flood']> {
  const out: NonNullable<Measurements['flood']> = {};
  for (const p of apps) {
    if (!p) continue;
    out[p.name as Who] = await measureFlood({
      app: p,
      target: b.target,
      issue: b.issue,
      bodies: b.bodies,
      log: b.log,
      rounds: b.o.floodRounds,
      requests: b.o.floodRequests,
      connections: b.o.floodConnections,
    });
  }
  return out;
}

/** Workflow Builder steps: their acks against the bare app's, then steps waiting, on a bot of their own. */
async function measureSteps(
  b: Bench,
  running: AppProcess[],
  apps: { bare: AppProcess; bot: AppProcess },
): Promise<Measurements['steps']> {
  const ctx: StepsContext = { services: b.services, users: USERS, target: b.target, log: b.log };
  const ack = await measureStepAcks(ctx, apps, {
    rounds: b.o.rounds,
    requests: b.o.requests,
    settleBot: b.settleBot,
  });
  const waiting = await withFreshBot(b, running, 'steps', (waiter) =>
    measureWaitingSteps(ctx, waiter, {
      steps: b.o.waitingSteps,
      windowMs: b.o.trackingWindowMs,
      latencyMs: b.o.serviceLatencyMs,
    }),
  );
  return { ack, waiting };
}

/** Idle schedules, then runs due at one minute beside them, on a bot of their own. */
function measureSchedules(b: Bench, running: AppProcess[]): Promise<Measurements['schedules']> {
  return withFreshBot(b, running, 'schedules', (bot) => measureSchedulesOf(b, bot));
}

async function measureSchedulesOf(
  b: Bench,
  bot: AppProcess & { database?: string },
): Promise<Measurements['schedules']> {
  const ctx = {
    bot,
    database: bot.database!,
    services: b.services,
    target: b.target(bot),
    issue: b.issue,
    bodies: b.bodies,
    learnText: (name: string) =>
      LEARN_TEXT.replace(/range="[^"]*"/, 'range="last 8 hours"').replace(
        'name="bench learn"',
        `name="${name}"`,
      ),
    log: b.log,
    latencyMs: b.o.serviceLatencyMs,
  };
  const idle = await measureIdleSchedules(ctx, {
    schedules: b.o.idleSchedules,
    windowMs: b.o.trackingWindowMs,
  });
  const due = await measureDueRuns(ctx, {
    schedules: b.o.dueSchedules,
    msPerSchedule: idle.createMs / Math.max(1, idle.held),
  });
  return { idle, due };
}

/** Bursts of 50 modal commands; time from sending each to its views.open at the stand-in. */
async function measureViewsOpen(b: Bench, bot: AppProcess): Promise<number[] | null> {
  const [probe] = await b.issue(1);
  const before = performance.timeOrigin + performance.now();
  await closedLoop(b.target(bot), {
    concurrency: 1,
    total: 1,
    maxMs: 5000,
    body: b.bodies([probe!], COMMAND_TEXT.modal),
  });
  await new Promise((r) => setTimeout(r, 3000));
  const probed = (await b.services.calls('views.open')).calls.filter((c) => c.at >= before - 1);
  await b.services.settle(1000, 30_000);
  await b.services.reset();
  if (probed.length === 0) {
    b.log('views.open: `/tsai learn` with no arguments opens no modal yet — not available');
    return null;
  }
  const samples: number[] = [];
  for (let round = 0; round < b.o.viewsOpenRounds; round++) {
    const issued = await b.issue(50);
    const r = await closedLoop(b.target(bot), {
      concurrency: 50,
      total: 50,
      maxMs: 10_000,
      body: b.bodies(issued, COMMAND_TEXT.modal),
    });
    await new Promise((res) => setTimeout(res, 3500));
    const { calls } = await b.services.calls('views.open');
    const sent = new Map(issued.map((x, i) => [x.triggerId, performance.timeOrigin + r.sentAt[i]!]));
    let failed = 0;
    for (const call of calls) {
      const t0 = call.triggerId ? sent.get(call.triggerId) : undefined;
      if (t0 === undefined) continue;
      if (call.ok) samples.push(call.at - t0);
      else failed++;
    }
    b.log(`views.open round ${round + 1}: ${calls.length} calls, ${failed} failed, of 50 commands`);
    await b.services.settle(1000, 30_000);
    await b.services.reset();
  }
  return samples;
}

/** Steps an open-loop rate (help and learn alternating) up until p99 ack reaches 1 s or requests fail. */
async function measureSustained(b: Bench, bot: AppProcess): Promise<number | null> {
  let best: number | null = null;
  for (const rate of b.o.sustainedRates) {
    const n = Math.round((rate * b.o.sustainedStepMs) / 1000);
    const issued = await b.issue(n);
    const help = b.bodies(issued, COMMAND_TEXT.help);
    const learn = b.bodies(issued, COMMAND_TEXT.learn);
    const r = await openLoop(b.target(bot), {
      rate,
      durationMs: b.o.sustainedStepMs,
      body: (i) => (i % 2 ? learn(i) : help(i)),
    });
    const s = summarize(r.latencies);
    logRun(b.log, `sustained ${rate}/s`, r);
    if (!bot.alive()) {
      b.log(`the bot exited during the ${rate}/s step (log: ${bot.logFile}); the rate stops here`);
      break;
    }
    await b.settleBot(`sustained ${rate}/s`);
    if (!s || r.errors > 0 || s.p99 >= 1000) break;
    best = rate;
  }
  return best;
}

/** The acking thread's CPU per command, mean of the rounds, bot against bare: the figure least moved by other load. */
function logMainCpu(log: (l: string) => void, label: string, cpu: Record<Who, number[]>): void {
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, x) => a + x, 0) / xs.length : Number.NaN);
  const bot = mean(cpu.bot);
  const bare = mean(cpu.bare);
  log(
    `${label} acking-thread CPU per command (mean of rounds): bot ${bot.toFixed(3)} ms, bare ${bare.toFixed(3)} ms, ratio ${(bot / bare).toFixed(2)}`,
  );
}

function logRun(log: (l: string) => void, label: string, r: RunResult, extra = ''): void {
  const s = summarize(r.latencies);
  const errs = r.errors ? ` errors ${JSON.stringify(r.outcomes)}` : '';
  log(
    `${label}: ${r.sent} sent in ${r.elapsedMs.toFixed(0)} ms, p50 ${s?.p50.toFixed(1) ?? '-'} ms, p99 ${s?.p99.toFixed(1) ?? '-'} ms${errs}${extra}`,
  );
}
