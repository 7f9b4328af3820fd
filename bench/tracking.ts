import { performance } from 'node:perf_hooks';
import { closedLoop, type DriverTarget, type RunResult } from './driver.js';
import { type AppProcess, procCpuMs, procStatusMb } from './procs.js';
import type { IssuedCommand, ServicesClient } from './services-client.js';
import { type Summary, summarize } from './stats.js';

/** The figures of the flow-following phase (ms, MB, per second). */
export interface TrackingMeasurements {
  flows: number;
  windowS: number;
  /** Flows created by the phase's commands (the emulator's POSTs that succeeded). */
  created: number;
  /** GET …/flows/{id} the service received per second while the bot followed them (nothing else going on). */
  readsPerSecond: number;
  /** CPU the bot spent per second following them, with no commands: its acking thread, the whole process. */
  mainThreadCpuMsPerS: number | null;
  processCpuMsPerS: number | null;
  rssMb: { before: number | null; during: number | null };
  /** `help` acks at 50 concurrent, without followed flows and while following them (all rounds pooled). */
  ack: {
    without: Summary | undefined;
    with: Summary | undefined;
    roundsWithout: number[];
    roundsWith: number[];
  };
}

export interface TrackingContext {
  bot: AppProcess;
  services: ServicesClient;
  target: (p: AppProcess) => DriverTarget;
  issue: (n: number) => Promise<IssuedCommand[]>;
  bodies: (issued: IssuedCommand[], text: string) => (i: number) => string;
  learnText: (i: number) => string;
  log: (line: string) => void;
  flows: number;
  windowMs: number;
  /** The service's latency in the rest of the bench, restored at the end. */
  latencyMs: number;
}

/**
 * 1,000 flows followed at once: the bot creates them (the service answers in 50 ms here, and keeps the
 * flows RUNNING for longer than the window), then, while it reads them back, the phase records the
 * service's read rate, the bot's CPU and resident memory, and `help` ack latency against rounds taken
 * just before, with nothing to follow.
 */
/** Learns sent at once while creating the flows to follow. */
const CREATE_CHUNK = 200;

export async function measureTracking(ctx: TrackingContext): Promise<TrackingMeasurements> {
  const { bot, services, log } = ctx;
  await services.configure({
    latencyMs: 50,
    flowDelays: { runningAfterMs: 5_000, completedAfterMs: 600_000 },
  });
  const helpRound = async (): Promise<RunResult> => {
    const issued = await ctx.issue(600);
    return closedLoop(ctx.target(bot), {
      concurrency: 50,
      total: 600,
      maxMs: 60_000,
      body: ctx.bodies(issued, 'help'),
      untimedFirst: true,
    });
  };
  const p50 = (r: RunResult) => summarize(r.latencies)?.p50 ?? Number.NaN;
  try {
    const without: RunResult[] = [];
    for (let i = 0; i < 3; i++) without.push(await helpRound());
    const rssBefore = procStatusMb(bot.pid, 'VmRSS');

    // The flows exist once the bot's follow-ups have created them.
    const created = async () =>
      (await services.serviceRequests()).filter(
        (r) => r.method === 'POST' && /flows$/.test(r.path) && (r.status ?? 0) < 300,
      ).length;
    const before = await created();
    const issued = await ctx.issue(ctx.flows);
    const deadline = performance.now() + 120_000;
    let acked = 0;
    let ackMs = 0;
    let n = 0;
    // In chunks the service client takes whole (128 in flight + 256 queued): a single burst of 1,000 would
    // have the rest refused at once as busy, by design, and fewer flows followed than asked for.
    for (let from = 0; from < ctx.flows && performance.now() < deadline; from += CREATE_CHUNK) {
      const size = Math.min(CREATE_CHUNK, ctx.flows - from);
      const create = await closedLoop(ctx.target(bot), {
        concurrency: 50,
        total: size,
        maxMs: 120_000,
        body: (i) => ctx.bodies([issued[from + i]!], ctx.learnText(from + i))(0),
      });
      acked += create.sent;
      ackMs += create.elapsedMs;
      n = (await created()) - before;
      while (n < from + size && performance.now() < deadline) {
        await new Promise((r) => setTimeout(r, 250));
        n = (await created()) - before;
      }
    }
    log(`tracking: ${acked} learn commands acked in ${ackMs.toFixed(0)} ms (in chunks of ${CREATE_CHUNK})`);
    log(`tracking: ${n} of ${ctx.flows} flows created; following them for ${ctx.windowMs / 1000} s`);

    // First the cost of following alone (no commands), then acks beside it.
    const start = Date.now();
    const cpu0 = procCpuMs(bot.pid);
    const main0 = procCpuMs(bot.pid, true);
    let rssDuring = 0;
    while (Date.now() - start < ctx.windowMs) {
      rssDuring = Math.max(rssDuring, procStatusMb(bot.pid, 'VmRSS') ?? 0);
      await new Promise((r) => setTimeout(r, 500));
    }
    const end = Date.now();
    const cpu1 = procCpuMs(bot.pid);
    const main1 = procCpuMs(bot.pid, true);
    const seconds = (end - start) / 1000;
    const reads = (await services.serviceRequests()).filter(
      (r) =>
        r.method === 'GET' && /\/flows\/\d+$/.test(r.path) && r.receivedAt >= start && r.receivedAt <= end,
    ).length;
    const withRounds: RunResult[] = [];
    for (let i = 0; i < 3; i++) withRounds.push(await helpRound());
    const perS = (a: number | null, b: number | null) => (a == null || b == null ? null : (b - a) / seconds);
    const m: TrackingMeasurements = {
      flows: ctx.flows,
      windowS: Math.round(seconds),
      created: n,
      readsPerSecond: reads / seconds,
      mainThreadCpuMsPerS: perS(main0, main1),
      processCpuMsPerS: perS(cpu0, cpu1),
      rssMb: { before: rssBefore, during: rssDuring || null },
      ack: {
        without: summarize(without.flatMap((r) => r.latencies)),
        with: summarize(withRounds.flatMap((r) => r.latencies)),
        roundsWithout: without.map(p50),
        roundsWith: withRounds.map(p50),
      },
    };
    log(
      `tracking: ${m.readsPerSecond.toFixed(1)} reads/s, main thread ${m.mainThreadCpuMsPerS?.toFixed(1)} ms CPU/s, process ${m.processCpuMsPerS?.toFixed(1)} ms CPU/s, RSS ${rssBefore?.toFixed(0)} → ${rssDuring.toFixed(0)} MB; help c=50 p50 per round without ${m.ack.roundsWithout.map((x) => x.toFixed(1)).join('/')} ms, with ${m.ack.roundsWith.map((x) => x.toFixed(1)).join('/')} ms`,
    );
    return m;
  } finally {
    await services.configure({
      latencyMs: ctx.latencyMs,
      flowDelays: { runningAfterMs: 1_000, completedAfterMs: 3_000 },
    });
  }
}
