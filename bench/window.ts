// What the phases that load the bot with waiting work share (followed flows, waiting Workflow Builder
// steps, idle and due schedules): the service set up for it, creating the work in chunks, a quiet window
// measuring what the waiting costs, and `help` ack rounds beside it.
import { performance } from 'node:perf_hooks';
import { closedLoop, type DriverTarget, type RunResult } from './driver.js';
import { type AppProcess, procCpuMs, procStatusMb } from './procs.js';
import type { IssuedCommand, ServiceRequest, ServicesClient } from './services-client.js';
import { summarize } from './stats.js';

/**
 * Runs `fn` with the service answering in 50 ms and keeping its flows RUNNING for 10 minutes (longer than
 * any window), then gives it back its latency and its usual flow durations.
 */
export async function withLongFlows<T>(
  services: ServicesClient,
  restoreLatencyMs: number,
  fn: () => Promise<T>,
): Promise<T> {
  await services.configure({
    latencyMs: 50,
    flowDelays: { runningAfterMs: 5_000, completedAfterMs: 600_000 },
  });
  try {
    return await fn();
  } finally {
    await services.configure({
      latencyMs: restoreLatencyMs,
      flowDelays: { runningAfterMs: 1_000, completedAfterMs: 3_000 },
    });
  }
}

export const isFlowPost = (r: ServiceRequest) => r.method === 'POST' && /flows$/.test(r.path);

/** Flows the service created (its answered flow POSTs) since its last reset. */
export async function flowsCreated(services: ServicesClient): Promise<number> {
  return (await services.serviceRequests()).filter((r) => isFlowPost(r) && (r.status ?? 0) < 300).length;
}

/**
 * Sends the requests that create `count` flows in chunks, waiting after each until the service has
 * created its flows. In chunks the service client takes whole (128 in flight + 256 queued): a single burst
 * of 1,000 would have the rest refused at once as busy, by design, and fewer flows created than asked for.
 */
export async function createInChunks(o: {
  services: ServicesClient;
  count: number;
  chunk: number;
  maxMs: number;
  /** Sends requests `from` … `from + size - 1`. */
  send: (from: number, size: number) => Promise<RunResult>;
}): Promise<{ acked: number; ackMs: number; created: number; startedAt: number }> {
  const startedAt = Date.now();
  const before = await flowsCreated(o.services);
  const deadline = performance.now() + o.maxMs;
  let acked = 0;
  let ackMs = 0;
  let created = 0;
  for (let from = 0; from < o.count && performance.now() < deadline; from += o.chunk) {
    const size = Math.min(o.chunk, o.count - from);
    const r = await o.send(from, size);
    acked += r.sent;
    ackMs += r.elapsedMs;
    created = await waitForCount(
      async () => (await flowsCreated(o.services)) - before,
      from + size,
      deadline,
    );
  }
  return { acked, ackMs, created, startedAt };
}

/**
 * When a quiet window over flows created from `startedAt` begins. A flow is read more and more seldom as it
 * ages (3 s at first, up to a minute), so two windows compare only when their flows are as old: 30 s
 * after the creation began, whether it took 3 s or waited out a few creations the bot gave up on.
 */
export const windowAfterCreation = (startedAt: number): number => startedAt + 30_000;

/**
 * Polls `count` until it reaches `target`, `deadline` (performance.now()) passes, or it has not grown for
 * 10 s (work the bot gave up on, which no wait brings); returns the last count.
 */
export async function waitForCount(
  count: () => Promise<number> | number,
  target: number,
  deadline: number,
): Promise<number> {
  let n = await count();
  let grew = performance.now();
  while (n < target && performance.now() < deadline && performance.now() - grew < 10_000) {
    await new Promise((res) => setTimeout(res, 250));
    const next = await count();
    if (next > n) grew = performance.now();
    n = next;
  }
  return n;
}

/** What the bot spent over a window with no requests sent to it. */
export interface QuietWindow {
  seconds: number;
  /** GET …/flows/{id} the service received per second. */
  readsPerSecond: number;
  mainThreadCpuMsPerS: number | null;
  processCpuMsPerS: number | null;
  /** The largest resident set sampled (every 500 ms). */
  rssDuringMb: number | null;
}

/** Measures the bot's CPU (its acking thread, the whole process), memory and service reads over `windowMs`. */
export async function measureQuiet(
  bot: AppProcess,
  services: ServicesClient,
  windowMs: number,
  notBefore = 0,
): Promise<QuietWindow> {
  await new Promise((r) => setTimeout(r, Math.max(0, notBefore - Date.now())));
  const start = Date.now();
  const cpu0 = procCpuMs(bot.pid);
  const main0 = procCpuMs(bot.pid, true);
  let rssDuring = 0;
  while (Date.now() - start < windowMs) {
    rssDuring = Math.max(rssDuring, procStatusMb(bot.pid, 'VmRSS') ?? 0);
    await new Promise((r) => setTimeout(r, 500));
  }
  const end = Date.now();
  const cpu1 = procCpuMs(bot.pid);
  const main1 = procCpuMs(bot.pid, true);
  const seconds = (end - start) / 1000;
  const reads = (await services.serviceRequests()).filter(
    (r) => r.method === 'GET' && /\/flows\/\d+$/.test(r.path) && r.receivedAt >= start && r.receivedAt <= end,
  ).length;
  const perS = (a: number | null, b: number | null) => (a == null || b == null ? null : (b - a) / seconds);
  return {
    seconds,
    readsPerSecond: reads / seconds,
    mainThreadCpuMsPerS: perS(main0, main1),
    processCpuMsPerS: perS(cpu0, cpu1),
    rssDuringMb: rssDuring || null,
  };
}

/** How a phase reaches the bot with signed `help` commands. */
export interface HelpDriver {
  target: DriverTarget;
  issue: (n: number) => Promise<IssuedCommand[]>;
  bodies: (issued: IssuedCommand[], text: string) => (i: number) => string;
}

/** `help` at 50 concurrent, 600 a round (each worker's first untimed), `rounds` times. */
export async function helpRoundsC50(d: HelpDriver, rounds: number): Promise<RunResult[]> {
  const out: RunResult[] = [];
  for (let i = 0; i < rounds; i++) {
    const issued = await d.issue(600);
    out.push(
      await closedLoop(d.target, {
        concurrency: 50,
        total: 600,
        maxMs: 60_000,
        body: d.bodies(issued, 'help'),
        untimedFirst: true,
      }),
    );
  }
  return out;
}

/** The p50 of one round (NaN when nothing was acked). */
export const roundP50 = (r: RunResult): number => summarize(r.latencies)?.p50 ?? Number.NaN;
