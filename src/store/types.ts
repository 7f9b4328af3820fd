import type { WriteHealth } from './health.js';
import type { ScheduleStore } from './schedules.js';
import type { StepExecutionStore } from './step-types.js';
import type { SealedSecret, TenantSecretStore } from './tenant-types.js';

export type * from './step-types.js';
export type * from './tenant-types.js';
/** Live-model actions that need an approval. */
export type ApprovalAction = 'start' | 'stop';

/**
 * pending -> executing (approved, flow being created) -> executed | failed | refused | unknown
 * pending -> rejected | expired;  failed -> executing (Retry by an approver). `refused`: the service
 * turned the flow down (a 4xx) for a cause a retry would meet again, so it is final too.
 * `unknown` (outcome unknown) is final: it is never retried automatically.
 */
export type ApprovalStatus =
  | 'pending'
  | 'executing'
  | 'executed'
  | 'failed'
  | 'refused'
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
  /** The thread it was asked in, within that channel (a mention in a thread): where its requester hears back. */
  originThreadTs?: string;
  /** Channel where the request message is posted. */
  approvalsChannelId: string;
  createdAt: number;
  expiresAt: number;
  /** The service workspace whose approvers decide it; absent: the bot's approvers. */
  approversWorkspace?: { id: string; name?: string };
  /** What the bot could not vouch for in the model (see `ModelDoubt`); absent: the service said its workspace. */
  modelDoubt?: ModelDoubt;
  /** Decided by the strictest rule that could apply: the model's workspace is unknown and workspaces have approvers. */
  approversStrictest?: boolean;
}

/**
 * What the bot could not vouch for in a request's model when it was filed: `unseen`, no lookup, flow or
 * catalog read ever named it; `no-workspace`, seen, but the service never said which workspace holds it.
 */
export type ModelDoubt = 'unseen' | 'no-workspace';

export interface ApprovalRequest {
  id: string;
  action: ApprovalAction;
  modelId: string;
  assessmentId: string | null;
  reason: string | null;
  requesterId: string;
  teamId: string | null;
  originChannelId: string;
  /** The thread it was asked in (a mention in a thread); null: asked outside a thread. */
  originThreadTs: string | null;
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
  /** The service workspace whose approvers decide it (its name when filed); null: the bot's approvers. */
  approversWorkspace: { id: string; name: string | null } | null;
  /** What the bot could not vouch for in the model when the request was filed; null: nothing. */
  modelDoubt: ModelDoubt | null;
  /** Decided by the strictest rule that could apply: only someone every approvers' rule allows. */
  approversStrictest: boolean;
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
  | { status: 'failed' | 'refused'; error: string }
  | { status: 'unknown'; error: string };

export interface ApprovalQuery {
  statuses?: ApprovalStatus[];
  /** Only requests filed in this Slack team. */
  teamId?: string;
  /** Only requests filed by this user. */
  requesterId?: string;
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

/** What an entry written before its service call says once the service answered. */
export interface AuditResult {
  outcome: AuditOutcome;
  flowId?: string;
  flowStatus?: string;
  error?: string;
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
  /** Only entries of this Slack team (a tenant), and those recorded before teams were. */
  teamId?: string;
  /** Only operations starting with one of these prefixes. */
  operationPrefixes?: string[];
}

export interface UserChannelsQuery {
  teamId: string;
  userId: string;
  /** Entries at or after (ms). */
  since?: number;
  limit?: number;
}

/** A channel someone acted in, as the audit log saw it. */
export interface UserChannel {
  channelId: string;
  /** Their latest audited action there (ms). */
  lastAt: number;
}

export interface ChannelDefaults {
  workspace?: string;
  datastream?: string;
  model?: string;
  assessment?: string;
  entities?: string[];
  /** The channel's shifts by start ("06:00", 24-hour), each with its name if it has one. */
  shifts?: { start: string; name?: string }[];
}

export interface StoredChannelDefaults extends ChannelDefaults {
  channelId: string;
  updatedBy: string;
  updatedAt: number;
}

/**
 * The kind of service resource a catalog entry is (`workspace`, `model`, …): a lower-case word, as core
 * declares its kinds of resource (the store keeps any; `CATALOG_KIND` says which words it takes).
 */
export type CatalogKind = string;

/** What a catalog kind may be: a lower-case word of letters, digits and dashes, at most 40 characters. */
export const CATALOG_KIND = /^[a-z][a-z0-9-]{0,39}$/;

/**
 * Where a catalog fact came from, most trusted first: `service` (a service reply named it), `flow` (a
 * finished flow produced it), `command` (a user typed it in a command the service accepted).
 */
export type CatalogSource = 'service' | 'flow' | 'command';

/** Links between resources: a model's workspace and assessment, a dataspec's model. */
export interface CatalogLinks {
  workspace?: string;
  assessment?: string;
  model?: string;
}

export interface CatalogUpsert {
  kind: CatalogKind;
  id: string;
  /** Omitted or empty: the name stays as stored (a known name is never erased). */
  name?: string;
  source: CatalogSource;
  links?: CatalogLinks;
}

export interface CatalogEntry {
  teamId: string;
  kind: CatalogKind;
  id: string;
  name: string | null;
  /** Where the name came from. */
  nameSource: CatalogSource | null;
  /** The most trusted source that has seen this ID. */
  source: CatalogSource;
  workspaceId: string | null;
  assessmentId: string | null;
  modelId: string | null;
  /** Epoch milliseconds. */
  firstSeenAt: number;
  lastUsedAt: number;
  /** Set when the service said the ID does not exist; such entries are never offered. */
  missingAt: number | null;
}

export interface CatalogQuery {
  teamId: string;
  kind: CatalogKind;
  /**
   * Typed text, matched case-insensitively (whitespace collapsed) as a substring of the name or the ID.
   * Empty or omitted: every entry.
   */
  text?: string;
  /** IDs ranked first when they match (e.g. the channel's defaults), in this order. */
  prefer?: readonly string[];
  /** Only entries with exactly these links. */
  links?: CatalogLinks;
  /** Default and maximum 100. */
  limit?: number;
}

/**
 * A follow-up a process has in hand for somebody (a command's reply, a form's flow, a click's decision),
 * held with a lease its process renews: if the process dies, the lease runs out and another replica tells
 * that person what became of it is unknown.
 */
export interface HeldFollowUp {
  id: string;
  /** Whom to tell and what to call the follow-up (JSON-safe; a response_url in it is never logged). */
  notice: Record<string, unknown>;
  heldAt: number;
}

/** The store's side of follow-ups in hand; see `Store`. */
export interface FollowUpHoldStore {
  /** Records follow-ups `owner` took in hand, held until `leaseUntil` unless renewed; a known ID is kept. */
  holdFollowUps(owner: string, leaseUntil: number, followUps: readonly HeldFollowUp[]): Promise<void>;
  /** Extends every hold of `owner` to `leaseUntil`; returns how many. */
  renewFollowUps(owner: string, leaseUntil: number): Promise<number>;
  /** Forgets these holds of `owner` (finished, or told otherwise), or all of them; returns how many. */
  releaseFollowUps(owner: string, ids?: readonly string[]): Promise<number>;
  /**
   * Takes (removes and returns, oldest first) up to `limit` holds whose lease ran out before `now`: their
   * process died with them in hand. Replicas taking at once never get the same hold.
   */
  takeAbandonedFollowUps(now: number, limit: number): Promise<HeldFollowUp[]>;
}

export interface OperatorFigures {
  flows: { status: string; count: number }[];
  approvalsPending: number;
}

export interface Store
  extends FlowTrackingStore,
    FollowUpHoldStore,
    PersonTokenStore,
    ScheduleStore,
    StepExecutionStore,
    TenantSecretStore {
  readonly kind: 'sqlite' | 'postgres';

  /** Followed flows by status and pending approval requests, for the metrics every replica reports alike. */
  operatorFigures(): Promise<OperatorFigures>;

  createApproval(input: NewApprovalRequest): Promise<ApprovalRequest>;
  getApproval(id: string): Promise<ApprovalRequest | null>;
  listApprovals(query?: ApprovalQuery): Promise<ApprovalRequest[]>;
  setApprovalMessage(id: string, channelId: string, messageTs: string): Promise<void>;
  /** Atomic: only a pending, unexpired request moves (approve -> executing, reject -> rejected). */
  decideApproval(input: DecideInput): Promise<TransitionResult>;
  /** Atomic: failed -> executing, for a Retry click. */
  claimRetry(id: string, by: string, at: number): Promise<TransitionResult>;
  /**
   * Atomic: executing -> executed | failed | unknown. Also from unknown: no click leaves that state, so the
   * only result that can still arrive is that of the execution a recovery marked unknown while it was in
   * flight (its process was slow, not dead), and what it learnt is better than "unknown".
   */
  recordExecution(id: string, outcome: ExecutionOutcome, at: number): Promise<TransitionResult>;
  /** pending requests whose expiry is at or before `now` -> expired; returns the ones this call expired. */
  expireDue(now: number): Promise<ApprovalRequest[]>;
  /**
   * executing requests claimed at or before `claimedBefore` (their process died mid-execution) -> unknown;
   * returns the ones this call marked, so that replicas sweeping at once each report different ones.
   */
  markInterrupted(claimedBefore: number, at: number): Promise<ApprovalRequest[]>;
  /**
   * Deletes up to `limit` requests that finished (executed, failed, outcome unknown, rejected, expired)
   * before `before`; a pending or executing request is never deleted. Returns how many.
   */
  pruneApprovals(before: number, limit: number): Promise<number>;

  appendAudit(entry: NewAuditEntry): Promise<AuditEntry>;
  /** Sets the result of entry `id`; writing the same result again changes nothing. */
  completeAudit(id: number, result: AuditResult): Promise<void>;
  /** Newest first. */
  listAudit(query?: AuditQuery): Promise<AuditEntry[]>;
  /** Deletes up to `limit` audit entries recorded before `before`, oldest first; returns how many. */
  pruneAudit(before: number, limit: number): Promise<number>;
  /**
   * The channels where a user of a team did something the audit log records (a change, a flow, an
   * approval request or decision, a refusal), most recently used first.
   */
  listUserChannels(query: UserChannelsQuery): Promise<UserChannel[]>;

  getChannelDefaults(channelId: string): Promise<StoredChannelDefaults | null>;
  /** Merges `values` into the stored defaults; `undefined` keys keep their value. */
  setChannelDefaults(
    channelId: string,
    values: ChannelDefaults,
    by: string,
    at: number,
  ): Promise<StoredChannelDefaults>;
  clearChannelDefaults(channelId: string): Promise<boolean>;

  /**
   * Records resources seen together at `at` (all of them "used" then). Per entry: a name replaces the
   * stored one only if its source is at least as trusted (and, when equally trusted, not older); a link
   * replaces a stored one only if its source is at least as trusted as the entry's; an absent name or
   * link never erases one. An entry the service said is missing comes back only from a `service` or
   * `flow` source. Atomic per entry; safe when replicas record the same entries at once.
   */
  upsertCatalog(teamId: string, entries: readonly CatalogUpsert[], at: number): Promise<void>;
  /** The entry, also when marked missing (see `missingAt`); null when never seen. */
  getCatalogEntry(teamId: string, kind: CatalogKind, id: string): Promise<CatalogEntry | null>;
  /**
   * Entries that match `text`, best first: preferred IDs (in the given order), then exact name or ID,
   * then name or ID prefix, then substring; within each, most recently used first, then by ID.
   * Missing entries are left out.
   */
  searchCatalog(query: CatalogQuery): Promise<CatalogEntry[]>;
  /**
   * Entries whose name equals `name` case-insensitively with whitespace collapsed, most recently used
   * first; missing entries left out.
   */
  findCatalogByName(
    teamId: string,
    kind: CatalogKind,
    name: string,
    options?: { links?: CatalogLinks; limit?: number },
  ): Promise<CatalogEntry[]>;
  /**
   * The service said the ID does not exist: the entry is hidden from search and name lookup and is not
   * brought back by commands (a tombstone is kept, also for an ID never seen). True if a live entry was
   * hidden.
   */
  forgetCatalogEntry(teamId: string, kind: CatalogKind, id: string, at: number): Promise<boolean>;
  /** Deletes entries (tombstones included) last used before `before`; returns how many. */
  pruneCatalog(before: number): Promise<number>;

  /** Small JSON key/value state that must survive restarts. */
  getState<T = unknown>(key: string): Promise<T | null>;
  setState(key: string, value: unknown, at: number): Promise<void>;

  /**
   * Marks a Slack request as seen until `expiresAt`: true the first time (or once an earlier mark has
   * expired by `now`), false while another mark stands, whichever replica made it.
   */
  markRequestSeen(key: string, now: number, expiresAt: number): Promise<boolean>;
  /** `markRequestSeen` for distinct keys at once: the keys marked now (the others stand marked). */
  markRequestsSeen(keys: readonly string[], now: number, expiresAt: number): Promise<Set<string>>;
  /** The keys of `keys` (distinct) whose mark stands at `now`; marks nothing. */
  requestsSeen(keys: readonly string[], now: number): Promise<Set<string>>;
  /** Up to `limit` of the marks standing at `now`, latest expiry first: each key with its expiry. */
  standingRequestMarks(now: number, limit: number): Promise<Map<string, number>>;
  /** Forgets the marks expired by `now`, and the form submissions' keys expired by then. */
  pruneRequestsSeen(now: number): Promise<void>;

  /**
   * Claims a form submission's key until `expiresAt`: true the first time (or once an earlier claim has
   * expired by `now`), false while another claim stands, whichever replica made it. One atomic upsert.
   */
  claimSubmission(key: string, now: number, expiresAt: number): Promise<boolean>;
  /** Keeps what the submission claimed under `key` came to, for the same form sent again. */
  recordSubmissionOutcome(key: string, outcome: unknown): Promise<void>;
  /** What the submission claimed under `key` came to; null while it runs (or when the key is unknown). */
  submissionOutcome<T = unknown>(key: string): Promise<T | null>;

  /** Versions of the migrations applied, ascending. */
  appliedMigrations(): Promise<number[]>;
  /** Whether the last write through this handle went through (the engines report every write's end). */
  readonly writeHealth: WriteHealth;
  /** Calls `listener` whenever writes through this handle start failing or work again. */
  watchWrites(listener: (health: WriteHealth) => void): () => void;
  close(): Promise<void>;
}

/**
 * Where a flow was started from: what can reopen it, and how its end is told. `mention`: the bot mentioned
 * in a channel or a thread; `direct-message`: typed in the bot's Messages tab.
 */
export type FlowOrigin =
  | 'command'
  | 'form'
  | 'approval'
  | 'workflow'
  | 'mention'
  | 'direct-message'
  | 'assistant';

/**
 * Where a flow's announcement is, so that it can be updated in place: a message the bot posted (`ts`,
 * and `threadTs` when it is a reply in a thread, where its end is told too), or, when the bot could not
 * post in the channel, the response_url that did (5 uses within 30 minutes); `none` when nothing took it
 * (the person was told privately, and its end goes by direct message).
 */
export type FlowAnnouncement =
  | { kind: 'message'; channelId: string; ts: string; threadTs?: string }
  | { kind: 'response-url'; url: string; issuedAt: number; uses: number }
  | { kind: 'none' };

export interface NewTrackedFlow {
  flowId: string;
  /** As the service names it: ANOMALYLEARN, EVAL, … */
  flowType: string;
  teamId?: string;
  /** The channel the flow was started from. */
  channelId: string;
  requesterId: string;
  origin: FlowOrigin;
  /** What was asked, as the person would recognise it (the command as typed, or the form as a command). */
  asked: string;
  /** The operation as sent (JSON-safe), for describing the results. */
  request: Record<string, unknown>;
  /** The approval request a live start/stop came from. */
  approvalId?: string;
  status: string;
  createdAt: number;
  nextPollAt: number;
  /** The trace of the request that created it (W3C `traceparent`), when tracing was on. */
  traceParent?: string;
}

/** Why the bot stopped following a flow. */
export type FlowEndReason = 'ended' | 'max-age' | 'unauthorized' | 'unsupported' | 'not-found';

export interface TrackedFlow {
  flowId: string;
  flowType: string;
  teamId: string | null;
  channelId: string;
  requesterId: string;
  origin: FlowOrigin;
  asked: string;
  request: Record<string, unknown>;
  approvalId: string | null;
  announcement: FlowAnnouncement | null;
  /** The status as the service last wrote it. */
  status: string;
  statusChangedAt: number;
  /** The status the announcement shows now. */
  shownStatus: string | null;
  /** No update of the announcement before this (a Slack 429's Retry-After), ms. */
  showNotBefore: number | null;
  createdAt: number;
  polls: number;
  nextPollAt: number;
  leaseOwner: string | null;
  leaseUntil: number | null;
  finishedAt: number | null;
  endReason: FlowEndReason | null;
  /** What the flow produced, as the service reported it (models, dataspecs, Eval objects, …). */
  result: Record<string, unknown> | null;
  /** The service's reason for a FAILED flow. */
  failure: string | null;
  /** When the one completion notice was sent. */
  notifiedAt: number | null;
  /** The trace of the request that created it (W3C `traceparent`); null when tracing was off. */
  traceParent: string | null;
}

/** What a poll changes; only the holder of the lease may write it. */
export interface TrackedFlowPatch {
  status?: string;
  statusChangedAt?: number;
  shownStatus?: string | null;
  showNotBefore?: number | null;
  announcement?: FlowAnnouncement | null;
  polls?: number;
  nextPollAt?: number;
  finishedAt?: number | null;
  endReason?: FlowEndReason | null;
  result?: Record<string, unknown> | null;
  failure?: string | null;
  notifiedAt?: number | null;
  /** Hold the lease until then (ms): before something is shown or told, the holder makes sure it still has time. */
  leaseUntil?: number;
  /** Give the lease back with the write. */
  release?: boolean;
}

export interface TrackedFlowQuery {
  teamId?: string;
  /** Only the records of this flow ID, whichever tenants keep one. */
  flowId?: string;
  channelId?: string;
  requesterId?: string;
  /** Of these flow types only. */
  flowTypes?: readonly string[];
  /** Created at or after (ms). */
  since?: number;
  limit?: number;
}

/**
 * What a followed flow is kept by: its tenant (the team it was started in; absent or null for a flow kept
 * without one) and the service's flow ID. Two tenants' services may hand out the same ID: each is a
 * record of its own, read only by its tenant. A `TrackedFlow` is its own key.
 */
export interface FlowKey {
  teamId?: string | null;
  flowId: string;
}

/** The store's side of following flows; see `Store`. */
export interface FlowTrackingStore {
  /** Records a flow to follow; a flow its tenant already tracks is left as it is. */
  trackFlow(flow: NewTrackedFlow): Promise<TrackedFlow>;
  getTrackedFlow(key: FlowKey): Promise<TrackedFlow | null>;
  /** Where the flow was announced (set by whoever announced it, once). */
  setFlowAnnouncement(key: FlowKey, announcement: FlowAnnouncement): Promise<TrackedFlow | null>;
  /**
   * Leases up to `limit` unfinished flows that are due and not leased by anyone else (or whose lease has
   * run out), to `owner` until `now + leaseMs`. Replicas sharing the database never get the same flow.
   */
  claimDueFlows(o: { owner: string; now: number; leaseMs: number; limit: number }): Promise<TrackedFlow[]>;
  /** Applies a poll's outcome, only while `owner` still holds the lease; null when it does not. */
  updateTrackedFlow(key: FlowKey, owner: string, patch: TrackedFlowPatch): Promise<TrackedFlow | null>;
  /** Gives back every lease `owner` holds (shutdown); returns how many. */
  releaseFlowLeases(owner: string): Promise<number>;
  /** Newest first. */
  listTrackedFlows(query?: TrackedFlowQuery): Promise<TrackedFlow[]>;
  /**
   * Deletes up to `limit` flows the bot stopped following (end told) before `before`; a flow still
   * followed is never deleted. Returns how many.
   */
  pruneTrackedFlows(before: number, limit: number): Promise<number>;
}

export interface PersonToken {
  teamId: string;
  userId: string;
  sealed: SealedSecret;
  accountId: string;
  /** The service URL the token was checked against, where alone it is sent; null on rows kept before. */
  serviceUrl?: string | null;
  role: string | null;
  serviceUser: string | null;
  /** ms */
  connectedAt: number;
  /** Which write of this person's token this is (inside the ciphertext's authenticated data); 0: from before versions. */
  version: number;
}

/** A row as read: with the person's mark, the version of the last write or delete, which only grows. */
export interface StoredPersonToken extends PersonToken {
  /** A row whose `version` is below it was put back from an older copy. */
  latestVersion: number;
}

/** The store's side of each person's own service token; see `Store`. */
export interface PersonTokenStore {
  getPersonToken(teamId: string, userId: string): Promise<StoredPersonToken | null>;
  /** The person's mark: the version of their last token write or delete (0 when none). */
  latestPersonTokenVersion(teamId: string, userId: string): Promise<number>;
  /**
   * Keeps the person's token, replacing the one they had, and moves their mark to its version: only when
   * that version is above the mark (false: another write took it first).
   */
  savePersonToken(token: PersonToken): Promise<boolean>;
  /** Deletes it and moves the mark past it; true when there was one. */
  deletePersonToken(teamId: string, userId: string): Promise<boolean>;
  /**
   * Deletes the tokens of everyone of a team (the app was removed from it), each person's mark moved past
   * their row; returns how many there were.
   */
  deleteTeamPersonTokens(teamId: string): Promise<number>;
  /** The rows of everyone of a team who connected a token (their ciphertexts stay sealed), by user. */
  listTeamPersonTokens(teamId: string): Promise<StoredPersonToken[]>;
  /**
   * Puts the same token under another key or binding, as `version`: only while the row is still at
   * `fromVersion` (a reconnection in between wins). True when it was replaced.
   */
  resealPersonToken(
    o: { teamId: string; userId: string; fromVersion: number; version: number },
    sealed: SealedSecret,
  ): Promise<boolean>;
}
