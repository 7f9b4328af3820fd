import { clampLimit, toTrackedFlow, trackedFlowColumns } from '../rows.js';
import {
  all,
  givenConditions,
  one,
  oneWriter,
  pruneBatch,
  run,
  type Steps,
  statements,
  whereAll,
} from '../sql.js';
import type {
  FlowAnnouncement,
  FlowKey,
  NewTrackedFlow,
  TrackedFlow,
  TrackedFlowPatch,
  TrackedFlowQuery,
} from '../types.js';

/** The key's columns as stored: a flow kept without a team has the team ''. */
const keyOf = (k: FlowKey): [string, string] => [k.teamId ?? '', k.flowId];

function* trackedFlow(key: FlowKey): Steps<TrackedFlow | null> {
  const row = yield* one('SELECT * FROM tracked_flows WHERE team_id = ? AND flow_id = ?', keyOf(key));
  return row ? toTrackedFlow(row) : null;
}

export const getTrackedFlow = (key: FlowKey) => statements(() => trackedFlow(key));

export const trackFlow = (f: NewTrackedFlow) =>
  statements(function* () {
    yield* run(
      `INSERT INTO tracked_flows (flow_id, flow_type, team_id, channel_id, requester_id, origin, asked, request,
         approval_id, status, status_changed_at, created_at, next_poll_at, trace_parent)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (team_id, flow_id) DO NOTHING`,
      [
        f.flowId,
        f.flowType,
        f.teamId ?? '',
        f.channelId,
        f.requesterId,
        f.origin,
        f.asked,
        JSON.stringify(f.request),
        f.approvalId ?? null,
        f.status,
        f.createdAt,
        f.createdAt,
        f.nextPollAt,
        f.traceParent ?? null,
      ],
    );
    return (yield* trackedFlow(f))!;
  });

export const setFlowAnnouncement = (key: FlowKey, announcement: FlowAnnouncement) =>
  statements(function* () {
    const row = yield* one(
      'UPDATE tracked_flows SET announcement = ? WHERE team_id = ? AND flow_id = ? RETURNING *',
      [JSON.stringify(announcement), ...keyOf(key)],
    );
    return row ? toTrackedFlow(row) : null;
  });

/**
 * The select and the lease are one step: on SQLite one writer at a time; on PostgreSQL the chosen rows
 * are locked, and replicas claiming at the same moment pass over each other's rows instead of waiting.
 */
export const claimDueFlows = (o: { owner: string; now: number; leaseMs: number; limit: number }) =>
  oneWriter(function* (d) {
    const rows = yield* all(
      `UPDATE tracked_flows SET lease_owner = ?, lease_until = ?
       WHERE (team_id, flow_id) IN (SELECT team_id, flow_id FROM tracked_flows
         WHERE finished_at IS NULL AND next_poll_at <= ? AND (lease_until IS NULL OR lease_until < ?)
         ORDER BY next_poll_at LIMIT ?${d.skipLocked})
       RETURNING *`,
      [o.owner, o.now + o.leaseMs, o.now, o.now, Math.max(1, Math.floor(o.limit))],
    );
    return rows.map(toTrackedFlow);
  });

export const updateTrackedFlow = (key: FlowKey, owner: string, patch: TrackedFlowPatch) =>
  statements(function* () {
    const columns = trackedFlowColumns(patch);
    const row =
      columns.length === 0
        ? yield* one('SELECT * FROM tracked_flows WHERE team_id = ? AND flow_id = ? AND lease_owner = ?', [
            ...keyOf(key),
            owner,
          ])
        : yield* one(
            `UPDATE tracked_flows SET ${columns.map(([c]) => `${c} = ?`).join(', ')}
             WHERE team_id = ? AND flow_id = ? AND lease_owner = ? RETURNING *`,
            [...columns.map(([, v]) => v), ...keyOf(key), owner],
          );
    return row ? toTrackedFlow(row) : null;
  });

export const releaseFlowLeases = (owner: string) =>
  statements(() =>
    run('UPDATE tracked_flows SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ?', [owner]),
  );

export const listTrackedFlows = (q: TrackedFlowQuery) =>
  statements(function* () {
    const { where, params } = givenConditions([
      ['team_id = ?', q.teamId],
      ['flow_id = ?', q.flowId],
      ['channel_id = ?', q.channelId],
      ['requester_id = ?', q.requesterId],
      ['created_at >= ?', q.since],
    ]);
    if (q.flowTypes) {
      if (q.flowTypes.length === 0) return [];
      where.push(`flow_type IN (${q.flowTypes.map(() => '?').join(', ')})`);
      params.push(...q.flowTypes);
    }
    const rows = yield* all(
      `SELECT * FROM tracked_flows${whereAll(where)} ORDER BY created_at DESC, flow_id DESC LIMIT ?`,
      [...params, clampLimit(q.limit, 20)],
    );
    return rows.map(toTrackedFlow);
  });

/** finished_at is set once the end was told: a flow without it is still followed. */
export const pruneTrackedFlows = (before: number, limit: number) =>
  pruneBatch({
    table: 'tracked_flows',
    key: ['team_id', 'flow_id'],
    condition: 'finished_at < ?',
    order: 'finished_at, team_id, flow_id',
    params: [before],
    limit,
  });
