import type {
  Schedule,
  ScheduleApprovers,
  ScheduleRun,
  ScheduleRunOutcome,
  Store,
} from '../../store/index.js';
import { inSpan, keptTrace } from '../../tracing/trace.js';
import { nextRunAfter, ruleOf, runsBetween } from './rule.js';

/** What came of one run, as the store keeps it and the owner may be told. */
export interface RunReport {
  outcome: ScheduleRunOutcome;
  flowId?: string;
  /** The service's (or the bot's) reason, in words for people. */
  detail?: string;
  /** The service turned down the owner's own token: the schedule pauses until they reconnect. */
  reconnect?: boolean;
  /**
   * The gate refused it for a right its owner lost (Slack standing, identity, operator, channel): the
   * schedule pauses, once, saying why (`reason`, said of the schedule: "its owner is no longer an operator").
   */
  pause?: { reason: string; connect?: 'connect' | 'reconnect'; ownerReachable: boolean };
  /** Its approval no longer stands (its model's approvers changed): back to them, under this rule. */
  reapprove?: { reason: string; approvers: ScheduleApprovers };
}

/** What the runner tells a surface, which tells the schedule's owner (once per event). */
export type ScheduleEvent =
  | { kind: 'skipped'; schedule: Schedule; missed: number[]; ranLatest: boolean }
  | { kind: 'paused-token'; schedule: Schedule; plannedAt: number }
  /** Paused because its owner may no longer run it: the owner (when reachable) and its channel are told. */
  | {
      kind: 'paused';
      schedule: Schedule;
      plannedAt: number;
      reason: string;
      connect?: 'connect' | 'reconnect';
      ownerReachable: boolean;
    }
  /** Back to its approvers: its card is posted again, and its owner and channel told why. */
  | { kind: 'reapproval'; schedule: Schedule; plannedAt: number; reason: string }
  | { kind: 'interrupted'; schedule: Schedule; run: ScheduleRun };

export interface ScheduleRunnerDeps {
  store: Store;
  /** The bot's clock: schedules run on business time, which tests move. */
  now: () => Date;
  /** This replica's name in leases and claims. */
  owner: string;
  /** How late a missed run may be and still run once (TSAI_SCHEDULE_CATCH_UP). */
  catchUpMs: number;
  /** Runs one planned run through the one path and shows it; never throws for the service's refusals. */
  perform(schedule: Schedule, plannedAt: number): Promise<RunReport>;
  tell(event: ScheduleEvent): Promise<void>;
  log: { info(o: object, msg: string): void; error(o: object, msg: string): void };
  leaseMs?: number;
  /** Schedules claimed per round. */
  batch?: number;
  /** A claimed run not finished after this was cut off by its process's death. */
  interruptedAfterMs?: number;
}

const LEASE_MS = 5 * 60_000;
const INTERRUPTED_AFTER_MS = 15 * 60_000;
/**
 * Runs under way at once. A run mostly waits: for the service's answer to its flow's creation, then for
 * Slack. A run holds its place about 3 s with a service that takes 2 s an answer, so 100 places start
 * 1,000 runs due in the same minute in about 30 s (`npm run bench`, docs/performance.md; 25 would take
 * two minutes). The service client admits 128 calls at once, so people's commands still find room beside
 * a burst.
 */
export const PARALLEL_RUNS = 100;

/**
 * Runs due schedules, each planned run at most once across replicas and restarts: a replica leases due
 * schedules (passing over others' rows), then claims each planned run by inserting its row before anything
 * is sent; a second claimant of the same (schedule, instant) inserts nothing and runs nothing. A process
 * that dies after its claim leaves the run claimed, and it is marked outcome unknown later, never run
 * again: a lost run is preferred to a second service call.
 */
export class ScheduleRunner {
  constructor(private readonly deps: ScheduleRunnerDeps) {}

  /** Schedules leased at a time: as many as run at once, so that replicas share a burst of due runs. */
  get batch(): number {
    return this.deps.batch ?? PARALLEL_RUNS;
  }

  get owner(): string {
    return this.deps.owner;
  }

  /**
   * One round: every due schedule this replica could lease, run from a pool. A run the service is slow to
   * answer holds its own place only: the next one starts as soon as any place is free, and when the leased
   * ones have all started, the next batch is leased then, not after the slowest run has ended. Returns how
   * many schedules it handled.
   */
  async round(): Promise<number> {
    const queue: { s: Schedule; at: number }[] = [];
    let handled = 0;
    let more = true;
    let leasing: Promise<void> | undefined;
    const lease = async () => {
      const at = this.deps.now().getTime();
      const due = await this.deps.store.claimDueSchedules({
        owner: this.deps.owner,
        now: at,
        leaseMs: this.deps.leaseMs ?? LEASE_MS,
        limit: this.batch,
      });
      if (due.length) this.deps.log.info({ schedules: due.length }, 'claimed due schedules');
      queue.push(...due.map((s) => ({ s, at })));
      handled += due.length;
      more = due.length >= this.batch;
    };
    const take = async (): Promise<{ s: Schedule; at: number } | undefined> => {
      for (;;) {
        const next = queue.shift();
        if (next || !more) return next;
        // A store that fails mid-round ends the leasing; the runs in hand go on, the next round tries again.
        leasing ??= lease()
          .catch((e: unknown) => {
            more = false;
            this.deps.log.error({ err: String(e) }, 'could not lease more due schedules');
          })
          .finally(() => {
            leasing = undefined;
          });
        await leasing;
      }
    };
    const worker = async () => {
      for (let next = await take(); next; next = await take()) {
        const id = next.s.id;
        await this.handle(next.s, next.at).catch((e: unknown) =>
          this.deps.log.error({ schedule: id, err: String(e) }, 'a scheduled run failed inside the bot'),
        );
      }
    };
    await lease();
    await Promise.all(Array.from({ length: Math.min(PARALLEL_RUNS, queue.length) }, worker));
    return handled;
  }

  /** Claimed runs whose process died: outcome unknown, owner told once (whoever marks them tells). */
  async sweepInterrupted(): Promise<ScheduleRun[]> {
    const now = this.deps.now().getTime();
    const cut = await this.deps.store.markInterruptedRuns(
      now - (this.deps.interruptedAfterMs ?? INTERRUPTED_AFTER_MS),
      now,
    );
    for (const run of cut) {
      const schedule = await this.deps.store.getSchedule(run.scheduleId);
      if (schedule) await this.deps.tell({ kind: 'interrupted', schedule, run });
    }
    return cut;
  }

  private async handle(s: Schedule, now: number): Promise<void> {
    const { store, owner } = this.deps;
    const rule = ruleOf(s);
    const from = s.nextRunAt ?? now;
    // Every planned instant from the one it was waiting for up to now (the newest 100 after a long outage).
    const planned = runsBetween(rule, from - 1, now, 100);
    const latest = planned.at(-1);
    const runLatest = latest !== undefined && now - latest <= this.deps.catchUpMs;
    const missed = runLatest ? planned.slice(0, -1) : planned;
    const skipped: number[] = [];
    for (const at of missed) {
      const late = Math.round((now - at) / 60_000);
      if (
        await store.claimScheduleRun({
          scheduleId: s.id,
          plannedAt: at,
          owner,
          at: now,
          state: 'skipped',
          detail: `Missed while the bot was not running; ${late} min late when it was back.`,
        })
      )
        skipped.push(at);
    }
    if (skipped.length)
      await this.deps.tell({ kind: 'skipped', schedule: s, missed: skipped, ranLatest: runLatest });

    let last: { at: number; outcome: ScheduleRunOutcome; detail?: string } | undefined = skipped.length
      ? { at: skipped.at(-1)!, outcome: 'skipped' }
      : undefined;
    if (
      runLatest &&
      (await store.claimScheduleRun({ scheduleId: s.id, plannedAt: latest, owner, at: now }))
    ) {
      // Each run is a trace of its own (the service call, the flow announced), linked to the request that
      // made the schedule.
      const performed = inSpan(
        'schedule.run',
        { 'schedule.id': s.id, 'slack.team.id': s.teamId ?? undefined, 'schedule.kind': s.kind },
        () => this.deps.perform(s, latest),
        { root: true, kind: 'internal', links: [keptTrace(s.traceParent)] },
      );
      const report = await performed.catch((e: unknown): RunReport => {
        this.deps.log.error({ schedule: s.id, err: String(e) }, 'a scheduled run failed inside the bot');
        return {
          outcome: 'unknown',
          detail: "Something went wrong inside the bot; check the service's Activity view for this run.",
        };
      });
      await store.finishScheduleRun({
        scheduleId: s.id,
        plannedAt: latest,
        state: report.outcome,
        at: this.deps.now().getTime(),
        ...(report.flowId ? { flowId: report.flowId } : {}),
        ...(report.detail ? { detail: report.detail } : {}),
      });
      last = { at: latest, outcome: report.outcome, ...(report.detail ? { detail: report.detail } : {}) };
      this.deps.log.info({ schedule: s.id, plannedAt: latest, outcome: report.outcome }, 'scheduled run');
      await this.consequences(s, latest, report, now);
    }
    await store.advanceSchedule({
      id: s.id,
      owner,
      nextRunAt: nextRunAfter(rule, Math.max(now, latest ?? now)),
      at: now,
      ...(last ? { last } : {}),
    });
  }

  /**
   * What a run's refusal does to its schedule, once across replicas (each a compare-and-set from active):
   * a token the service turned down, or a right its owner lost, pauses it; an approval that no longer
   * stands sends it back to its approvers. Whoever made the change tells.
   */
  private async consequences(s: Schedule, plannedAt: number, report: RunReport, now: number): Promise<void> {
    const { store } = this.deps;
    const pause = report.reconnect
      ? { reason: 'the service turned down its owner’s token' }
      : report.pause
        ? { reason: report.pause.reason }
        : undefined;
    if (pause) {
      const paused = await store.setScheduleStatus(s.id, {
        status: 'paused',
        from: ['active'],
        reason: pause.reason,
        by: 'system',
        at: now,
        nextRunAt: null,
      });
      if (!paused) return;
      if (report.reconnect) return this.deps.tell({ kind: 'paused-token', schedule: paused, plannedAt });
      const p = report.pause!;
      return this.deps.tell({
        kind: 'paused',
        schedule: paused,
        plannedAt,
        reason: p.reason,
        ...(p.connect ? { connect: p.connect } : {}),
        ownerReachable: p.ownerReachable,
      });
    }
    if (report.reapprove) {
      const back = await store.setScheduleStatus(s.id, {
        status: 'awaiting-approval',
        from: ['active'],
        reason: report.reapprove.reason,
        approvers: report.reapprove.approvers,
        by: 'system',
        at: now,
        nextRunAt: null,
      });
      if (back)
        await this.deps.tell({
          kind: 'reapproval',
          schedule: back,
          plannedAt,
          reason: report.reapprove.reason,
        });
    }
  }
}
