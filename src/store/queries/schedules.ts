import { randomBytes } from 'node:crypto';
import { clampLimit } from '../rows.js';
import type {
  NewSchedule,
  Schedule,
  ScheduleQuery,
  ScheduleRun,
  ScheduleRunClaim,
  ScheduleRunFinish,
  ScheduleRunOutcome,
  ScheduleRunQuery,
  ScheduleRunState,
  ScheduleStatus,
  ScheduleStatusChange,
} from '../schedules.js';
import {
  all,
  givenConditions,
  listedRows,
  one,
  oneWriter,
  run,
  type Steps,
  statements,
  whereAll,
  whereIn,
} from '../sql.js';

type Row = Record<string, unknown>;
const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export function toSchedule(r: Row): Schedule {
  return {
    id: String(r.id),
    teamId: str(r.team_id),
    channelId: String(r.channel_id),
    ownerId: String(r.owner_id),
    name: String(r.name),
    kind: r.kind as Schedule['kind'],
    command: String(r.command),
    whenText: String(r.when_text),
    rule: JSON.parse(String(r.rule)) as Record<string, unknown>,
    timeZone: String(r.time_zone),
    status: r.status as ScheduleStatus,
    statusReason: str(r.status_reason),
    statusBy: str(r.status_by),
    approvalId: str(r.approval_id),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    nextRunAt: num(r.next_run_at),
    lastRunAt: num(r.last_run_at),
    lastOutcome: str(r.last_outcome) as ScheduleRunOutcome | null,
    lastDetail: str(r.last_detail),
    leaseOwner: str(r.lease_owner),
    leaseUntil: num(r.lease_until),
    approversWorkspace: r.approvers_workspace_id
      ? { id: String(r.approvers_workspace_id), name: str(r.approvers_workspace_name) }
      : null,
    approversStrictest: r.approvers_strictest != null && Number(r.approvers_strictest) === 1,
    modelDoubt: r.model_doubt === 'unseen' || r.model_doubt === 'no-workspace' ? r.model_doubt : null,
    traceParent: str(r.trace_parent),
  };
}

export function toScheduleRun(r: Row): ScheduleRun {
  return {
    scheduleId: String(r.schedule_id),
    plannedAt: Number(r.planned_at),
    claimedBy: String(r.claimed_by),
    claimedAt: Number(r.claimed_at),
    state: r.state as ScheduleRunState,
    finishedAt: num(r.finished_at),
    flowId: str(r.flow_id),
    detail: str(r.detail),
  };
}

function* schedule(id: string): Steps<Schedule | null> {
  const row = yield* one('SELECT * FROM schedules WHERE id = ?', [id]);
  return row ? toSchedule(row) : null;
}

export const createSchedule = (s: NewSchedule) =>
  statements(function* () {
    const row = yield* one(
      `INSERT INTO schedules (id, team_id, channel_id, owner_id, name, kind, command, when_text, rule, time_zone,
         status, approval_id, created_at, updated_at, next_run_at, approvers_workspace_id,
         approvers_workspace_name, approvers_strictest, model_doubt, trace_parent)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      [
        // Short enough to type: 48 random bits.
        randomBytes(6).toString('hex'),
        s.teamId ?? null,
        s.channelId,
        s.ownerId,
        s.name,
        s.kind,
        s.command,
        s.whenText,
        JSON.stringify(s.rule),
        s.timeZone,
        s.status,
        s.approvalId ?? null,
        s.createdAt,
        s.createdAt,
        s.nextRunAt,
        s.approversWorkspace?.id ?? null,
        s.approversWorkspace?.name ?? null,
        s.approversStrictest ? 1 : 0,
        s.modelDoubt ?? null,
        s.traceParent ?? null,
      ],
    );
    return toSchedule(row!);
  });

export const getSchedule = (id: string) => statements(() => schedule(id));

/** The conditions of a query of schedules (statuses: every one but deleted unless named). */
function scheduleConditions(q: Omit<ScheduleQuery, 'limit' | 'offset'>) {
  const { where, params } = givenConditions([
    ['team_id = ?', q.teamId],
    ['channel_id = ?', q.channelId],
    ['owner_id = ?', q.ownerId],
    ['LOWER(name) = ?', q.name?.toLowerCase()],
  ]);
  const statuses = q.statuses ?? ['active', 'paused', 'awaiting-approval', 'rejected'];
  where.push(`status IN (${statuses.map(() => '?').join(', ')})`);
  params.push(...statuses);
  return { where, params };
}

export const listSchedules = (q: ScheduleQuery) =>
  statements(function* () {
    const { where, params } = scheduleConditions(q);
    const rows = yield* all(
      `SELECT * FROM schedules${whereAll(where)} ORDER BY created_at, id LIMIT ? OFFSET ?`,
      [...params, clampLimit(q.limit, 100), Math.max(0, Math.floor(q.offset ?? 0))],
    );
    return rows.map(toSchedule);
  });

export const countSchedules = (q: Omit<ScheduleQuery, 'limit' | 'offset'>) =>
  statements(function* () {
    const { where, params } = scheduleConditions(q);
    const row = yield* one(`SELECT COUNT(*) AS n FROM schedules${whereAll(where)}`, params);
    return Number(row?.n ?? 0);
  });

export const setScheduleStatus = (id: string, c: ScheduleStatusChange) =>
  statements(function* () {
    const from = c.from ?? ['active', 'paused', 'awaiting-approval', 'rejected'];
    const approvers = c.approvers
      ? `, approvers_workspace_id = ?, approvers_workspace_name = ?, approvers_strictest = ?, model_doubt = ?`
      : '';
    const approversParams = c.approvers
      ? [
          c.approvers.approversWorkspace?.id ?? null,
          c.approvers.approversWorkspace?.name ?? null,
          c.approvers.approversStrictest ? 1 : 0,
          c.approvers.modelDoubt,
        ]
      : [];
    const row = yield* one(
      `UPDATE schedules SET status = ?, status_reason = ?, status_by = ?, updated_at = ?, next_run_at = ?,
         approval_id = COALESCE(?, approval_id), owner_id = COALESCE(?, owner_id)${approvers}
       WHERE id = ? AND status IN (${from.map(() => '?').join(', ')})${c.fromOwner ? ' AND owner_id = ?' : ''}
       RETURNING *`,
      [
        c.status,
        c.reason ?? null,
        c.by,
        c.at,
        c.nextRunAt,
        c.approvalId ?? null,
        c.ownerId ?? null,
        ...approversParams,
        id,
        ...from,
        ...(c.fromOwner ? [c.fromOwner] : []),
      ],
    );
    return row ? toSchedule(row) : null;
  });

/** As tracked flows are claimed: the select and the lease in one step, passing over rows others lock. */
export const claimDueSchedules = (o: { owner: string; now: number; leaseMs: number; limit: number }) =>
  oneWriter(function* (d) {
    const rows = yield* all(
      `UPDATE schedules SET lease_owner = ?, lease_until = ?
       WHERE id IN (SELECT id FROM schedules
         WHERE status = 'active' AND next_run_at <= ? AND (lease_until IS NULL OR lease_until < ?)
         ORDER BY next_run_at LIMIT ?${d.skipLocked})
       RETURNING *`,
      [o.owner, o.now + o.leaseMs, o.now, o.now, Math.max(1, Math.floor(o.limit))],
    );
    return rows.map(toSchedule);
  });

export const claimScheduleRun = (o: ScheduleRunClaim) =>
  statements(function* () {
    const state = o.state ?? 'claimed';
    const changed = yield* run(
      `INSERT INTO schedule_runs (schedule_id, planned_at, claimed_by, claimed_at, state, finished_at, detail)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (schedule_id, planned_at) DO NOTHING`,
      [o.scheduleId, o.plannedAt, o.owner, o.at, state, state === 'claimed' ? null : o.at, o.detail ?? null],
    );
    return changed === 1;
  });

export const finishScheduleRun = (o: ScheduleRunFinish) =>
  statements(function* () {
    const row = yield* one(
      `UPDATE schedule_runs SET state = ?, finished_at = ?, flow_id = ?, detail = ?
       WHERE schedule_id = ? AND planned_at = ? AND state = 'claimed' RETURNING *`,
      [o.state, o.at, o.flowId ?? null, o.detail ?? null, o.scheduleId, o.plannedAt],
    );
    return row ? toScheduleRun(row) : null;
  });

export const advanceSchedule = (o: {
  id: string;
  owner: string;
  nextRunAt: number | null;
  at: number;
  last?: { at: number; outcome: ScheduleRunOutcome; detail?: string };
}) =>
  statements(function* () {
    const last = o.last ? ', last_run_at = ?, last_outcome = ?, last_detail = ?' : '';
    const lastParams = o.last ? [o.last.at, o.last.outcome, o.last.detail ?? null] : [];
    const row = yield* one(
      `UPDATE schedules SET next_run_at = ?, updated_at = ?, lease_owner = NULL, lease_until = NULL${last}
       WHERE id = ? AND lease_owner = ? AND status = 'active' RETURNING *`,
      [o.nextRunAt, o.at, ...lastParams, o.id, o.owner],
    );
    if (row) return toSchedule(row);
    // Paused or deleted while its run was under way: the outcome is still kept, the lease given back.
    if (o.last)
      yield* run(
        `UPDATE schedules SET last_run_at = ?, last_outcome = ?, last_detail = ?, lease_owner = NULL,
           lease_until = NULL WHERE id = ? AND lease_owner = ?`,
        [...lastParams, o.id, o.owner],
      );
    return null;
  });

export const releaseScheduleLeases = (owner: string) =>
  statements(() =>
    run('UPDATE schedules SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ?', [owner]),
  );

export const listScheduleRuns = (q: ScheduleRunQuery) =>
  statements(function* () {
    if (q.scheduleIds?.length === 0) return [] as ScheduleRun[];
    const c = givenConditions([['planned_at >= ?', q.since]]);
    if (q.scheduleIds) whereIn(c, 'schedule_id', q.scheduleIds);
    const order = 'planned_at DESC, schedule_id';
    return (yield* listedRows('schedule_runs', c, order, clampLimit(q.limit, 100))).map(toScheduleRun);
  });

export const markInterruptedRuns = (claimedBefore: number, at: number) =>
  oneWriter(function* (d) {
    const rows = yield* all(
      `UPDATE schedule_runs SET state = 'unknown', finished_at = ?,
         detail = 'The bot stopped while this run was under way; the service may or may not have acted.'
       WHERE (schedule_id, planned_at) IN (SELECT schedule_id, planned_at FROM schedule_runs
         WHERE state = 'claimed' AND claimed_at < ? ORDER BY claimed_at LIMIT 100${d.skipLocked})
       RETURNING *`,
      [at, claimedBefore],
    );
    return rows.map(toScheduleRun);
  });
