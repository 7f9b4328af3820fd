import { Cron } from 'croner';
import { offsetMinutesAt, type Wall, wallAt } from '../../time/zone.js';

/**
 * When a schedule runs, as data (stored with the schedule): a five-field cron pattern read in `zone`, and
 * for "every other week" the local Monday of the weeks that run. croner computes the instants; this module
 * only keeps every other week and says what a daylight-saving change did to a run.
 *
 * DST, as croner 11 does it (and Vixie cron): a fixed time that a spring-forward skips runs at the first
 * valid instant after the gap (02:30 on a day that jumps from 02:00 to 03:00 runs at 03:00); a fixed time
 * that occurs twice at a fall-back runs once, at its first occurrence; interval patterns ("every 8 hours",
 * "every minute") keep running through the repeated hour.
 */
export interface Rule {
  pattern: string;
  zone: string;
  /** Every other week: runs only in the weeks an even number of weeks after the one starting on this local Monday. */
  everyOtherWeekFrom?: string;
  /** The wall-clock time the rule names, when it names one (for the notes about DST days). */
  at?: { hour: number; minute: number };
}

/** A kept schedule's rule, in its zone. */
export const ruleOf = (s: { rule: Record<string, unknown>; timeZone: string }): Rule => ({
  ...(s.rule as unknown as Rule),
  zone: s.timeZone,
});

const crons = new Map<string, Cron>();

/** croner's object for a pattern in a zone: a paused job, used only for its arithmetic. */
function cronOf(pattern: string, zone: string): Cron {
  const key = `${zone} ${pattern}`;
  let c = crons.get(key);
  if (!c) {
    c = new Cron(pattern, { timezone: zone, paused: true, mode: '5-part', fixedTimeRule: 'no-wildcard' });
    if (crons.size > 5_000) crons.clear();
    crons.set(key, c);
  }
  return c;
}

/** Whether croner reads the pattern; its own message when it does not. */
export function checkPattern(pattern: string, zone: string): string | undefined {
  try {
    const c = new Cron(pattern, {
      timezone: zone,
      paused: true,
      mode: '5-part',
      fixedTimeRule: 'no-wildcard',
    });
    if (!c.nextRun(new Date(0))) return 'it never runs';
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a local calendar date. */
function dayNumber(w: Pick<Wall, 'year' | 'month' | 'day'>): number {
  return Math.floor(Date.UTC(w.year, w.month - 1, w.day) / DAY_MS);
}

function inRunningWeek(rule: Rule, ms: number): boolean {
  if (!rule.everyOtherWeekFrom) return true;
  const [y, m, d] = rule.everyOtherWeekFrom.split('-').map(Number) as [number, number, number];
  const weeks = Math.floor((dayNumber(wallAt(rule.zone, ms)) - dayNumber({ year: y, month: m, day: d })) / 7);
  return ((weeks % 2) + 2) % 2 === 0;
}

/** The next `n` planned instants (epoch ms) strictly after `afterMs`. */
export function runsAfter(rule: Rule, afterMs: number, n: number): number[] {
  const cron = cronOf(rule.pattern, rule.zone);
  const out: number[] = [];
  let from = new Date(afterMs);
  // Every other week skips at most a week of runs between two kept ones (a minute pattern: 10,080).
  for (let guard = 0; out.length < n && guard < 50_000; guard++) {
    const next = cron.nextRun(from);
    if (!next) break;
    const ms = next.getTime();
    if (inRunningWeek(rule, ms)) out.push(ms);
    from = next;
  }
  return out;
}

/**
 * The shortest time between two of the next `n` runs (ms): how often the rule runs at its most frequent
 * (steps of the clock keep their step across a repeated hour); undefined for a rule with one run left.
 */
export function shortestGap(rule: Rule, afterMs: number, n = 50): number | undefined {
  const runs = runsAfter(rule, afterMs, n);
  let gap: number | undefined;
  for (let i = 1; i < runs.length; i++) gap = Math.min(gap ?? Infinity, runs[i]! - runs[i - 1]!);
  return gap;
}

export function nextRunAfter(rule: Rule, afterMs: number): number | null {
  return runsAfter(rule, afterMs, 1)[0] ?? null;
}

/**
 * The planned instants in (fromMs, toMs], oldest first, at most `max` (the newest ones when there are
 * more): what a bot that was down missed.
 */
export function runsBetween(rule: Rule, fromMs: number, toMs: number, max: number): number[] {
  const out: number[] = [];
  let after = fromMs;
  for (let guard = 0; guard < 100_000; guard++) {
    const next = nextRunAfter(rule, after);
    if (next === null || next > toMs) break;
    out.push(next);
    if (out.length > max) out.shift();
    after = next;
  }
  return out;
}

/** What a daylight-saving change does to one run. */
export type DstNote =
  | { kind: 'skipped'; asked: string; runsAt: string }
  | { kind: 'repeated'; at: string }
  | { kind: 'clock-change' };

const hhmm = (h: number, m: number) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;

/** Whether the clocks change on the local day of this run, and what that does to it. */
export function dstNoteFor(rule: Rule, ms: number): DstNote | undefined {
  const w = wallAt(rule.zone, ms);
  const dayStart = ms - ((w.hour * 60 + w.minute) * 60 + w.second) * 1000 - w.millisecond;
  // From 23:00 the evening before to 01:00 the morning after: changes happen in the small hours, so a
  // change the day before or after falls outside.
  const before = offsetMinutesAt(rule.zone, dayStart - 3_600_000);
  const after = offsetMinutesAt(rule.zone, dayStart + 25 * 3_600_000);
  if (before === after) return undefined;
  const at = rule.at;
  if (at && (w.hour !== at.hour || w.minute !== at.minute))
    return { kind: 'skipped', asked: hhmm(at.hour, at.minute), runsAt: hhmm(w.hour, w.minute) };
  if (at) {
    const shift = Math.abs(after - before) * 60_000;
    const again = wallAt(rule.zone, ms + shift);
    if (again.hour === w.hour && again.minute === w.minute)
      return { kind: 'repeated', at: hhmm(w.hour, w.minute) };
  }
  return { kind: 'clock-change' };
}

/** The note in words, for the preview. */
export function dstNoteText(note: DstNote): string {
  switch (note.kind) {
    case 'skipped':
      return `the clocks go forward: ${note.asked} does not exist that day, so it runs at ${note.runsAt}`;
    case 'repeated':
      return `the clocks go back: ${note.at} happens twice that day, and it runs once, at the first`;
    case 'clock-change':
      return 'the clocks change that day';
  }
}
