import type { ApprovalRequest, Schedule, ScheduleRun, Store, TrackedFlow } from '../../store/index.js';

/** What a channel's digest says about one period: read from the store, the same on every replica. */
export interface DigestData {
  channelId: string;
  since: number;
  until: number;
  started: TrackedFlow[];
  completed: TrackedFlow[];
  failed: TrackedFlow[];
  running: TrackedFlow[];
  waiting: ApprovalRequest[];
  decided: ApprovalRequest[];
  /** Runs of this channel's schedules that were skipped, failed, refused or cut off. */
  troubled: { schedule: Schedule; run: ScheduleRun }[];
  /** Active schedules of the channel, soonest first. */
  next: Schedule[];
}

const ENDED_WELL = new Set(['COMPLETED', 'SUCCEEDED', 'SUCCESS', 'DONE']);
const ENDED_BADLY = new Set(['FAILED', 'CANCELLED', 'CANCELED', 'ERROR', 'ABORTED']);

/** The period a digest covers: since its previous run, else the day before. */
export function digestPeriod(s: Pick<Schedule, 'lastRunAt'> | undefined, until: number): number {
  return s?.lastRunAt ?? until - 86_400_000;
}

export async function readDigest(
  store: Store,
  o: { channelId: string; teamId?: string; since: number; until: number },
): Promise<DigestData> {
  const team = o.teamId ? { teamId: o.teamId } : {};
  const [flows, approvals, schedules] = await Promise.all([
    store.listTrackedFlows({ channelId: o.channelId, ...team, since: o.since, limit: 500 }),
    store.listApprovals({ ...team, limit: 500 }),
    store.listSchedules({ channelId: o.channelId, ...team }),
  ]);
  // Flows are followed on the machine's clock (docs/flow-tracking.md): everything since the period began.
  const inPeriod = flows;
  const ofChannel = approvals.filter((a) => a.originChannelId === o.channelId);
  const runs = await store.listScheduleRuns({
    scheduleIds: schedules.map((s) => s.id),
    since: o.since,
    limit: 500,
  });
  const byId = new Map(schedules.map((s) => [s.id, s]));
  return {
    channelId: o.channelId,
    since: o.since,
    until: o.until,
    started: inPeriod,
    completed: inPeriod.filter((f) => ENDED_WELL.has(f.status)),
    failed: inPeriod.filter((f) => ENDED_BADLY.has(f.status)),
    running: inPeriod.filter((f) => !ENDED_WELL.has(f.status) && !ENDED_BADLY.has(f.status)),
    waiting: ofChannel.filter((a) => a.status === 'pending'),
    decided: ofChannel.filter(
      (a) => a.decidedAt !== null && a.decidedAt >= o.since && a.decidedAt <= o.until,
    ),
    troubled: runs
      .filter((r) => r.state !== 'ok' && r.state !== 'claimed' && r.plannedAt <= o.until)
      .map((run) => ({ schedule: byId.get(run.scheduleId)!, run }))
      .filter((t) => t.schedule !== undefined),
    next: schedules
      .filter((s) => s.status === 'active' && s.nextRunAt !== null)
      .sort((a, b) => (a.nextRunAt ?? 0) - (b.nextRunAt ?? 0)),
  };
}
