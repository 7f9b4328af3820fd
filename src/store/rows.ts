import type {
  ApprovalAction,
  ApprovalRequest,
  ApprovalStatus,
  AuditEntry,
  AuditOutcome,
  StoredChannelDefaults,
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
): Record<'workspace' | 'datastream' | 'model' | 'assessment' | 'entities', string | null> {
  const pick = (k: 'workspace' | 'datastream' | 'model' | 'assessment') => values[k] ?? current?.[k] ?? null;
  const entities = values.entities ?? current?.entities;
  return {
    workspace: pick('workspace'),
    datastream: pick('datastream'),
    model: pick('model'),
    assessment: pick('assessment'),
    entities: entities === undefined ? null : JSON.stringify(entities),
  };
}
