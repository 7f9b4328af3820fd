// The traces phase: what tracing costs. Three apps in the same run, alternating: the bare Bolt app, the bot
// as it runs with no OTEL_* variable (nothing of OpenTelemetry loaded), and the bot tracing every request
// (`parentbased_always_on`, the default) to a stand-in collector over OTLP/HTTP protobuf, the default
// encoding. Cold start, acks of `learn` (whose follow-up makes the most spans), and peak memory, each as a
// ratio to the bare app.
import { startOtlpReceiver } from '../standins/otlp/receiver.js';
import { closedLoop, firstAck } from './driver.js';
import { type AppProcess, procStatusMb, resetPeakRss, rssSampler, tail } from './procs.js';
import type { IssuedCommand } from './services-client.js';
import { summarize } from './stats.js';

export type TracedWho = 'bare' | 'bot' | 'traced';

export interface TracesMeasurements {
  /** Spawn → first ack (ms), per run. */
  coldStartMs: Record<TracedWho, number[]>;
  /** Ack latency samples (ms) of `learn`, per concurrency. */
  ack: { concurrency: number; samples: Record<TracedWho, number[]> }[];
  /** Peak resident memory over the acks at the highest concurrency (MB). */
  peakRssMb: Record<TracedWho, number | null>;
  /** What the stand-in collector took from the traced bot: proof that it traced. */
  exported: { requests: number; bytes: number };
}

export interface TracesContext {
  log: (line: string) => void;
  /** Starts the bare app or the bot, with more environment (the bot's OTEL_* variables). */
  spawn(who: 'bare' | 'bot', tag: string, env?: Record<string, string>): Promise<AppProcess>;
  target(p: AppProcess): { origin: string; signingSecret: string };
  issue(n: number): Promise<IssuedCommand[]>;
  bodies(issued: IssuedCommand[], text: string): (i: number) => string;
  settle(label: string): Promise<void>;
  learnText: string;
  coldStartRuns: number;
  rounds: number;
  /** Concurrency → requests per round. */
  requests: Record<number, number>;
}

const WHO: readonly TracedWho[] = ['bare', 'bot', 'traced'];

export async function measureTraces(c: TracesContext): Promise<TracesMeasurements> {
  const collector = await startOtlpReceiver();
  const tracing = { OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, OTEL_SERVICE_NAME: 'tsai-bench' };
  const spawn = (who: TracedWho, tag: string) =>
    who === 'traced' ? c.spawn('bot', `traced-${tag}`, tracing) : c.spawn(who, `traces-${tag}`);
  const m: TracesMeasurements = {
    coldStartMs: { bare: [], bot: [], traced: [] },
    ack: [],
    peakRssMb: { bare: null, bot: null, traced: null },
    exported: { requests: 0, bytes: 0 },
  };
  try {
    for (let run = 0; run < c.coldStartRuns; run++) {
      for (const who of rotate(WHO, run)) {
        const [one] = await c.issue(1);
        const p = await spawn(who, `cold-${run}`);
        const ms = await firstAck(c.target(p), () => c.bodies([one!], 'help')(0), {
          start: p.spawnedAt,
          timeoutMs: 20_000,
          alive: p.alive,
        });
        await p.stop();
        if (ms == null)
          c.log(`traces: ${who} did not ack (cold start ${run + 1}); log tail:\n${tail(p.logFile)}`);
        else {
          m.coldStartMs[who].push(ms);
          c.log(`traces: cold start ${who} #${run + 1}: ${ms.toFixed(0)} ms`);
        }
      }
    }
    const apps: Partial<Record<TracedWho, AppProcess>> = {};
    try {
      for (const who of WHO) apps[who] = await spawn(who, 'main');
      await warm(c, apps);
      const levels = Object.keys(c.requests).map(Number);
      const top = Math.max(...levels);
      for (const concurrency of levels) {
        const samples: Record<TracedWho, number[]> = { bare: [], bot: [], traced: [] };
        const peaks =
          concurrency === top
            ? WHO.map((who) => ({
                who,
                p: apps[who]!,
                hwm: resetPeakRss(apps[who]!.pid),
                s: rssSampler(apps[who]!.pid),
              }))
            : [];
        for (let round = 0; round < c.rounds; round++) {
          for (const who of rotate(WHO, round)) {
            const p = apps[who]!;
            const n = c.requests[concurrency]!;
            const r = await closedLoop(c.target(p), {
              concurrency,
              total: n,
              maxMs: 60_000,
              body: c.bodies(await c.issue(n), c.learnText),
              untimedFirst: true,
            });
            samples[who].push(...r.latencies);
            if (who !== 'bare') await c.settle(`traces ${who} c=${concurrency}`);
            const s = summarize(r.latencies);
            c.log(
              `traces: learn c=${concurrency} ${who} round ${round + 1}: p50 ${s?.p50.toFixed(1)} ms, p99 ${s?.p99.toFixed(1)} ms`,
            );
          }
        }
        m.ack.push({ concurrency, samples });
        for (const { who, p, hwm, s } of peaks) {
          const sampled = s.stop();
          const high = hwm ? procStatusMb(p.pid, 'VmHWM') : null;
          m.peakRssMb[who] = Math.max(high ?? 0, sampled ?? 0) || null;
        }
      }
    } finally {
      for (const p of Object.values(apps)) await p?.stop();
    }
    const taken = collector.exports();
    m.exported = { requests: taken.protobuf + taken.json, bytes: taken.bytes };
    c.log(`traces: the stand-in collector took ${m.exported.requests} exports, ${m.exported.bytes} bytes`);
    return m;
  } finally {
    await collector.close();
  }
}

/** The apps in a different order each round, so that none always goes first. */
function rotate<T>(xs: readonly T[], n: number): T[] {
  const k = n % xs.length;
  return [...xs.slice(k), ...xs.slice(0, k)];
}

/** Not measured: the JIT, the connection pools, the bots' caches (and the traced bot's exporter). */
async function warm(c: TracesContext, apps: Partial<Record<TracedWho, AppProcess>>): Promise<void> {
  for (const who of WHO) {
    const p = apps[who]!;
    const issued = await c.issue(100);
    await closedLoop(c.target(p), {
      concurrency: 10,
      total: 100,
      maxMs: 30_000,
      body: c.bodies(issued, c.learnText),
    });
    if (who !== 'bare') await c.settle(`traces warm-up ${who}`);
  }
}

type Pair = { p50: number | null; p99: number | null };

/** What results.json keeps of the phase: each figure, and the bot's and the traced bot's ratios to the bare app. */
export interface TracesResult {
  coldStartMs: Record<TracedWho, number | null>;
  ack: { concurrency: number; ms: Record<TracedWho, Pair>; ratio: { bot: Pair; traced: Pair } }[];
  peakRssMb: Record<TracedWho, number | null>;
  ratios: {
    coldStart: { bot: number | null; traced: number | null };
    peakRss: { bot: number | null; traced: number | null };
  };
  exported: { requests: number; bytes: number };
}

const r2 = (n: number | null | undefined) =>
  n == null || !Number.isFinite(n) ? null : Math.round(n * 100) / 100;
const ratio = (a: number | null | undefined, b: number | null | undefined) =>
  a == null || !b ? null : r2(a / b);

export function tracesResult(m: TracesMeasurements): TracesResult {
  const median = (xs: number[]) => r2(summarize(xs)?.p50);
  const cold = {
    bare: median(m.coldStartMs.bare),
    bot: median(m.coldStartMs.bot),
    traced: median(m.coldStartMs.traced),
  };
  const ack = m.ack.map((a) => {
    const ms = Object.fromEntries(
      WHO.map((who) => {
        const s = summarize(a.samples[who]);
        return [who, { p50: r2(s?.p50), p99: r2(s?.p99) }];
      }),
    ) as Record<TracedWho, Pair>;
    const of = (who: 'bot' | 'traced') => ({
      p50: ratio(ms[who].p50, ms.bare.p50),
      p99: ratio(ms[who].p99, ms.bare.p99),
    });
    return { concurrency: a.concurrency, ms, ratio: { bot: of('bot'), traced: of('traced') } };
  });
  const rss = { bare: r2(m.peakRssMb.bare), bot: r2(m.peakRssMb.bot), traced: r2(m.peakRssMb.traced) };
  return {
    coldStartMs: cold,
    ack,
    peakRssMb: rss,
    ratios: {
      coldStart: { bot: ratio(cold.bot, cold.bare), traced: ratio(cold.traced, cold.bare) },
      peakRss: { bot: ratio(rss.bot, rss.bare), traced: ratio(rss.traced, rss.bare) },
    },
    exported: m.exported,
  };
}

/** The table's rows: the bot with tracing off, then on, each against the bare app of the same run. */
export function tracesRows(r: TracesResult): string[][] {
  const fmt = (n: number | null, unit = '') => (n == null ? 'n/a' : `${n}${unit}`);
  const rows: string[][] = [];
  const both = (
    what: string,
    off: number | null,
    on: number | null,
    bare: number | null,
    rOff: number | null,
    rOn: number | null,
    unit: string,
  ) => {
    rows.push([`${what}, tracing off`, fmt(off, unit), fmt(bare, unit), fmt(rOff), '', '']);
    rows.push([`${what}, tracing on`, fmt(on, unit), fmt(bare, unit), fmt(rOn), '', '']);
  };
  both(
    'cold start',
    r.coldStartMs.bot,
    r.coldStartMs.traced,
    r.coldStartMs.bare,
    r.ratios.coldStart.bot,
    r.ratios.coldStart.traced,
    ' ms',
  );
  for (const a of r.ack)
    for (const p of ['p50', 'p99'] as const)
      both(
        `ack learn c=${a.concurrency} ${p}`,
        a.ms.bot[p],
        a.ms.traced[p],
        a.ms.bare[p],
        a.ratio.bot[p],
        a.ratio.traced[p],
        ' ms',
      );
  both(
    'peak RSS (learn)',
    r.peakRssMb.bot,
    r.peakRssMb.traced,
    r.peakRssMb.bare,
    r.ratios.peakRss.bot,
    r.ratios.peakRss.traced,
    ' MB',
  );
  rows.push([
    `spans exported (tracing on)`,
    `${r.exported.requests} exports, ${r.exported.bytes} bytes`,
    '',
    '',
    '',
    '',
  ]);
  return rows;
}
