import { randomUUID } from 'node:crypto';
import { clampLimit, toApproval } from '../rows.js';
import {
  all,
  givenConditions,
  listedRows,
  one,
  oneWriter,
  pruneBatch,
  rowWhere,
  run,
  type Steps,
  statements,
  whereIn,
} from '../sql.js';
import type {
  ApprovalQuery,
  ApprovalRequest,
  DecideInput,
  ExecutionOutcome,
  NewApprovalRequest,
  TransitionResult,
} from '../types.js';

// Every transition is one `UPDATE ... WHERE <expected state> RETURNING *`: concurrent ones on a row
// serialise on it, and the losers match nothing.

export const createApproval = (input: NewApprovalRequest) =>
  statements(function* () {
    const row = yield* one(
      `INSERT INTO approvals (id, action, model_id, assessment_id, reason, requester_id, team_id,
         origin_channel_id, approvals_channel_id, status, created_at, expires_at,
         approvers_workspace_id, approvers_workspace_name, model_doubt, approvers_strictest, origin_thread_ts)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      [
        randomUUID(),
        input.action,
        input.modelId,
        input.assessmentId ?? null,
        input.reason ?? null,
        input.requesterId,
        input.teamId ?? null,
        input.originChannelId,
        input.approvalsChannelId,
        input.createdAt,
        input.expiresAt,
        input.approversWorkspace?.id ?? null,
        input.approversWorkspace?.name ?? null,
        input.modelDoubt ?? null,
        input.approversStrictest ? 1 : 0,
        input.originThreadTs ?? null,
      ],
    );
    return toApproval(row!);
  });

const approval = (id: string): Steps<ApprovalRequest | null> => rowWhere('approvals', 'id', id, toApproval);

export const getApproval = (id: string) => statements(() => approval(id));

export const listApprovals = (query: ApprovalQuery) =>
  statements(function* () {
    const c = givenConditions([
      ['team_id = ?', query.teamId],
      ['requester_id = ?', query.requesterId],
    ]);
    if (query.statuses?.length) whereIn(c, 'status', query.statuses);
    const order = 'created_at DESC, id';
    return (yield* listedRows('approvals', c, order, clampLimit(query.limit, 100))).map(toApproval);
  });

export const setApprovalMessage = (id: string, channelId: string, messageTs: string) =>
  statements(function* () {
    yield* run('UPDATE approvals SET approvals_channel_id = ?, message_ts = ? WHERE id = ?', [
      channelId,
      messageTs,
      id,
    ]);
  });

export const decideApproval = (input: DecideInput) =>
  oneWriter(function* (): Steps<TransitionResult> {
    const row =
      input.decision === 'approve'
        ? yield* one(
            `UPDATE approvals SET status = 'executing', decided_by = ?, decided_at = ?,
               attempts = attempts + 1, last_attempt_by = ?, last_attempt_at = ?
             WHERE id = ? AND status = 'pending' AND expires_at > ? RETURNING *`,
            [input.by, input.at, input.by, input.at, input.id, input.at],
          )
        : yield* one(
            `UPDATE approvals SET status = 'rejected', decided_by = ?, decided_at = ?, reject_reason = ?,
               finished_at = ?
             WHERE id = ? AND status = 'pending' AND expires_at > ? RETURNING *`,
            [input.by, input.at, input.reason ?? null, input.at, input.id, input.at],
          );
    if (row) return { ok: true, request: toApproval(row) };
    const expired = yield* run(
      `UPDATE approvals SET status = 'expired', finished_at = ?
       WHERE id = ? AND status = 'pending' AND expires_at <= ?`,
      [input.at, input.id, input.at],
    );
    const current = yield* approval(input.id);
    return expired > 0 ? { ok: false, current, expiredNow: true } : { ok: false, current };
  });

/** One compare-and-set; when it matches nothing, the request as it is now. */
const transition = (id: string, text: string, params: () => readonly unknown[]) =>
  oneWriter(function* (): Steps<TransitionResult> {
    const row = yield* one(text, params());
    return row ? { ok: true, request: toApproval(row) } : { ok: false, current: yield* approval(id) };
  });

export const claimRetry = (id: string, by: string, at: number) =>
  transition(
    id,
    `UPDATE approvals SET status = 'executing', attempts = attempts + 1, last_attempt_by = ?,
       last_attempt_at = ?, error = NULL, finished_at = NULL
     WHERE id = ? AND status = 'failed' RETURNING *`,
    () => [by, at, id],
  );

export const recordExecution = (id: string, outcome: ExecutionOutcome, at: number) =>
  transition(
    id,
    `UPDATE approvals SET status = ?, flow_id = ?, flow_status = ?, error = ?, finished_at = ?
     WHERE id = ? AND status IN ('executing', 'unknown') RETURNING *`,
    () => {
      const executed = outcome.status === 'executed';
      return [
        outcome.status,
        executed ? outcome.flowId : null,
        executed ? (outcome.flowStatus ?? null) : null,
        executed ? null : outcome.error,
        at,
        id,
      ];
    },
  );

export const expireDue = (now: number) =>
  oneWriter(function* () {
    const rows = yield* all(
      `UPDATE approvals SET status = 'expired', finished_at = ?
       WHERE status = 'pending' AND expires_at <= ? RETURNING *`,
      [now, now],
    );
    return rows.map(toApproval);
  });

export const markInterrupted = (claimedBefore: number, at: number) =>
  oneWriter(function* () {
    const rows = yield* all(
      `UPDATE approvals SET status = 'unknown', finished_at = ?,
         error = 'The bot stopped while creating the flow; its outcome is unknown.'
       WHERE status = 'executing' AND last_attempt_at <= ? RETURNING *`,
      [at, claimedBefore],
    );
    return rows.map(toApproval);
  });

/** Only requests nothing can move any more: pending and executing ones have no finished_at. */
export const pruneApprovals = (before: number, limit: number) =>
  pruneBatch({
    table: 'approvals',
    key: 'id',
    condition: `finished_at < ? AND status NOT IN ('pending', 'executing')`,
    order: 'finished_at, id',
    params: [before],
    limit,
  });
