import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { type DriverTarget, openLoop, slashCommandBody } from './driver.js';
import { machineInfo } from './machine.js';
import { type AppProcess, heapReader, procStatusMb, readFrom, spawnApp, tail } from './procs.js';
import type { Machine } from './results.js';
import { LEARN_TEXT } from './run.js';
import { ServicesClient } from './services-client.js';

/** The emulator's first created flow: the soak's first command creates it. */
const FIRST_FLOW_ID = '1400000000000000001';

import { median, round, summarize } from './stats.js';

/** One reading of the bot's memory (MB): the process's resident set, and each thread's V8 heap in use. */
export interface MemorySample {
  /** Minutes since the load began. */
  atMin: number;
  rssMb: number;
  mainHeapMb: number | null;
  workerHeapMb: number | null;
}

export interface Trend {
  start: number;
  end: number;
  growth: number;
  /** Least-squares slope over the samples after the warm-up, MB per minute. */
  slopePerMinute: number;
}

/** The `soak` section of `bench/results.json` (MB, minutes, commands per second). */
export interface SoakResults {
  machine: Machine;
  date: string;
  minutes: number;
  commandsPerSecond: number;
  warmupMinutes: number;
  commands: number;
  failedRequests: number;
  ackP99Ms: number | null;
  flows: { created: number; followedToTheEnd: number };
  samples: number;
  rssMb: Trend | null;
  heapMb: { main: Trend | null; worker: Trend | null };
  /** Each growth within max(10 MB, 10 %) for the resident set and max(5 MB, 10 %) for each heap. */
  flat: boolean | null;
}

/**
 * Start and end of a series after the warm-up: the medians of its first and last quarter (at least one
 * sample each), so that one collection more or less does not decide; with the slope of the whole.
 */
export function trend(points: readonly { atMin: number; value: number | null }[]): Trend | null {
  const xs = points.filter((p): p is { atMin: number; value: number } => p.value !== null);
  if (xs.length < 2) return null;
  const w = Math.max(1, Math.floor(xs.length / 4));
  const start = median(xs.slice(0, w).map((p) => p.value))!;
  const end = median(xs.slice(-w).map((p) => p.value))!;
  const mx = xs.reduce((a, p) => a + p.atMin, 0) / xs.length;
  const my = xs.reduce((a, p) => a + p.value, 0) / xs.length;
  const sxx = xs.reduce((a, p) => a + (p.atMin - mx) ** 2, 0);
  const sxy = xs.reduce((a, p) => a + (p.atMin - mx) * (p.value - my), 0);
  return {
    start: round(start),
    end: round(end),
    growth: round(end - start),
    slopePerMinute: sxx === 0 ? 0 : round(sxy / sxx),
  };
}

/** Whether every series stayed within its bound (null when there was nothing to judge). */
export function isFlat(rss: Trend | null, heaps: (Trend | null)[]): boolean | null {
  if (!rss) return null;
  const within = (t: Trend, floorMb: number) => t.growth <= Math.max(floorMb, 0.1 * t.start);
  return within(rss, 10) && heaps.every((h) => h === null || within(h, 5));
}

export interface SoakOptions {
  minutes: number;
  rate: number;
  /** Seconds between memory readings. */
  sampleEverySec: number;
  serviceLatencyMs: number;
  log(line: string): void;
}

const USERS = ['U0ALICE', 'U0BOB', 'U0CAROL'];
const CHANNEL = 'C0GENERAL';
/**
 * One command in 50 is a learn: its flow is followed to its end (the emulator ends it within 3 s), which
 * takes two or three `chat.update`s and a thread reply. The bot paces those to Slack's limits (50 updates
 * a minute), so about 0.2 new flows a second is what it can show as they happen; more would measure a
 * queue that grows by design rather than a steady state. The rest read: help, the channel's flows, one flow.
 */
const MIX = [
  LEARN_TEXT,
  ...Array.from({ length: 49 }, (_, i) =>
    i % 3 === 0 ? 'help' : i % 3 === 1 ? 'flows 5' : `flow ${FIRST_FLOW_ID}`,
  ),
];
const distDir = fileURLToPath(new URL('..', import.meta.url));

/**
 * Memory over time: the bot as `npm start` runs it, at a steady rate of commands for `minutes`, with flow
 * tracking on and the emulator completing every flow. Its resident set comes from /proc; each thread's
 * heap from the "memory usage" line it logs on SIGUSR2.
 */
export async function runSoak(o: SoakOptions): Promise<SoakResults> {
  const signingSecret = randomBytes(16).toString('hex');
  const botToken = `xoxb-soak-${randomBytes(8).toString('hex')}`;
  const tmp = mkdtempSync(join(tmpdir(), 'tsai-soak-'));
  const db = join(tmp, 'bot.sqlite');
  const services = await ServicesClient.start({ signingSecret, botToken, latencyMs: o.serviceLatencyMs });
  let bot: AppProcess | undefined;
  try {
    bot = await spawnApp({
      name: 'bot',
      entry: join(distDir, 'bot', 'main.js'),
      env: {
        SLACK_BOT_TOKEN: botToken,
        SLACK_SIGNING_SECRET: signingSecret,
        SLACK_API_URL: services.info.slackApiUrl,
        TSAI_BASE_URL: services.info.emulatorUrl,
        TSAI_TOKEN: services.info.serviceToken,
        TSAI_ACCOUNT_ID: services.info.accountId,
        TSAI_DEFAULT_TIMEZONE: 'UTC',
        TSAI_TRACK_FLOWS: 'true',
        TSAI_TRACK_FIRST_POLL: '1s',
        TSAI_TRACK_MAX_INTERVAL: '5s',
        DATABASE_URL: db,
        LOG_LEVEL: 'info',
        NODE_ENV: 'production',
      },
      logFile: join(tmp, 'bot.log'),
      cwd: tmp,
    });
    const running = bot;
    await waitForLine(running.logFile, 'tsai-chatops bot is running', 30_000);
    const target: DriverTarget = { origin: running.origin, signingSecret };
    const heaps = heapReader(running);
    const samples: MemorySample[] = [];
    const began = performance.now();
    const sample = async () => {
      const heap = await heaps.read();
      const rss = procStatusMb(running.pid, 'VmRSS');
      if (rss === null) return;
      const s = { atMin: (performance.now() - began) / 60_000, rssMb: rss, ...heap };
      samples.push(s);
      o.log(
        `${s.atMin.toFixed(1)} min: RSS ${rss.toFixed(1)} MB, heap main ${s.mainHeapMb?.toFixed(1) ?? '?'} MB, worker ${s.workerHeapMb?.toFixed(1) ?? '?'} MB`,
      );
    };

    o.log(
      `load average before: ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
    o.log(`soak: ${o.minutes} min at ${o.rate} commands/s (1 in 50 a learn), flow tracking on`);
    let commands = 0;
    let failed = 0;
    const latencies: number[] = [];
    const segmentMs = o.sampleEverySec * 1000;
    const end = began + o.minutes * 60_000;
    while (end - performance.now() >= 1000) {
      const ms = Math.min(segmentMs, end - performance.now());
      const n = Math.max(1, Math.round((o.rate * ms) / 1000));
      const issued = await services.issue(n, USERS, CHANNEL);
      const r = await openLoop(target, {
        rate: o.rate,
        durationMs: ms,
        body: (i) =>
          slashCommandBody({
            text: MIX[(commands + i) % MIX.length]!,
            user: USERS[(commands + i) % USERS.length]!,
            channel: CHANNEL,
            triggerId: issued[i % issued.length]!.triggerId,
            responseUrl: issued[i % issued.length]!.responseUrl,
          }),
      });
      commands += r.sent;
      failed += r.errors;
      latencies.push(...r.latencies);
      if (!running.alive()) throw new Error(`the bot exited during the soak:\n${tail(running.logFile)}`);
      await sample();
    }
    o.log(
      `load average after: ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );

    // Let the last flows end and be followed to their end, reading the tracker's rows in the bot's store.
    const counted = await followedFlows(db, 90_000);
    await running.stop();

    const warmupMinutes = Math.min(2, o.minutes * 0.2);
    const steady = samples.filter((s) => s.atMin >= warmupMinutes);
    const series = (f: (s: MemorySample) => number | null) =>
      trend(steady.map((s) => ({ atMin: s.atMin, value: f(s) })));
    const rssMb = series((s) => s.rssMb);
    const main = series((s) => s.mainHeapMb);
    const worker = series((s) => s.workerHeapMb);
    const ack = summarize(latencies);
    return {
      machine: machineInfo(),
      date: new Date().toISOString(),
      minutes: o.minutes,
      commandsPerSecond: o.rate,
      warmupMinutes: round(warmupMinutes),
      commands,
      failedRequests: failed,
      ackP99Ms: ack ? round(ack.p99) : null,
      flows: { created: counted.created, followedToTheEnd: counted.finished },
      samples: steady.length,
      rssMb,
      heapMb: { main, worker },
      flat: isFlat(rssMb, [main, worker]),
    };
  } finally {
    await bot?.stop();
    await services.stop();
    if (!process.env.BENCH_KEEP_TMP) rmSync(tmp, { recursive: true, force: true });
    else o.log(`soak temp dir (log, database): ${tmp}`);
  }
}

async function waitForLine(file: string, text: string, timeoutMs: number): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (performance.now() < until) {
    if (readFrom(file, 0).text.includes(text)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the bot did not start within ${timeoutMs} ms:\n${tail(file)}`);
}

/** How many flows the bot follows and how many it followed to their end, once all are (or `maxMs` passed). */
async function followedFlows(db: string, maxMs: number): Promise<{ created: number; finished: number }> {
  const store = new Database(db, { readonly: true });
  try {
    const count = () =>
      store
        .prepare('SELECT count(*) AS created, count(finished_at) AS finished FROM tracked_flows')
        .get() as { created: number; finished: number };
    const until = performance.now() + maxMs;
    let c = count();
    while (c.finished < c.created && performance.now() < until) {
      await new Promise((r) => setTimeout(r, 1000));
      c = count();
    }
    return c;
  } finally {
    store.close();
  }
}
