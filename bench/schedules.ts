// Schedules: what 10,000 schedules cost between their runs, and 1,000 runs due at the same minute (when
// each reached the service, none twice, and `help` acks while they start). The schedules are made through
// the bot's real path, signed `/tsai schedule "…" learn …` commands; the bench only reads the bot's SQLite
// file to know when they are all held.
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { closedLoop, type RunResult } from './driver.js';
import { type AppProcess, procStatusMb } from './procs.js';
import type { ServiceRequest, ServicesClient } from './services-client.js';
import { type Summary, summarize } from './stats.js';
import {
  type HelpDriver,
  helpRoundsC50,
  isFlowPost,
  measureQuiet,
  roundP50,
  waitForCount,
} from './window.js';

export interface IdleSchedulesMeasurements {
  schedules: number;
  /** Held active in the bot's store when the window began. */
  held: number;
  /** From the first command sent to all held (ms). */
  createMs: number;
  windowS: number;
  mainThreadCpuMsPerS: number | null;
  processCpuMsPerS: number | null;
  rssMb: { before: number | null; during: number | null };
}

export interface DueRunsMeasurements {
  schedules: number;
  /** Held in the store with their next run at the minute, before it came. */
  held: number;
  /** The service's latency during the burst (ms), as the rest of the bench has it. */
  serviceLatencyMs: number;
  /** Flow POSTs of these schedules the service received, and how many distinct flows they named. */
  posts: number;
  distinct: number;
  /** Seconds from the minute's instant to each run's POST reaching the service. */
  startS: Summary | undefined;
  ack: {
    before: Summary | undefined;
    during: Summary | undefined;
    roundsBefore: number[];
    roundsDuring: number[];
  };
}

export interface SchedulesMeasurements {
  idle: IdleSchedulesMeasurements;
  due: DueRunsMeasurements;
}

export interface SchedulesContext extends HelpDriver {
  bot: AppProcess;
  /** The bot's SQLite file. */
  database: string;
  services: ServicesClient;
  /** The bench's learn command with this flow name and a range read at each run ("last 8 hours"). */
  learnText: (name: string) => string;
  log: (line: string) => void;
  latencyMs: number;
}

const MINUTE = 60_000;
/** Schedule commands sent per chunk (at 50 concurrent) before waiting for the bot to hold them. */
const CREATE_CHUNK = 500;

/** "HH:MM" of an instant, in UTC. */
export function utcClock(at: number): string {
  const d = new Date(at);
  return `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
}

/** The first whole minute at least `leadMs` after `now`. */
export function minuteAfter(now: number, leadMs: number): number {
  return Math.ceil((now + leadMs) / MINUTE) * MINUTE;
}

/** Schedules named `<label> …` the bot holds active (with their next run at `nextRunAt`, when given). */
function held(database: string, label: string, nextRunAt?: number): number {
  const db = new Database(database, { readonly: true, fileMustExist: true });
  try {
    const at = nextRunAt === undefined ? '' : ' AND next_run_at = ?';
    const row = db
      .prepare(`SELECT count(*) AS n FROM schedules WHERE status = 'active' AND name LIKE ?${at}`)
      .get(`${label} %`, ...(nextRunAt === undefined ? [] : [nextRunAt])) as { n: number };
    return row.n;
  } catch {
    // The bot has not made its tables yet.
    return 0;
  } finally {
    db.close();
  }
}

/**
 * `count` daily schedules of a learn, each named `<label> i` (the schedule and its flow), all at `clock`
 * UTC, sent as signed commands; resolves once the bot holds them all, or after `maxMs`.
 */
async function createSchedules(
  ctx: SchedulesContext,
  o: { count: number; label: string; clock: string; maxMs: number; nextRunAt?: number },
): Promise<{ held: number; ms: number }> {
  const start = Date.now();
  const text = (i: number) =>
    `schedule "every day at ${o.clock} in UTC" name="${o.label} ${i}" ${ctx.learnText(`${o.label} ${i}`)}`;
  let n = 0;
  for (let from = 0; from < o.count && Date.now() - start < o.maxMs; from += CREATE_CHUNK) {
    const size = Math.min(CREATE_CHUNK, o.count - from);
    const issued = await ctx.issue(size);
    const r: RunResult = await closedLoop(ctx.target, {
      concurrency: 50,
      total: size,
      maxMs: o.maxMs,
      body: (i) => ctx.bodies([issued[i]!], text(from + i))(0),
    });
    if (r.errors) ctx.log(`schedules: ${r.errors} schedule commands failed: ${JSON.stringify(r.outcomes)}`);
    n = await waitForCount(
      () => held(ctx.database, o.label, o.nextRunAt),
      from + size,
      performance.now() + o.maxMs - (Date.now() - start),
    );
  }
  return { held: n, ms: Date.now() - start };
}

/** 10,000 schedules whose next runs are 12 hours away; the bot's CPU over a window with no commands. */
export async function measureIdleSchedules(
  ctx: SchedulesContext,
  o: { schedules: number; windowMs: number },
): Promise<IdleSchedulesMeasurements> {
  const rssBefore = procStatusMb(ctx.bot.pid, 'VmRSS');
  const made = await createSchedules(ctx, {
    count: o.schedules,
    label: 'idle',
    clock: utcClock(Date.now() + 12 * 60 * MINUTE),
    maxMs: 15 * MINUTE,
  });
  ctx.log(`schedules: ${made.held} of ${o.schedules} held after ${(made.ms / 1000).toFixed(1)} s`);
  // Their creation's follow-ups (replies, audit) are over before the window.
  await ctx.services.settle(2500, 60_000);
  const w = await measureQuiet(ctx.bot, ctx.services, o.windowMs);
  const m: IdleSchedulesMeasurements = {
    schedules: o.schedules,
    held: made.held,
    createMs: made.ms,
    windowS: Math.round(w.seconds),
    mainThreadCpuMsPerS: w.mainThreadCpuMsPerS,
    processCpuMsPerS: w.processCpuMsPerS,
    rssMb: { before: rssBefore, during: w.rssDuringMb },
  };
  ctx.log(
    `schedules: ${made.held} idle, process ${m.processCpuMsPerS?.toFixed(1)} ms CPU/s (main thread ${m.mainThreadCpuMsPerS?.toFixed(1)}), RSS ${rssBefore?.toFixed(0)} → ${w.rssDuringMb?.toFixed(0)} MB`,
  );
  return m;
}

const duePosts = (reqs: ServiceRequest[]) => reqs.filter((r) => isFlowPost(r) && r.name?.startsWith('due '));

/**
 * 1,000 schedules due at the same minute: made ahead of it (the minute is chosen from how fast the bot
 * took the idle ones), `help` rounds just before it and from its instant, then every run's POST at the
 * service, timed from the minute, and counted: one per schedule, none twice.
 */
export async function measureDueRuns(
  ctx: SchedulesContext,
  o: { schedules: number; msPerSchedule: number },
): Promise<DueRunsMeasurements> {
  // Room to make them, with half as much again to spare, and for the rounds before the minute.
  const lead = 1.5 * o.msPerSchedule * o.schedules + 30_000;
  const due = minuteAfter(Date.now(), lead);
  const made = await createSchedules(ctx, {
    count: o.schedules,
    label: 'due',
    clock: utcClock(due),
    maxMs: Math.max(0, due - Date.now() - 15_000),
    nextRunAt: due,
  });
  ctx.log(
    `schedules: ${made.held} of ${o.schedules} held, due at ${new Date(due).toISOString()} (${((due - Date.now()) / 1000).toFixed(0)} s from now)`,
  );
  const before = await helpRoundsC50(ctx, 3);
  if (Date.now() > due) ctx.log('schedules: WARNING the rounds before the minute ran past it');
  await new Promise((r) => setTimeout(r, Math.max(0, due - Date.now())));
  const during = await helpRoundsC50(ctx, 3);
  // Gathered as they come: the emulator keeps only its newest 10,000 requests, and the flows are read too.
  const seen = new Map<number, ServiceRequest>();
  const gather = async () => {
    for (const p of duePosts(await ctx.services.serviceRequests())) seen.set(p.seq, p);
  };
  await gather();
  while (seen.size < made.held && Date.now() - due < 3 * MINUTE) {
    await new Promise((r) => setTimeout(r, 1000));
    await gather();
  }
  // A second run of any schedule would come after the first: look a while longer.
  await new Promise((r) => setTimeout(r, 5_000));
  await gather();
  const posts = [...seen.values()];
  const m: DueRunsMeasurements = {
    schedules: o.schedules,
    held: made.held,
    serviceLatencyMs: ctx.latencyMs,
    posts: posts.length,
    distinct: new Set(posts.map((p) => p.name)).size,
    startS: summarize(posts.map((p) => (p.receivedAt - due) / 1000)),
    ack: {
      before: summarize(before.flatMap((r) => r.latencies)),
      during: summarize(during.flatMap((r) => r.latencies)),
      roundsBefore: before.map(roundP50),
      roundsDuring: during.map(roundP50),
    },
  };
  ctx.log(
    `schedules: ${m.posts} flow POSTs (${m.distinct} distinct) for ${m.held} due runs; start after the minute p50 ${m.startS?.p50.toFixed(1)} s, max ${m.startS?.max.toFixed(1)} s; help c=50 p50 per round before ${m.ack.roundsBefore.map((x) => x.toFixed(1)).join('/')} ms, during ${m.ack.roundsDuring.map((x) => x.toFixed(1)).join('/')} ms`,
  );
  return m;
}
