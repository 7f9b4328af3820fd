import type {
  ApprovalAction,
  ApprovalRequest,
  ApprovalStatus,
  AuditEntry,
  AuditOutcome,
  FlowAnnouncement,
  FlowEndReason,
  FlowOrigin,
  HeldFollowUp,
  StoredChannelDefaults,
  TrackedFlow,
  TrackedFlowPatch,
} from './types.js';

// Row mapping shared by both dialects. PostgreSQL returns BIGINT as a string; epoch ms fit a double exactly.
type Row = Record<string, unknown>;

const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export function toApproval(r: Row): ApprovalRequest {
  return {
    id: String(r.id),
    action: r.action as ApprovalAction,
    modelId: String(r.model_id),
    assessmentId: str(r.assessment_id),
    reason: str(r.reason),
    requesterId: String(r.requester_id),
    teamId: str(r.team_id),
    originChannelId: String(r.origin_channel_id),
    originThreadTs: str(r.origin_thread_ts),
    approvalsChannelId: String(r.approvals_channel_id),
    messageTs: str(r.message_ts),
    status: r.status as ApprovalStatus,
    createdAt: Number(r.created_at),
    expiresAt: Number(r.expires_at),
    decidedBy: str(r.decided_by),
    decidedAt: num(r.decided_at),
    rejectReason: str(r.reject_reason),
    attempts: Number(r.attempts),
    lastAttemptBy: str(r.last_attempt_by),
    lastAttemptAt: num(r.last_attempt_at),
    flowId: str(r.flow_id),
    flowStatus: str(r.flow_status),
    error: str(r.error),
    finishedAt: num(r.finished_at),
    approversWorkspace: r.approvers_workspace_id
      ? { id: String(r.approvers_workspace_id), name: str(r.approvers_workspace_name) }
      : null,
    approversStrictest:
      r.approvers_strictest !== null &&
      r.approvers_strictest !== undefined &&
      Number(r.approvers_strictest) === 1,
    modelDoubt: r.model_doubt === 'unseen' || r.model_doubt === 'no-workspace' ? r.model_doubt : null,
  };
}

export function toAudit(r: Row): AuditEntry {
  return {
    id: Number(r.id),
    at: Number(r.at),
    userId: String(r.user_id),
    teamId: str(r.team_id),
    channelId: str(r.channel_id),
    operation: String(r.operation),
    params: JSON.parse(String(r.params)) as Record<string, unknown>,
    outcome: r.outcome as AuditOutcome,
    flowId: str(r.flow_id),
    flowStatus: str(r.flow_status),
    error: str(r.error),
    requestId: str(r.request_id),
  };
}

export function toChannelDefaults(r: Row): StoredChannelDefaults {
  const out: StoredChannelDefaults = {
    channelId: String(r.channel_id),
    updatedBy: String(r.updated_by),
    updatedAt: Number(r.updated_at),
  };
  for (const k of ['workspace', 'datastream', 'model', 'assessment'] as const) {
    const v = str(r[k]);
    if (v !== null) out[k] = v;
  }
  if (r.entities !== null && r.entities !== undefined)
    out.entities = JSON.parse(String(r.entities)) as string[];
  if (r.shifts !== null && r.shifts !== undefined)
    out.shifts = JSON.parse(String(r.shifts)) as NonNullable<StoredChannelDefaults['shifts']>;
  return out;
}

export const AUDIT_LIMIT_MAX = 1000;

export function clampLimit(limit: number | undefined, fallback: number): number {
  if (limit === undefined || !Number.isFinite(limit)) return fallback;
  return Math.max(1, Math.min(AUDIT_LIMIT_MAX, Math.floor(limit)));
}

/** Values for the merged channel-defaults row: explicit keys win, undefined keeps the stored value. */
export function mergeDefaults(
  current: StoredChannelDefaults | null,
  values: Partial<StoredChannelDefaults>,
): Record<'workspace' | 'datastream' | 'model' | 'assessment' | 'entities' | 'shifts', string | null> {
  const pick = (k: 'workspace' | 'datastream' | 'model' | 'assessment') => values[k] ?? current?.[k] ?? null;
  const entities = values.entities ?? current?.entities;
  const shifts = values.shifts ?? current?.shifts;
  return {
    workspace: pick('workspace'),
    datastream: pick('datastream'),
    model: pick('model'),
    assessment: pick('assessment'),
    entities: entities === undefined ? null : JSON.stringify(entities),
    shifts: shifts === undefined ? null : JSON.stringify(shifts),
  };
}

const json = <T>(v: unknown): T | null =>
  v === null || v === undefined ? null : (JSON.parse(String(v)) as T);

export function toTrackedFlow(r: Row): TrackedFlow {
  return {
    flowId: String(r.flow_id),
    flowType: String(r.flow_type),
    // Kept as '' when the flow has no team (the key's column cannot be null).
    teamId: str(r.team_id) || null,
    channelId: String(r.channel_id),
    requesterId: String(r.requester_id),
    origin: r.origin as FlowOrigin,
    asked: String(r.asked),
    request: json<Record<string, unknown>>(r.request) ?? {},
    approvalId: str(r.approval_id),
    announcement: json<FlowAnnouncement>(r.announcement),
    status: String(r.status),
    statusChangedAt: Number(r.status_changed_at),
    shownStatus: str(r.shown_status),
    showNotBefore: num(r.show_not_before),
    createdAt: Number(r.created_at),
    polls: Number(r.polls),
    nextPollAt: Number(r.next_poll_at),
    leaseOwner: str(r.lease_owner),
    leaseUntil: num(r.lease_until),
    finishedAt: num(r.finished_at),
    endReason: str(r.end_reason) as FlowEndReason | null,
    result: json<Record<string, unknown>>(r.result),
    failure: str(r.failure),
    notifiedAt: num(r.notified_at),
    traceParent: str(r.trace_parent),
  };
}

/** The columns a patch sets, in a fixed order, with their values as stored (JSON for objects). */
export function trackedFlowColumns(patch: TrackedFlowPatch): [string, unknown][] {
  const out: [string, unknown][] = [];
  const set = (column: string, value: unknown) => {
    if (value !== undefined) out.push([column, value]);
  };
  set('status', patch.status);
  set('status_changed_at', patch.statusChangedAt);
  set('shown_status', patch.shownStatus);
  set('show_not_before', patch.showNotBefore);
  set('announcement', patch.announcement === undefined ? undefined : jsonOrNull(patch.announcement));
  set('polls', patch.polls);
  set('next_poll_at', patch.nextPollAt);
  set('finished_at', patch.finishedAt);
  set('end_reason', patch.endReason);
  set('result', patch.result === undefined ? undefined : jsonOrNull(patch.result));
  set('failure', patch.failure);
  set('notified_at', patch.notifiedAt);
  if (patch.release) {
    out.push(['lease_owner', null], ['lease_until', null]);
  } else set('lease_until', patch.leaseUntil);
  return out;
}

export function toHeldFollowUp(r: Row): HeldFollowUp {
  return {
    id: String(r.id),
    notice: JSON.parse(String(r.notice)) as Record<string, unknown>,
    heldAt: Number(r.held_at),
  };
}

const jsonOrNull = (v: unknown) => (v === null ? null : JSON.stringify(v));
