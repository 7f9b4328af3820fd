// Workflow Builder steps: `function_executed` acked as a command is (against the bare Bolt app), and what
// 1,000 steps waiting for their flows cost the bot, to compare with 1,000 followed flows.
import { SEED } from '../standins/emulator/index.js';
import { closedLoop, type DriverTarget, type RunResult } from './driver.js';
import { type AppProcess, procStatusMb } from './procs.js';
import { CONCURRENCIES, type Concurrency } from './results.js';
import type { ServicesClient } from './services-client.js';
import { createInChunks, measureQuiet, windowAfterCreation, withLongFlows } from './window.js';

/** The learn step's inputs, as a workflow fills them in: the bench's learn command, field by field. */
export const learnStepInputs = (name: string): Record<string, unknown> => ({
  workspace: SEED.workspaces.pumpStation,
  signals: `${SEED.signals.temperature}:temperature,${SEED.signals.pressure}:pressure`,
  range: '2026-11-01 to 2026-11-03',
  model_name: 'bench model',
  name,
});
export const LEARN_STEP = 'tsai_learn';

export interface StepAckSamples {
  concurrency: Concurrency;
  bot: number[];
  bare: number[];
}

export interface WaitingStepsMeasurements {
  steps: number;
  /** Flows the service created for them. */
  created: number;
  windowS: number;
  readsPerSecond: number;
  mainThreadCpuMsPerS: number | null;
  processCpuMsPerS: number | null;
  rssMb: { before: number | null; during: number | null };
}

export interface StepsMeasurements {
  ack: StepAckSamples[];
  waiting?: WaitingStepsMeasurements;
}

export interface StepsContext {
  services: ServicesClient;
  users: string[];
  target: (p: AppProcess) => DriverTarget;
  log: (line: string) => void;
}

/** Events API deliveries are JSON, on the same `/slack/events` as commands. */
const eventTarget = (ctx: StepsContext, p: AppProcess): DriverTarget => ({
  ...ctx.target(p),
  contentType: 'application/json',
});

/** `n` new learn executions' `function_executed` bodies, each its own execution and event. */
const stepEvents = (ctx: StepsContext, n: number, label: string) =>
  ctx.services.functionEvents(
    LEARN_STEP,
    ctx.users,
    Array.from({ length: n }, (_, i) => learnStepInputs(`${label} ${i}`)),
  );

/**
 * Ack latency of learn steps' `function_executed`, at the command phase's concurrencies and request counts,
 * alternating bot and bare each round as the command acks do; the bot's follow-ups settle after its rounds.
 */
export async function measureStepAcks(
  ctx: StepsContext,
  apps: { bot: AppProcess; bare: AppProcess },
  o: { rounds: number; requests: Record<Concurrency, number>; settleBot: (label: string) => Promise<void> },
): Promise<StepAckSamples[]> {
  const out: StepAckSamples[] = [];
  for (const concurrency of CONCURRENCIES) {
    const samples: StepAckSamples = { concurrency, bot: [], bare: [] };
    for (let round = 0; round < o.rounds; round++) {
      for (const who of round % 2 ? (['bare', 'bot'] as const) : (['bot', 'bare'] as const)) {
        const events = await stepEvents(ctx, o.requests[concurrency], `step ${who} c${concurrency}`);
        const r: RunResult = await closedLoop(eventTarget(ctx, apps[who]), {
          concurrency,
          total: events.length,
          maxMs: 60_000,
          body: (i) => events[i]!,
          untimedFirst: true,
        });
        samples[who].push(...r.latencies);
        const errors = r.errors ? `, failed ${JSON.stringify(r.outcomes)}` : '';
        ctx.log(
          `steps: function_executed c=${concurrency} ${who} round ${round + 1}: ${r.sent} sent in ${r.elapsedMs.toFixed(0)} ms${errors}`,
        );
        if (who === 'bot') await o.settleBot(`function_executed c=${concurrency}`);
      }
    }
    out.push(samples);
  }
  return out;
}

/** Steps started at once while creating the flows they wait for (as many as the tracking phase's learns). */
const CREATE_CHUNK = 200;

/**
 * 1,000 learn steps waiting for their flows, on a bot of its own (a fresh database): the steps start, the
 * bot creates their flows (the service keeps them RUNNING longer than the window), then the same quiet
 * window as the tracking phase measures what waiting costs.
 */
export function measureWaitingSteps(
  ctx: StepsContext,
  bot: AppProcess,
  o: { steps: number; windowMs: number; latencyMs: number },
): Promise<WaitingStepsMeasurements> {
  return withLongFlows(ctx.services, o.latencyMs, async () => {
    const rssBefore = procStatusMb(bot.pid, 'VmRSS');
    const events = await stepEvents(ctx, o.steps, 'waiting');
    const made = await createInChunks({
      services: ctx.services,
      count: o.steps,
      chunk: CREATE_CHUNK,
      maxMs: 120_000,
      send: (from, size) =>
        closedLoop(eventTarget(ctx, bot), {
          concurrency: 50,
          total: size,
          maxMs: 120_000,
          body: (i) => events[from + i]!,
        }),
    });
    ctx.log(
      `steps: ${made.acked} function_executed acked in ${made.ackMs.toFixed(0)} ms; ${made.created} of ${o.steps} flows created; waiting ${o.windowMs / 1000} s`,
    );
    const w = await measureQuiet(bot, ctx.services, o.windowMs, windowAfterCreation(made.startedAt));
    const m: WaitingStepsMeasurements = {
      steps: o.steps,
      created: made.created,
      windowS: Math.round(w.seconds),
      readsPerSecond: w.readsPerSecond,
      mainThreadCpuMsPerS: w.mainThreadCpuMsPerS,
      processCpuMsPerS: w.processCpuMsPerS,
      rssMb: { before: rssBefore, during: w.rssDuringMb },
    };
    ctx.log(
      `steps: waiting ${m.readsPerSecond.toFixed(1)} reads/s, main thread ${m.mainThreadCpuMsPerS?.toFixed(1)} ms CPU/s, process ${m.processCpuMsPerS?.toFixed(1)} ms CPU/s, RSS ${rssBefore?.toFixed(0)} → ${w.rssDuringMb?.toFixed(0)} MB`,
    );
    return m;
  });
}
