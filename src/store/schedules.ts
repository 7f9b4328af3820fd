/**
 * The store's side of schedules: each schedule is a row, and each planned run is a row keyed by
 * (schedule, planned instant). Whoever inserts that row runs it; nobody else can, on either engine, so a
 * planned run happens at most once whatever the replicas and restarts.
 */

/** What a schedule repeats: a command, read again at each run, or a channel digest. */
export type ScheduleKind = 'command' | 'digest';

/**
 * active: runs at `nextRunAt`; paused: by a person or because the owner's token was refused;
 * awaiting-approval: a live start or stop waiting for its one approval; rejected: the approval was refused
 * or revoked (never runs); deleted: kept for the digest's and the audit's sake, never listed.
 */
export type ScheduleStatus = 'active' | 'paused' | 'awaiting-approval' | 'rejected' | 'deleted';

/** What a schedule is, whether being created or read back. */
interface ScheduleDefinition {
  channelId: string;
  ownerId: string;
  name: string;
  kind: ScheduleKind;
  /** The command as typed after `/tsai` (for a digest: empty). */
  command: string;
  /** The "when" as typed. */
  whenText: string;
  /** The rule as data (core/schedules reads it). */
  rule: Record<string, unknown>;
  timeZone: string;
  status: ScheduleStatus;
  createdAt: number;
  /** The next planned run; null while it may not run. */
  nextRunAt: number | null;
}

/**
 * Who decides a schedule of live starts or stops, chosen when it is made as a request's is: the approvers
 * of the service workspace that holds its model (and its name then, for the card), the strictest rule
 * when the bot could not place the model, else the bot's approvers; and what the bot could not vouch for.
 */
export interface ScheduleApprovers {
  approversWorkspace: { id: string; name: string | null } | null;
  approversStrictest: boolean;
  modelDoubt: 'unseen' | 'no-workspace' | null;
}

export interface NewSchedule extends ScheduleDefinition, Partial<ScheduleApprovers> {
  teamId?: string;
  approvalId?: string;
  /** The trace of the request that created it (W3C `traceparent`), when tracing was on. */
  traceParent?: string;
}

/** One planned run, claimed by `owner` at `at`. */
/** What came of a claimed run: its outcome, when, and the flow it started or why it did not. */
export interface ScheduleRunFinish {
  scheduleId: string;
  plannedAt: number;
  state: ScheduleRunOutcome;
  at: number;
  flowId?: string;
  detail?: string;
}

export interface ScheduleRunClaim {
  scheduleId: string;
  plannedAt: number;
  owner: string;
  at: number;
  /** Recorded at once as this (a skipped run), instead of claimed. */
  state?: ScheduleRunState;
  detail?: string;
}

export interface Schedule extends ScheduleDefinition, ScheduleApprovers {
  id: string;
  teamId: string | null;
  /** Why it is paused or rejected, in words for people. */
  statusReason: string | null;
  statusBy: string | null;
  approvalId: string | null;
  updatedAt: number;
  lastRunAt: number | null;
  lastOutcome: ScheduleRunOutcome | null;
  lastDetail: string | null;
  leaseOwner: string | null;
  leaseUntil: number | null;
  /** The trace of the request that created it (W3C `traceparent`); null when tracing was off. */
  traceParent: string | null;
}

/**
 * claimed: taken by a replica, its service call may be under way; then ok, failed (the service's reason in
 * `detail`), refused (the bot's policy or identity refused it), skipped (missed while the bot was down),
 * unknown (its process died after the claim: it is never run again).
 */
export type ScheduleRunState = 'claimed' | 'ok' | 'failed' | 'refused' | 'skipped' | 'unknown';
export type ScheduleRunOutcome = Exclude<ScheduleRunState, 'claimed'>;

export interface ScheduleRun {
  scheduleId: string;
  plannedAt: number;
  claimedBy: string;
  claimedAt: number;
  state: ScheduleRunState;
  finishedAt: number | null;
  flowId: string | null;
  detail: string | null;
}

export interface ScheduleQuery {
  teamId?: string;
  channelId?: string;
  ownerId?: string;
  /** The name, whatever its case. */
  name?: string;
  /** Default: every status but deleted. */
  statuses?: ScheduleStatus[];
  limit?: number;
  /** How many of the list (oldest first) to pass over: the 101st is `offset: 100, limit: 1`. */
  offset?: number;
}

export interface ScheduleRunQuery {
  scheduleIds?: readonly string[];
  /** Planned at or after (ms). */
  since?: number;
  limit?: number;
}

/** A change of status by a person or the bot; `nextRunAt` set with it (null: none planned). */
export interface ScheduleStatusChange {
  status: ScheduleStatus;
  reason?: string | null;
  by: string;
  at: number;
  nextRunAt: number | null;
  /** Only when the schedule is in one of these now (compare-and-set); absent: any but deleted. */
  from?: ScheduleStatus[];
  approvalId?: string;
  /** Only while `ownerId` owns it (compare-and-set), e.g. a take-over racing a deletion by its owner. */
  fromOwner?: string;
  /** A new owner (a take-over), with the change. */
  ownerId?: string;
  /** Who decides it from now on (a take-over or a change of its model's approvers sends it back to them). */
  approvers?: ScheduleApprovers;
}

export interface ScheduleStore {
  createSchedule(s: NewSchedule): Promise<Schedule>;
  getSchedule(id: string): Promise<Schedule | null>;
  /** Oldest first (the order people number them in). */
  listSchedules(q?: ScheduleQuery): Promise<Schedule[]>;
  /** How many `listSchedules` would list without its limit and offset. */
  countSchedules(q?: Omit<ScheduleQuery, 'limit' | 'offset'>): Promise<number>;
  /** Compare-and-set of the status; null when the schedule is not in an expected status. */
  setScheduleStatus(id: string, change: ScheduleStatusChange): Promise<Schedule | null>;
  /**
   * Leases up to `limit` active schedules whose next run is due at `now` and that nobody else holds, to
   * `owner` until `now + leaseMs`; replicas claiming at once never get the same schedule.
   */
  claimDueSchedules(o: { owner: string; now: number; leaseMs: number; limit: number }): Promise<Schedule[]>;
  /**
   * Claims one planned run: true for the one caller that inserted its row, false for everyone after (the
   * row is never deleted while its schedule lives).
   */
  claimScheduleRun(o: ScheduleRunClaim): Promise<boolean>;
  /** What came of a claimed run (only from `claimed`). */
  finishScheduleRun(o: ScheduleRunFinish): Promise<ScheduleRun | null>;
  /**
   * Moves the schedule to its next planned run, with its last outcome, and gives the lease back: only
   * while `owner` holds it and the schedule is still active. Null when it does not.
   */
  advanceSchedule(o: {
    id: string;
    owner: string;
    nextRunAt: number | null;
    at: number;
    last?: { at: number; outcome: ScheduleRunOutcome; detail?: string };
  }): Promise<Schedule | null>;
  /** Gives back every schedule lease `owner` holds. */
  releaseScheduleLeases(owner: string): Promise<number>;
  /** Newest planned first. */
  listScheduleRuns(q?: ScheduleRunQuery): Promise<ScheduleRun[]>;
  /** Runs claimed before `claimedBefore` and never finished (their process died) -> unknown; returns them. */
  markInterruptedRuns(claimedBefore: number, at: number): Promise<ScheduleRun[]>;
}
