import { closedLoop, type DriverTarget } from './driver.js';
import { type AppProcess, procStatusMb } from './procs.js';
import type { IssuedCommand, ServicesClient } from './services-client.js';
import { type Summary, summarize } from './stats.js';
import {
  createInChunks,
  helpRoundsC50,
  measureQuiet,
  roundP50,
  windowAfterCreation,
  withLongFlows,
} from './window.js';

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

export function measureTracking(ctx: TrackingContext): Promise<TrackingMeasurements> {
  const { bot, services, log } = ctx;
  const help = { target: ctx.target(bot), issue: ctx.issue, bodies: ctx.bodies };
  return withLongFlows(services, ctx.latencyMs, async () => {
    const without = await helpRoundsC50(help, 3);
    const rssBefore = procStatusMb(bot.pid, 'VmRSS');

    // The flows exist once the bot's follow-ups have created them.
    const issued = await ctx.issue(ctx.flows);
    const { acked, ackMs, created, startedAt } = await createInChunks({
      services,
      count: ctx.flows,
      chunk: CREATE_CHUNK,
      maxMs: 120_000,
      send: (from, size) =>
        closedLoop(ctx.target(bot), {
          concurrency: 50,
          total: size,
          maxMs: 120_000,
          body: (i) => ctx.bodies([issued[from + i]!], ctx.learnText(from + i))(0),
        }),
    });
    log(`tracking: ${acked} learn commands acked in ${ackMs.toFixed(0)} ms (in chunks of ${CREATE_CHUNK})`);
    log(`tracking: ${created} of ${ctx.flows} flows created; following them for ${ctx.windowMs / 1000} s`);

    // First the cost of following alone (no commands), then acks beside it.
    const w = await measureQuiet(bot, services, ctx.windowMs, windowAfterCreation(startedAt));
    const withRounds = await helpRoundsC50(help, 3);
    const m: TrackingMeasurements = {
      flows: ctx.flows,
      windowS: Math.round(w.seconds),
      created,
      readsPerSecond: w.readsPerSecond,
      mainThreadCpuMsPerS: w.mainThreadCpuMsPerS,
      processCpuMsPerS: w.processCpuMsPerS,
      rssMb: { before: rssBefore, during: w.rssDuringMb },
      ack: {
        without: summarize(without.flatMap((r) => r.latencies)),
        with: summarize(withRounds.flatMap((r) => r.latencies)),
        roundsWithout: without.map(roundP50),
        roundsWith: withRounds.map(roundP50),
      },
    };
    log(
      `tracking: ${m.readsPerSecond.toFixed(1)} reads/s, main thread ${m.mainThreadCpuMsPerS?.toFixed(1)} ms CPU/s, process ${m.processCpuMsPerS?.toFixed(1)} ms CPU/s, RSS ${rssBefore?.toFixed(0)} → ${w.rssDuringMb?.toFixed(0)} MB; help c=50 p50 per round without ${m.ack.roundsWithout.map((x) => x.toFixed(1)).join('/')} ms, with ${m.ack.roundsWith.map((x) => x.toFixed(1)).join('/')} ms`,
    );
    return m;
  });
}
