import {
  automationRows,
  type SchedulesResult,
  type StepsResult,
  schedulesResult,
  stepsResult,
  type WaitingCost,
} from './automation-results.js';
import type { FloodMeasurements } from './flood.js';
import { type InstallsMeasurements, type InstallsResult, installsResult, installsRows } from './installs.js';
import type { SchedulesMeasurements } from './schedules.js';
import type { SoakResults } from './soak.js';
import { ratio, round, type Summary, summarize } from './stats.js';
import type { StepsMeasurements } from './steps.js';
import { type TracesMeasurements, type TracesResult, tracesResult, tracesRows } from './traces.js';
import type { TrackingMeasurements } from './tracking.js';

export type AckCommand = 'help' | 'learn';
export const CONCURRENCIES = [1, 50, 200] as const;
export type Concurrency = (typeof CONCURRENCIES)[number];

export interface Machine {
  cpus: number;
  model: string;
  memoryMb: number;
  node: string;
  os: string;
}

export interface Pct {
  p50: number | null;
  p99: number | null;
}

/** When a run was made, and how busy the machine was (its load average over 1 minute, before and after). */
export interface RunInfo {
  /** ISO 8601, UTC. */
  date: string;
  loadAverage: { before: number; after: number };
}

/** The shape of `bench/results.json`; times in ms, memory in MB, ratios bot / bare. */
export interface BenchResults {
  machine: Machine;
  /** Absent from a file written before runs were dated. */
  run?: RunInfo;
  ack: { command: AckCommand; concurrency: Concurrency; bot: Pct; bare: Pct; ratio: Pct }[];
  viewsOpen: { concurrency: 50; p50: number | null; p99: number | null };
  sustained: { commandsPerSecond: number | null };
  coldStart: { botMs: number | null; bareMs: number | null; ratio: number | null };
  peakRss: { botMb: number | null; bareMb: number | null; ratio: number | null };
  parse: { medianMs: number | null; p99Ms: number | null };
  /** 1,000 flows followed at once: reads/s, the bot's CPU and memory, and ack latency beside them. */
  tracking?: WaitingCost & {
    flows: number;
    helpAckC50: { without: Pct; with: Pct; roundP50sWithout: number[]; roundP50sWith: number[] };
  };
  /** `help` acks at 10 concurrent without and during a flood of hostile bodies from another process. */
  flood?: Partial<Record<'bot' | 'bare', FloodResult>>;
  /** Workflow Builder steps: function_executed acks, and 1,000 steps waiting against 1,000 followed flows. */
  steps?: StepsResult;
  /** 10,000 schedules between runs; 1,000 runs due at one minute. */
  schedules?: SchedulesResult;
  /** Acks with 1,000 installations against one, and the memory each installation adds. */
  installs?: InstallsResult;
  /** Memory over time (`npm run bench:soak`, or the last phase of `npm run bench`), dated on its own. */
  soak?: SoakResults;
  /** What tracing costs: the bot with it off and on, each against the bare app of the same run. */
  traces?: TracesResult;
}

export interface FloodResult {
  connections: number;
  bodies: { unsignedBytes: number; falselySignedBytes: number };
  without: Pct;
  with: Pct;
  /** with / without: what the flood costs a signed command. */
  ratio: Pct;
  flood: Record<string, number>;
}

/** Raw measurements as the run collects them; `buildResults` turns them into the published shape. */
export interface Measurements {
  machine: Machine;
  run?: RunInfo;
  /** Ack latency samples (ms) per command and concurrency; missing = not measured. */
  ack: { command: AckCommand; concurrency: Concurrency; bot: number[]; bare: number[] }[];
  /** Command sent → views.open at the stand-in (ms); null = the bot opens no modal yet. */
  viewsOpen: number[] | null;
  sustainedCommandsPerSecond: number | null;
  /** Spawn → first successful ack (ms), one sample per run. */
  coldStart: { bot: number[]; bare: number[] };
  peakRss: { botMb: number | null; bareMb: number | null };
  parse: { medianMs: number; p99Ms: number } | null;
  /** The flow-following phase; absent when it was not run. */
  tracking?: TrackingMeasurements;
  /** The flood phase, per app; absent when it was not run. */
  flood?: Partial<Record<'bot' | 'bare', FloodMeasurements>>;
  /** Workflow Builder steps: acks and waiting; absent when the phase was not run. */
  steps?: StepsMeasurements;
  /** Idle schedules and runs due at one minute; absent when the phase was not run. */
  schedules?: SchedulesMeasurements;
  /** "Add to Slack": the bot with one installation and with 1,000; absent when the phase was not run. */
  installs?: InstallsMeasurements;
  /** The bot with tracing off and on; absent when the phase was not run. */
  traces?: TracesMeasurements;
}

const pct = (s: Summary | undefined): Pct =>
  s ? { p50: round(s.p50), p99: round(s.p99) } : { p50: null, p99: null };

const med = (xs: number[]): number | null => {
  const s = summarize(xs);
  return s ? round(s.p50) : null;
};

function floodResult(f: FloodMeasurements): FloodResult {
  const without = pct(f.without);
  const during = pct(f.with);
  return {
    connections: f.connections,
    bodies: f.bodies,
    without,
    with: during,
    ratio: { p50: ratio(during.p50, without.p50), p99: ratio(during.p99, without.p99) },
    flood: f.flood,
  };
}

export function buildResults(m: Measurements): BenchResults {
  const r = buildCore(m);
  return {
    ...r,
    ...(m.steps ? { steps: stepsResult(m.steps, r) } : {}),
    ...(m.schedules ? { schedules: schedulesResult(m.schedules) } : {}),
    ...(m.installs ? { installs: installsResult(m.installs) } : {}),
    ...(m.traces ? { traces: tracesResult(m.traces) } : {}),
  };
}

function buildCore(m: Measurements): BenchResults {
  const ack = m.ack.map((a) => {
    const bot = pct(summarize(a.bot));
    const bare = pct(summarize(a.bare));
    return {
      command: a.command,
      concurrency: a.concurrency,
      bot,
      bare,
      ratio: { p50: ratio(bot.p50, bare.p50), p99: ratio(bot.p99, bare.p99) },
    };
  });
  const views = m.viewsOpen ? summarize(m.viewsOpen) : undefined;
  const botMs = med(m.coldStart.bot);
  const bareMs = med(m.coldStart.bare);
  const rss = (x: number | null) => (x == null ? null : round(x));
  return {
    machine: m.machine,
    ...(m.run ? { run: m.run } : {}),
    ack,
    viewsOpen: { concurrency: 50, ...pct(views) },
    sustained: { commandsPerSecond: m.sustainedCommandsPerSecond },
    coldStart: { botMs, bareMs, ratio: ratio(botMs, bareMs) },
    peakRss: {
      botMb: rss(m.peakRss.botMb),
      bareMb: rss(m.peakRss.bareMb),
      ratio: ratio(m.peakRss.botMb, m.peakRss.bareMb),
    },
    parse: m.parse
      ? {
          medianMs: Math.round(m.parse.medianMs * 1000) / 1000,
          p99Ms: Math.round(m.parse.p99Ms * 1000) / 1000,
        }
      : { medianMs: null, p99Ms: null },
    ...(m.tracking
      ? {
          tracking: {
            flows: m.tracking.flows,
            created: m.tracking.created,
            windowS: m.tracking.windowS,
            readsPerSecond: round(m.tracking.readsPerSecond),
            mainThreadCpuMsPerS:
              m.tracking.mainThreadCpuMsPerS == null ? null : round(m.tracking.mainThreadCpuMsPerS),
            processCpuMsPerS: m.tracking.processCpuMsPerS == null ? null : round(m.tracking.processCpuMsPerS),
            rssMb: { before: rss(m.tracking.rssMb.before), during: rss(m.tracking.rssMb.during) },
            helpAckC50: {
              without: pct(m.tracking.ack.without),
              with: pct(m.tracking.ack.with),
              roundP50sWithout: m.tracking.ack.roundsWithout.map((x) => round(x)),
              roundP50sWith: m.tracking.ack.roundsWith.map((x) => round(x)),
            },
          },
        }
      : {}),
    ...(m.flood
      ? {
          flood: Object.fromEntries(
            Object.entries(m.flood).map(([who, f]) => [who, floodResult(f as FloodMeasurements)]),
          ),
        }
      : {}),
  };
}

/**
 * What the bot is held to, as ratios against the bare Bolt app of the same run where there is one: an ack
 * within 1.2× at p50 and 1.5× at p99 (a p99 is a round's few slowest, which move most between runs), a start
 * within 1.3×, the peak resident set within 1.5× (a second V8 isolate, the follow-up worker, is most of what
 * the bot adds).
 */
export const TARGETS = {
  ackRatio: { p50: 1.2, p99: 1.5 },
  viewsOpenP99Ms: 500,
  coldStartRatio: 1.3,
  peakRssRatio: 1.5,
  parseMedianMs: 0.5,
};

const verdict = (ok: boolean | null) => (ok == null ? 'n/a' : ok ? 'ok' : 'MISSED');
const fmt = (n: number | null | undefined, unit = '') => (n == null ? 'n/a' : `${n}${unit}`);
const within = (x: number | null, target: number) => verdict(x == null ? null : x <= target);

const HEADER = ['measure', 'bot', 'bare', 'ratio', 'target', 'verdict'];

/** One row of the table; `before` is the previous run's figure, for the rows that show it. */
interface Row {
  cells: string[];
  before?: string;
}

/** A figure of both apps. */
interface Both {
  bot: number | null;
  bare: number | null;
  ratio: number | null;
}

/** A figure of both apps against its target, with the previous run's beside it when there is one. */
const againstBare = (label: string, unit: string, target: number, now: Both, before?: Both): Row => ({
  cells: [
    label,
    fmt(now.bot, unit),
    fmt(now.bare, unit),
    fmt(now.ratio),
    `≤ ${target}×`,
    within(now.ratio, target),
  ],
  ...(before ? { before: `${fmt(before.bot)} / ${fmt(before.bare, unit)}, ${fmt(before.ratio)}` } : {}),
});

/**
 * Every measure of a run, with its target and verdict; cold start and peak RSS with the figures of
 * `previous` (the run before this one) beside them.
 */
function rowsOf(r: BenchResults, previous?: BenchResults): Row[] {
  const rows: Row[] = [];
  const row = (...cells: string[]) => rows.push({ cells });
  for (const a of r.ack)
    for (const p of ['p50', 'p99'] as const) {
      const q = a.ratio[p];
      row(
        `ack ${a.command} c=${a.concurrency} ${p}`,
        fmt(a.bot[p], ' ms'),
        fmt(a.bare[p], ' ms'),
        fmt(q),
        `≤ ${TARGETS.ackRatio[p]}×`,
        within(q, TARGETS.ackRatio[p]),
      );
    }
  for (const p of ['p50', 'p99'] as const) {
    const v = r.viewsOpen[p];
    const held = p === 'p99';
    row(
      `views.open c=50 ${p}`,
      fmt(v, ' ms'),
      '',
      '',
      held ? `≤ ${TARGETS.viewsOpenP99Ms} ms` : '',
      held ? within(v, TARGETS.viewsOpenP99Ms) : '',
    );
  }
  row('sustained, p99 ack < 1 s', fmt(r.sustained.commandsPerSecond, ' cmd/s'), '', '', '', '');
  const start = ({ botMs, bareMs, ratio }: BenchResults['coldStart']) => ({
    bot: botMs,
    bare: bareMs,
    ratio,
  });
  const rss = ({ botMb, bareMb, ratio }: BenchResults['peakRss']) => ({ bot: botMb, bare: bareMb, ratio });
  rows.push(
    againstBare(
      'cold start (median)',
      ' ms',
      TARGETS.coldStartRatio,
      start(r.coldStart),
      previous?.coldStart && start(previous.coldStart),
    ),
    againstBare(
      'peak RSS, c=200',
      ' MB',
      TARGETS.peakRssRatio,
      rss(r.peakRss),
      previous?.peakRss && rss(previous.peakRss),
    ),
  );
  row(
    'time-range parse median / p99',
    r.parse.medianMs == null ? 'n/a' : `${r.parse.medianMs} / ${r.parse.p99Ms} ms`,
    '',
    '',
    `median < ${TARGETS.parseMedianMs} ms`,
    verdict(r.parse.medianMs == null ? null : r.parse.medianMs < TARGETS.parseMedianMs),
  );
  const t = r.tracking;
  if (t) {
    row(`following ${t.created} flows: reads/s`, fmt(t.readsPerSecond), '', '', '', '');
    row(
      'following: CPU ms/s main / process',
      `${fmt(t.mainThreadCpuMsPerS)} / ${fmt(t.processCpuMsPerS)}`,
      '',
      '',
      '',
      '',
    );
    row(
      'following: RSS before / during',
      `${fmt(t.rssMb.before)} / ${fmt(t.rssMb.during, ' MB')}`,
      '',
      '',
      '',
      '',
    );
    for (const p of ['p50', 'p99'] as const)
      row(
        `ack help c=50 ${p}, without / while following`,
        `${fmt(t.helpAckC50.without[p])} / ${fmt(t.helpAckC50.with[p], ' ms')}`,
        '',
        fmt(ratio(t.helpAckC50.with[p], t.helpAckC50.without[p])),
        'within spread',
        '',
      );
  }
  for (const [who, f] of Object.entries(r.flood ?? {}))
    for (const p of ['p50', 'p99'] as const)
      row(
        `ack help c=10 ${p}, without / during a flood (${who})`,
        `${fmt(f.without[p])} / ${fmt(f.with[p], ' ms')}`,
        '',
        fmt(f.ratio[p]),
        '',
        '',
      );
  for (const cells of automationRows(r)) row(...cells);
  for (const cells of r.installs ? installsRows(r.installs) : []) row(...cells);
  for (const cells of r.traces ? tracesRows(r.traces) : []) row(...cells);
  const soak = r.soak;
  if (soak?.rssMb)
    row(
      `soak, ${soak.minutes} min at ${soak.commandsPerSecond} cmd/s: RSS start → end`,
      `${soak.rssMb.start} → ${soak.rssMb.end} MB`,
      '',
      '',
      'flat',
      soak.flat === null ? 'n/a' : soak.flat ? 'ok' : 'MISSED',
    );
  return rows;
}

const machineLine = (m: Machine) => `${m.cpus} × ${m.model}, ${m.memoryMb} MB, Node ${m.node}, ${m.os}`;

/**
 * The human-readable table `npm run bench` prints: every measure against its target, and the previous
 * run's cold start and peak RSS beside this run's, when there is one to read.
 */
export function formatTable(r: BenchResults, previous?: BenchResults): string {
  const withBefore = previous !== undefined;
  const table = [
    withBefore ? [...HEADER, 'previous run'] : HEADER,
    ...rowsOf(r, previous).map((x) => (withBefore ? [...x.cells, x.before ?? ''] : x.cells)),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) =>
    row
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  const ranBefore = previous?.run ? ` (previous run: ${previous.run.date})` : '';
  return [
    `machine: ${machineLine(r.machine)}${ranBefore}`,
    line(table[0]!),
    line(widths.map((w) => '-'.repeat(w))),
    ...table.slice(1).map(line),
  ].join('\n');
}

/**
 * The latest figures as docs/performance.md shows them (test/performance-doc.test.ts keeps the doc to
 * bench/results.json): the run, then one table of every measure with its target and verdict.
 */
export function markdownFigures(r: BenchResults): string {
  const when = r.run
    ? `Run of ${r.run.date.slice(0, 16).replace('T', ' ')} UTC (load average ${r.run.loadAverage.before} before, ${r.run.loadAverage.after} after)`
    : 'Run not dated';
  const cell = (c: string) => (c === '' ? ' ' : c.replace(/\|/g, '\\|'));
  const line = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [
    `${when}, on ${machineLine(r.machine)}.`,
    '',
    line(['Measure', 'bot', 'bare Bolt', 'ratio', 'target', 'verdict']),
    line(HEADER.map(() => '---')),
    ...rowsOf(r).map((x) => line(x.cells)),
  ].join('\n');
}

/**
 * One run as a line of `bench/runs.jsonl`, the log of runs the repository keeps beside the latest figures:
 * when and where it ran, and each measure's figures and verdict as the table shows them.
 */
export function runLogLine(r: BenchResults): string {
  const figures = rowsOf(r)
    .filter(({ cells }) => cells[1] !== 'n/a' && cells[5] !== 'n/a')
    .map(({ cells: [measure, bot, bare, ratio, target, verdict] }) => ({
      measure,
      bot,
      bare,
      ratio,
      target,
      verdict,
    }));
  return JSON.stringify({ run: r.run ?? null, machine: machineLine(r.machine), figures });
}
