import { clampLimit } from '../rows.js';
import { all, one, oneWriter, type Row, run, type Steps, statements, whereAll } from '../sql.js';
import type {
  NewStepExecution,
  StepCompletion,
  StepExecution,
  StepExecutionPatch,
  StepState,
} from '../step-types.js';

const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

function toStep(r: Row): StepExecution {
  return {
    executionId: String(r.execution_id),
    callbackId: String(r.callback_id),
    workflowExecutionId: str(r.workflow_execution_id),
    teamId: str(r.team_id),
    userId: String(r.user_id),
    channelId: str(r.channel_id),
    state: String(r.state) as StepState,
    flowId: str(r.flow_id),
    approvalId: str(r.approval_id),
    completion:
      r.completion === null || r.completion === undefined
        ? null
        : (JSON.parse(String(r.completion)) as StepCompletion),
    createdAt: Number(r.created_at),
    leaseOwner: str(r.lease_owner),
    leaseUntil: num(r.lease_until),
    nextTryAt: num(r.next_try_at),
    attempts: Number(r.attempts),
    completedAt: num(r.completed_at),
  };
}

function columnsOf(patch: StepExecutionPatch): [string, unknown][] {
  const out: [string, unknown][] = [];
  const set = (column: string, value: unknown) => {
    if (value !== undefined) out.push([column, value]);
  };
  set('state', patch.state);
  set('flow_id', patch.flowId);
  set('approval_id', patch.approvalId);
  set('completion', patch.completion === undefined ? undefined : JSON.stringify(patch.completion));
  set('next_try_at', patch.nextTryAt);
  set('attempts', patch.attempts);
  set('completed_at', patch.completedAt);
  if (patch.release) out.push(['lease_owner', null], ['lease_until', null]);
  else set('lease_until', patch.leaseUntil);
  return out;
}

function* step(executionId: string): Steps<StepExecution | null> {
  const row = yield* one('SELECT * FROM step_executions WHERE execution_id = ?', [executionId]);
  return row ? toStep(row) : null;
}

export const getStepExecution = (executionId: string) => statements(() => step(executionId));

export const recordStepExecution = (s: NewStepExecution) =>
  statements(function* () {
    const inserted = yield* run(
      `INSERT INTO step_executions (execution_id, callback_id, workflow_execution_id, team_id, user_id,
         channel_id, state, created_at, lease_owner, lease_until, attempts)
       VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, 0) ON CONFLICT (execution_id) DO NOTHING`,
      [
        s.executionId,
        s.callbackId,
        s.workflowExecutionId ?? null,
        s.teamId ?? null,
        s.userId,
        s.channelId ?? null,
        s.createdAt,
        s.owner,
        s.leaseUntil,
      ],
    );
    return { step: (yield* step(s.executionId))!, created: inserted > 0 };
  });

/**
 * What has something to do: a ready step due to be sent; a waiting step whose flow ended, whose request
 * was turned down, expired or refused, or whose approved flow ended; a running step whose holder died.
 * The conditions read the rows the tracker and the approvals write, so a waiting step costs no service
 * call and no timer of its own. What a step waits for is its tenant's (the team it ran in): another
 * tenant's flow of the same ID, or its request, never ends its wait.
 */
const DUE = `s.state <> 'done' AND (s.lease_until IS NULL OR s.lease_until < ?) AND (
  s.state = 'running'
  OR (s.state = 'ready' AND (s.next_try_at IS NULL OR s.next_try_at <= ?))
  OR (s.state = 'waiting' AND (
    EXISTS (SELECT 1 FROM tracked_flows f WHERE f.team_id = COALESCE(s.team_id, '') AND f.flow_id = s.flow_id
      AND f.end_reason IS NOT NULL)
    OR EXISTS (SELECT 1 FROM approvals a WHERE a.id = s.approval_id
      AND COALESCE(a.team_id, '') = COALESCE(s.team_id, '')
      AND a.status IN ('rejected', 'expired', 'refused', 'unknown'))
    OR EXISTS (SELECT 1 FROM tracked_flows f WHERE f.team_id = COALESCE(s.team_id, '')
      AND f.approval_id = s.approval_id AND f.end_reason IS NOT NULL))))`;

export const claimDueSteps = (o: { owner: string; now: number; leaseMs: number; limit: number }) =>
  oneWriter(function* (d) {
    const rows = yield* all(
      `UPDATE step_executions SET lease_owner = ?, lease_until = ?
       WHERE execution_id IN (SELECT s.execution_id FROM step_executions s WHERE ${DUE}
         ORDER BY s.created_at LIMIT ?${d.skipLocked})
       RETURNING *`,
      [o.owner, o.now + o.leaseMs, o.now, o.now, Math.max(1, Math.floor(o.limit))],
    );
    return rows.map(toStep);
  });

export const claimStep = (o: { executionId: string; owner: string; now: number; leaseMs: number }) =>
  statements(function* () {
    const row = yield* one(
      `UPDATE step_executions SET lease_owner = ?, lease_until = ?
       WHERE execution_id = ? AND state = 'ready' AND (lease_until IS NULL OR lease_until < ? OR lease_owner = ?)
       RETURNING *`,
      [o.owner, o.now + o.leaseMs, o.executionId, o.now, o.owner],
    );
    return row ? toStep(row) : null;
  });

export const updateStepExecution = (executionId: string, owner: string, patch: StepExecutionPatch) =>
  statements(function* () {
    const columns = columnsOf(patch);
    const row =
      columns.length === 0
        ? yield* one(
            `SELECT * FROM step_executions WHERE execution_id = ? AND lease_owner = ? AND state <> 'done'`,
            [executionId, owner],
          )
        : yield* one(
            `UPDATE step_executions SET ${columns.map(([c]) => `${c} = ?`).join(', ')}
             WHERE execution_id = ? AND lease_owner = ? AND state <> 'done' RETURNING *`,
            [...columns.map(([, v]) => v), executionId, owner],
          );
    return row ? toStep(row) : null;
  });

export const releaseStepLeases = (owner: string) =>
  statements(() =>
    run('UPDATE step_executions SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ?', [owner]),
  );

export const listStepExecutions = (q: { workflowExecutionId?: string; userId?: string; limit?: number }) =>
  statements(function* () {
    const where: string[] = [];
    const params: unknown[] = [];
    if (q.workflowExecutionId !== undefined) {
      where.push('workflow_execution_id = ?');
      params.push(q.workflowExecutionId);
    }
    if (q.userId !== undefined) {
      where.push('user_id = ?');
      params.push(q.userId);
    }
    const rows = yield* all(
      `SELECT * FROM step_executions${whereAll(where)} ORDER BY created_at DESC, execution_id DESC LIMIT ?`,
      [...params, clampLimit(q.limit, 20)],
    );
    return rows.map(toStep);
  });
