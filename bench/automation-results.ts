// The published figures of the automation phases (Workflow Builder steps, schedules), their targets and
// verdicts, and their rows in the printed table.
import type { DueRunsMeasurements, IdleSchedulesMeasurements, SchedulesMeasurements } from './schedules.js';
import { ratio, round, type Summary, summarize } from './stats.js';
import type { StepsMeasurements, WaitingStepsMeasurements } from './steps.js';

interface Pct {
  p50: number | null;
  p99: number | null;
}
type Verdict = 'ok' | 'within noise' | 'MISSED' | 'n/a';

/** What the rest of the results hold that these figures are compared with. */
export interface Reference {
  /** The command acks of the same run. */
  ack: { command: string; concurrency: number; ratio: Pct }[];
  /** The tracking phase of the same run: 1,000 flows followed. */
  tracking?: {
    readsPerSecond: number | null;
    mainThreadCpuMsPerS: number | null;
    processCpuMsPerS: number | null;
    rssMb: { during: number | null };
  };
}

export const AUTOMATION_TARGETS = {
  /**
   * How far a figure may exceed the one it must be no worse than and still count as within the noise:
   * ack ratios move by up to 2× between runs on this machine (docs/performance.md), CPU per second over a
   * minute's window by about a fifth.
   */
  ackNoise: 2,
  costNoise: 1.2,
  idleCpuMsPerS: 50,
  dueStartS: 30,
};

/** `value` no worse than `reference`: ok at or under it, within noise up to `noise` times it, else missed. */
export function noWorse(value: number | null, reference: number | null, noise: number): Verdict {
  if (value == null || reference == null) return 'n/a';
  if (value <= reference) return 'ok';
  return value <= reference * noise ? 'within noise' : 'MISSED';
}

const pct = (s: Summary | undefined): Pct =>
  s ? { p50: round(s.p50), p99: round(s.p99) } : { p50: null, p99: null };
const r2 = (x: number | null | undefined) => (x == null ? null : round(x));
const each = <T>(f: (p: 'p50' | 'p99') => T) => ({ p50: f('p50'), p99: f('p99') });

/** What work waiting in the bot cost over a quiet window (followed flows, waiting steps). */
export interface WaitingCost {
  /** Flows the service created for it. */
  created: number;
  windowS: number;
  readsPerSecond: number | null;
  mainThreadCpuMsPerS: number | null;
  processCpuMsPerS: number | null;
  rssMb: { before: number | null; during: number | null };
}

export interface StepsResult {
  /** function_executed acks against the bare app's, next to the learn command's ratio at that concurrency. */
  ack: {
    concurrency: number;
    bot: Pct;
    bare: Pct;
    ratio: Pct;
    commandRatio: Pct;
    verdict: Record<'p50' | 'p99', Verdict>;
  }[];
  /** Learn steps waiting for their flows, against the same run's followed flows (ratio steps / flows). */
  waiting?: WaitingCost & {
    steps: number;
    vsFollowedFlows: {
      readsPerSecond: number | null;
      mainThreadCpuMsPerS: number | null;
      processCpuMsPerS: number | null;
      rssDuringMb: number | null;
      /** Process CPU per flow read: the cost of following one flow, whatever the windows' read rates. */
      cpuMsPerRead: number | null;
    };
    verdict: Verdict;
  };
}

const perRead = (cpu: number | null | undefined, reads: number | null | undefined) =>
  cpu == null || !reads ? null : cpu / reads;

function waitingResult(w: WaitingStepsMeasurements, ref: Reference): NonNullable<StepsResult['waiting']> {
  const t = ref.tracking;
  const vs = {
    readsPerSecond: ratio(w.readsPerSecond, t?.readsPerSecond),
    mainThreadCpuMsPerS: ratio(w.mainThreadCpuMsPerS, t?.mainThreadCpuMsPerS),
    processCpuMsPerS: ratio(w.processCpuMsPerS, t?.processCpuMsPerS),
    rssDuringMb: ratio(w.rssMb.during, t?.rssMb.during),
    cpuMsPerRead: ratio(
      perRead(w.processCpuMsPerS, w.readsPerSecond),
      perRead(t?.processCpuMsPerS, t?.readsPerSecond),
    ),
  };
  return {
    steps: w.steps,
    created: w.created,
    windowS: w.windowS,
    readsPerSecond: r2(w.readsPerSecond),
    mainThreadCpuMsPerS: r2(w.mainThreadCpuMsPerS),
    processCpuMsPerS: r2(w.processCpuMsPerS),
    rssMb: { before: r2(w.rssMb.before), during: r2(w.rssMb.during) },
    vsFollowedFlows: vs,
    // The cost is the process's CPU: reads and memory are shown beside it.
    verdict: noWorse(vs.processCpuMsPerS, 1, AUTOMATION_TARGETS.costNoise),
  };
}

export function stepsResult(s: StepsMeasurements, ref: Reference): StepsResult {
  const ack = s.ack.map((a) => {
    const bot = pct(summarize(a.bot));
    const bare = pct(summarize(a.bare));
    const q = each((p) => ratio(bot[p], bare[p]));
    const command = ref.ack.find((c) => c.command === 'learn' && c.concurrency === a.concurrency);
    const commandRatio = command?.ratio ?? { p50: null, p99: null };
    return {
      concurrency: a.concurrency,
      bot,
      bare,
      ratio: q,
      commandRatio,
      verdict: each((p) => noWorse(q[p], commandRatio[p], AUTOMATION_TARGETS.ackNoise)),
    };
  });
  return { ack, ...(s.waiting ? { waiting: waitingResult(s.waiting, ref) } : {}) };
}

export interface SchedulesResult {
  idle: {
    schedules: number;
    held: number;
    createS: number;
    windowS: number;
    mainThreadCpuMsPerS: number | null;
    processCpuMsPerS: number | null;
    rssMb: { before: number | null; during: number | null };
    verdict: Verdict;
  };
  due: {
    schedules: number;
    held: number;
    serviceLatencyMs: number;
    posts: number;
    distinct: number;
    /** Seconds from the minute to each run's flow POST at the service. */
    startS: { p50: number | null; p99: number | null; max: number | null };
    helpAckC50: {
      before: Pct;
      during: Pct;
      ratio: Pct;
      roundP50sBefore: number[];
      roundP50sDuring: number[];
    };
    /** All held and started within the target, exactly one POST each. */
    verdict: Verdict;
    ackVerdict: Record<'p50' | 'p99', Verdict>;
  };
}

function idleResult(i: IdleSchedulesMeasurements): SchedulesResult['idle'] {
  const cpu = r2(i.processCpuMsPerS);
  return {
    schedules: i.schedules,
    held: i.held,
    createS: round(i.createMs / 1000),
    windowS: i.windowS,
    mainThreadCpuMsPerS: r2(i.mainThreadCpuMsPerS),
    processCpuMsPerS: cpu,
    rssMb: { before: r2(i.rssMb.before), during: r2(i.rssMb.during) },
    verdict: cpu == null ? 'n/a' : cpu < AUTOMATION_TARGETS.idleCpuMsPerS ? 'ok' : 'MISSED',
  };
}

/** Every schedule held ran once: as many POSTs as schedules, each a distinct flow, the last within the target. */
export function dueVerdict(
  d: Pick<DueRunsMeasurements, 'schedules' | 'held' | 'posts' | 'distinct'> & {
    maxStartS: number | null;
  },
): Verdict {
  if (d.maxStartS == null) return d.schedules === 0 ? 'n/a' : 'MISSED';
  const once = d.held === d.schedules && d.posts === d.schedules && d.distinct === d.posts;
  return once && d.maxStartS <= AUTOMATION_TARGETS.dueStartS ? 'ok' : 'MISSED';
}

function dueResult(d: DueRunsMeasurements): SchedulesResult['due'] {
  const before = pct(d.ack.before);
  const during = pct(d.ack.during);
  const q = each((p) => ratio(during[p], before[p]));
  return {
    schedules: d.schedules,
    held: d.held,
    serviceLatencyMs: d.serviceLatencyMs,
    posts: d.posts,
    distinct: d.distinct,
    startS: { p50: r2(d.startS?.p50), p99: r2(d.startS?.p99), max: r2(d.startS?.max) },
    helpAckC50: {
      before,
      during,
      ratio: q,
      roundP50sBefore: d.ack.roundsBefore.map(round),
      roundP50sDuring: d.ack.roundsDuring.map(round),
    },
    verdict: dueVerdict({ ...d, maxStartS: d.startS?.max ?? null }),
    ackVerdict: each((p) => noWorse(q[p], 1, AUTOMATION_TARGETS.ackNoise)),
  };
}

export function schedulesResult(s: SchedulesMeasurements): SchedulesResult {
  return { idle: idleResult(s.idle), due: dueResult(s.due) };
}

const fmt = (n: number | null | undefined, unit = '') => (n == null ? 'n/a' : `${n}${unit}`);

/** The table's rows: measure, bot, bare (or the reference), ratio, target, verdict. */
export function automationRows(r: { steps?: StepsResult; schedules?: SchedulesResult }): string[][] {
  const rows: string[][] = [];
  for (const a of r.steps?.ack ?? [])
    for (const p of ['p50', 'p99'] as const)
      rows.push([
        `ack function_executed c=${a.concurrency} ${p}`,
        fmt(a.bot[p], ' ms'),
        fmt(a.bare[p], ' ms'),
        fmt(a.ratio[p]),
        `≤ learn's ${fmt(a.commandRatio[p])}`,
        a.verdict[p],
      ]);
  const w = r.steps?.waiting;
  if (w) {
    const v = w.vsFollowedFlows;
    rows.push([
      `${w.created} waiting steps: CPU ms/s main / process`,
      `${fmt(w.mainThreadCpuMsPerS)} / ${fmt(w.processCpuMsPerS)}`,
      'vs flows',
      `${fmt(v.mainThreadCpuMsPerS)} / ${fmt(v.processCpuMsPerS)}`,
      '≤ 1× flows',
      w.verdict,
    ]);
    rows.push([
      'waiting steps: reads/s, RSS during',
      `${fmt(w.readsPerSecond)}, ${fmt(w.rssMb.during, ' MB')}`,
      'vs flows',
      `${fmt(v.readsPerSecond)}, ${fmt(v.rssDuringMb)}`,
      '',
      '',
    ]);
    rows.push(['waiting steps: process CPU per read', '', 'vs flows', fmt(v.cpuMsPerRead), '', '']);
  }
  const s = r.schedules;
  if (s) {
    rows.push([
      `${s.idle.held} idle schedules: CPU ms/s process (main)`,
      `${fmt(s.idle.processCpuMsPerS)} (${fmt(s.idle.mainThreadCpuMsPerS)})`,
      '',
      '',
      `< ${AUTOMATION_TARGETS.idleCpuMsPerS}`,
      s.idle.verdict,
    ]);
    const d = s.due;
    rows.push([
      `${d.held} runs due at one minute: POSTs (distinct)`,
      `${d.posts} (${d.distinct})`,
      '',
      '',
      `${d.schedules}, once each`,
      d.verdict,
    ]);
    rows.push([
      'due runs: start after the minute p50 / max',
      `${fmt(d.startS.p50)} / ${fmt(d.startS.max, ' s')}`,
      '',
      '',
      `≤ ${AUTOMATION_TARGETS.dueStartS} s`,
      d.verdict,
    ]);
    for (const p of ['p50', 'p99'] as const)
      rows.push([
        `ack help c=50 ${p}, before / while runs start`,
        `${fmt(d.helpAckC50.before[p])} / ${fmt(d.helpAckC50.during[p], ' ms')}`,
        '',
        fmt(d.helpAckC50.ratio[p]),
        'within spread',
        d.ackVerdict[p],
      ]);
  }
  return rows;
}
