/** Live-model actions that need an approval. */
export type ApprovalAction = 'start' | 'stop';

/**
 * pending -> executing (approved, flow being created) -> executed | failed | unknown
 * pending -> rejected | expired;  failed -> executing (Retry by an approver).
 * `unknown` (outcome unknown) is final: it is never retried automatically.
 */
export type ApprovalStatus =
  | 'pending'
  | 'executing'
  | 'executed'
  | 'failed'
  | 'unknown'
  | 'rejected'
  | 'expired';

export interface NewApprovalRequest {
  action: ApprovalAction;
  modelId: string;
  assessmentId?: string;
  reason?: string;
  requesterId: string;
  teamId?: string;
  /** Channel where the command ran. */
  originChannelId: string;
  /** Channel where the request message is posted. */
  approvalsChannelId: string;
  createdAt: number;
  expiresAt: number;
}

export interface ApprovalRequest {
  id: string;
  action: ApprovalAction;
  modelId: string;
  assessmentId: string | null;
  reason: string | null;
  requesterId: string;
  teamId: string | null;
  originChannelId: string;
  approvalsChannelId: string;
  /** Slack `ts` of the request message, once posted. */
  messageTs: string | null;
  status: ApprovalStatus;
  /** Epoch milliseconds. */
  createdAt: number;
  expiresAt: number;
  /** Who approved/rejected, and when (ms); set by the winning decision only. */
  decidedBy: string | null;
  decidedAt: number | null;
  rejectReason: string | null;
  /** How many times execution was claimed (1 after approval, +1 per retry). */
  attempts: number;
  lastAttemptBy: string | null;
  lastAttemptAt: number | null;
  flowId: string | null;
  flowStatus: string | null;
  error: string | null;
  finishedAt: number | null;
}

export type Decision = 'approve' | 'reject';

export interface DecideInput {
  id: string;
  decision: Decision;
  by: string;
  at: number;
  reason?: string;
}

/** `ok: false` carries the row as it is now: who won and when, or that it expired. */
export type TransitionResult =
  | { ok: true; request: ApprovalRequest }
  /** `expiredNow`: this very call found the request past its expiry and marked it expired. */
  | { ok: false; current: ApprovalRequest | null; expiredNow?: boolean };

export type ExecutionOutcome =
  | { status: 'executed'; flowId: string; flowStatus?: string }
  | { status: 'failed'; error: string }
  | { status: 'unknown'; error: string };

export interface ApprovalQuery {
  statuses?: ApprovalStatus[];
  limit?: number;
}

export type AuditOutcome = 'ok' | 'error' | 'refused' | 'unknown';

export interface NewAuditEntry {
  at: number;
  userId: string;
  teamId?: string;
  channelId?: string;
  /** e.g. `workspace.create`, `flow.STARTLIVEMODEL`, `approval.approve`, `policy.refused`. */
  operation: string;
  /** Parameters as sent (never tokens). */
  params?: Record<string, unknown>;
  outcome: AuditOutcome;
  flowId?: string;
  flowStatus?: string;
  error?: string;
  requestId?: string;
}

export interface AuditEntry {
  id: number;
  at: number;
  userId: string;
  teamId: string | null;
  channelId: string | null;
  operation: string;
  params: Record<string, unknown>;
  outcome: AuditOutcome;
  flowId: string | null;
  flowStatus: string | null;
  error: string | null;
  requestId: string | null;
}

export interface AuditQuery {
  limit?: number;
  channelId?: string;
  /** Only operations starting with one of these prefixes. */
  operationPrefixes?: string[];
}

export interface ChannelDefaults {
  workspace?: string;
  datastream?: string;
  model?: string;
  assessment?: string;
  entities?: string[];
}

export interface StoredChannelDefaults extends ChannelDefaults {
  channelId: string;
  updatedBy: string;
  updatedAt: number;
}

export interface Store {
  readonly kind: 'sqlite' | 'postgres';

  createApproval(input: NewApprovalRequest): Promise<ApprovalRequest>;
  getApproval(id: string): Promise<ApprovalRequest | null>;
  listApprovals(query?: ApprovalQuery): Promise<ApprovalRequest[]>;
  setApprovalMessage(id: string, channelId: string, messageTs: string): Promise<void>;
  /** Atomic: only a pending, unexpired request moves (approve -> executing, reject -> rejected). */
  decideApproval(input: DecideInput): Promise<TransitionResult>;
  /** Atomic: failed -> executing, for a Retry click. */
  claimRetry(id: string, by: string, at: number): Promise<TransitionResult>;
  /** Atomic: executing -> executed | failed | unknown. */
  recordExecution(id: string, outcome: ExecutionOutcome, at: number): Promise<TransitionResult>;
  /** pending requests whose expiry is at or before `now` -> expired; returns the ones this call expired. */
  expireDue(now: number): Promise<ApprovalRequest[]>;
  /** executing requests claimed at or before `claimedBefore` (a crash mid-execution) -> unknown. */
  markInterrupted(claimedBefore: number, at: number): Promise<ApprovalRequest[]>;

  appendAudit(entry: NewAuditEntry): Promise<AuditEntry>;
  /** Newest first. */
  listAudit(query?: AuditQuery): Promise<AuditEntry[]>;

  getChannelDefaults(channelId: string): Promise<StoredChannelDefaults | null>;
  /** Merges `values` into the stored defaults; `undefined` keys keep their value. */
  setChannelDefaults(
    channelId: string,
    values: ChannelDefaults,
    by: string,
    at: number,
  ): Promise<StoredChannelDefaults>;
  clearChannelDefaults(channelId: string): Promise<boolean>;

  /** Small JSON key/value state that must survive restarts. */
  getState<T = unknown>(key: string): Promise<T | null>;
  setState(key: string, value: unknown, at: number): Promise<void>;

  /** Versions of the migrations applied, ascending. */
  appliedMigrations(): Promise<number[]>;
  close(): Promise<void>;
}
