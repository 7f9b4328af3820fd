import { ServiceError } from '../../api/errors.js';
import type {
  ApprovalAction,
  ApprovalRequest,
  AuditEntry,
  ExecutionOutcome,
  NewAuditEntry,
  Store,
} from '../../store/index.js';
import { type Now, nowMs } from '../clock.js';
import { recordSurely } from '../durable.js';
import { EXAMPLE_IDS } from '../ids.js';
import { personName } from '../names.js';
import type { ExpandGroup } from '../principals.js';
import { withinTeam } from '../read-scope.js';
import { serviceFailure } from '../service-errors.js';
import { ApproverRule, type RuleOf } from './approver-rule.js';
import { liveRequestRefusal, type ModelSeen } from './live-prechecks.js';
import { type DecisionOutcome, lost, type Refusal } from './rules.js';

export type { DecisionOutcome };

export const DEFAULT_APPROVAL_TTL_MS = 4 * 60 * 60 * 1000;
/**
 * An execution claimed longer ago than this was cut off: its process died between the click and recording
 * the flow (default of TSAI_APPROVAL_INTERRUPTED_AFTER).
 */
export const INTERRUPTED_AFTER_MS = 5 * 60 * 1000;
export const MAX_REASON_LENGTH = 500;
/** The audit log's user for what the bot does by itself (expiry, crash recovery). */
export const SYSTEM_USER = 'system';

export interface ApprovalsConfig {
  /** Slack user IDs (U…/W…) and user-group IDs (S…) allowed to decide: the bot's approvers. */
  approvers: readonly string[];
  /** Approvers of the requests acting on a service workspace, by its ID, instead of `approvers`. */
  byWorkspace?: Readonly<Record<string, readonly string[]>>;
  /** Let a requester approve their own request; off by default. */
  allowSelfApproval?: boolean;
  ttlMs?: number;
  /** How long an expanded user group stays cached; default 60 s. */
  groupCacheMs?: number;
  /** An execution still unrecorded this long after its click was cut off; default 5 minutes. */
  interruptedAfterMs?: number;
}

/** What an approved request's flow creation came to, as the operation runner reports it. */
export type LiveFlowResult =
  | { ok: true; flowId: string; flowStatus?: string }
  /** `outcomeUnknown`: the service may have created the flow; never retried automatically. */
  | {
      ok: false;
      outcomeUnknown: boolean;
      message: string;
      /** false: the service turned it down (4xx); the same flow would be turned down again. */
      retryable?: boolean;
    };

/** A decision as the workflow takes it: told, or won and waiting for the runner to create its flow. */
export type DecisionStep = DecisionOutcome | { kind: 'approved'; request: ApprovalRequest };

/** Requests the bot decided by itself (expired, or cut off mid-execution), and their audit entries. */
export interface SelfDecided {
  requests: ApprovalRequest[];
  audit: NewAuditEntry[];
}

/** A decision taken, and the audit entries it makes for the runner to write. */
export interface Decided {
  step: DecisionStep;
  audit: NewAuditEntry[];
}

export interface ApprovalsDeps {
  store: Store;
  /** M[0] of an assessment, for requests filed by assessment (whether it is live and its workspace, when the service says). */
  findCommonModel(assessmentId: string): Promise<ModelSeen | null>;
  config: ApprovalsConfig;
  expandGroup: ExpandGroup;
  now?: Now;
  /** Flow name for the STARTLIVEMODEL/STOPLIVEMODEL flow. */
  flowName?: (request: ApprovalRequest, people: FlowPeople, atMs: number) => string;
  onGroupError?: (groupId: string, err: unknown) => void;
}

export interface FileRequestInput {
  action: ApprovalAction | string;
  modelId?: string;
  assessmentId?: string;
  reason?: string;
  requesterId: string;
  teamId?: string;
  /** Channel where the command ran. */
  channelId: string;
  /** The thread within it that asked (a mention in a thread), where the requester hears back. */
  threadTs?: string;
  /** Where the request is posted (TSAI_APPROVALS_CHANNEL); default: `channelId`. */
  approvalsChannelId?: string;
  /** Looks up an assessment's common model with the requester's identity; default: the workflow's own. */
  findCommonModel?: (assessmentId: string) => Promise<{ id: string } | null>;
}

export type FileRequestOutcome =
  | {
      ok: true;
      request: ApprovalRequest;
      modelFrom: 'argument' | 'assessment';
      /** Its audit entry, for the runner to write. */
      audit: NewAuditEntry;
    }
  | {
      ok: false;
      /** `pointless`: the model does not exist, or is already in the state asked for. */
      error: 'invalid-input' | 'no-common-model' | 'no-approvers' | 'service-error' | 'pointless';
      message: string;
      example?: string;
    };

export interface DecideInput {
  requestId: string;
  userId: string;
  teamId?: string;
  channelId?: string;
  decision: 'approve' | 'reject';
  reason?: string;
  /** The name the decider goes by, for the name of the flow an approval creates. */
  userName?: string;
  /** Called once this decision has won and before the flow is created (e.g. to take the buttons away). */
  onExecuting?: OnExecuting;
  /** Where the decider clicked (core/gate/surfaces.ts): a card's button (the default), or the Home tab. */
  surface?: 'button' | 'home';
}

/** Whether someone may decide a request now, or what they are told instead. */
export type CheckVerdict = { ok: true; request: ApprovalRequest } | { ok: false; refusal: DecisionOutcome };

/** Errors from this callback are ignored: showing progress must never stop the execution. */
export type OnExecuting = (request: ApprovalRequest) => Promise<void> | void;

export interface RetryInput {
  requestId: string;
  userId: string;
  userName?: string;
  teamId?: string;
  channelId?: string;
  onExecuting?: OnExecuting;
  surface?: 'button' | 'home';
}

const ID_RE = /^\d{1,30}$/;
const EXAMPLE = `/tsai live start ${EXAMPLE_IDS.model} reason="commissioning"`;

export const FLOW_TYPE: Record<ApprovalAction, 'STARTLIVEMODEL' | 'STOPLIVEMODEL'> = {
  start: 'STARTLIVEMODEL',
  stop: 'STOPLIVEMODEL',
};

/** Who asked for a live start or stop and who approved it, by the names people know them by. */
export interface FlowPeople {
  requester?: string;
  approver?: string;
}

/** The name the service shows for an approved flow: what, for whom, by whom, when; never a Slack ID. */
function defaultFlowName(request: ApprovalRequest, people: FlowPeople, atMs: number): string {
  const at = new Date(atMs).toISOString().slice(0, 16).replace('T', ' ');
  const requester = people.requester ? ` requested by ${personName(people.requester)},` : '';
  return `live ${request.action} ${request.modelId}${requester} approved by ${personName(people.approver)} ${at}Z`;
}

/**
 * The Slack-free approval workflow for starting and stopping live models: the state machine in the store.
 * It knows nothing of the operation runner; the runner takes each decision through it and creates an
 * approved request's flow itself.
 */
export class ApprovalWorkflow {
  /** Who decides a live start or stop: shared with the schedules of live starts and stops. */
  readonly approverRule: ApproverRule;

  constructor(private readonly deps: ApprovalsDeps) {
    this.approverRule = new ApproverRule({
      store: deps.store,
      config: deps.config,
      expandGroup: deps.expandGroup,
      ...(deps.now ? { now: deps.now } : {}),
      ...(deps.onGroupError ? { onGroupError: deps.onGroupError } : {}),
    });
  }

  /** The IDs of the approvers who decide this request, for "ask one of …". */
  approverIdsOf(request: RuleOf): {
    users: string[];
    groups: string[];
  } {
    return this.approverRule.approverIdsOf(request);
  }

  get ttlMs(): number {
    return this.deps.config.ttlMs ?? DEFAULT_APPROVAL_TTL_MS;
  }

  /** Configured approver IDs, for "ask one of …" messages. */
  get approverIds(): { users: string[]; groups: string[] } {
    return this.approverRule.botApproverIds;
  }

  isApprover(userId: string): Promise<boolean> {
    return this.approverRule.isBotApprover(userId);
  }

  /** Whether `userId` is one of the approvers who decide this request (the self-approval rule aside). */
  mayDecide(request: ApprovalRequest, userId: string): Promise<boolean> {
    return this.approverRule.mayDecide(request, userId);
  }

  private now(): number {
    return nowMs(this.deps.now);
  }

  /** Validates, resolves M[0] when an assessment is given, and stores a pending request. */
  async fileRequest(input: FileRequestInput): Promise<FileRequestOutcome> {
    const invalid = (message: string): FileRequestOutcome => ({
      ok: false,
      error: 'invalid-input',
      message,
      example: EXAMPLE,
    });
    if (input.action !== 'start' && input.action !== 'stop') {
      return invalid(`"${input.action}" is not a live action: use start or stop.`);
    }
    const modelArg = input.modelId?.trim() || undefined;
    const assessment = input.assessmentId?.trim() || undefined;
    if (!modelArg && !assessment) return invalid('Give a model ID or assessment=<id>.');
    if (modelArg && !ID_RE.test(modelArg)) return invalid(`Model ID "${modelArg}" is not a numeric ID.`);
    if (assessment && !ID_RE.test(assessment)) {
      return invalid(`Assessment ID "${assessment}" is not a numeric ID.`);
    }
    const reason = input.reason?.trim() || undefined;
    if (reason && reason.length > MAX_REASON_LENGTH) {
      return invalid(`The reason is ${reason.length} characters long; keep it under ${MAX_REASON_LENGTH}.`);
    }
    if (!this.approverRule.anyone) {
      return {
        ok: false,
        error: 'no-approvers',
        message: `No approvers are configured (TSAI_APPROVERS), so nobody could approve this request. Nothing was ${input.action === 'start' ? 'started' : 'stopped'}.`,
      };
    }

    let modelId = modelArg;
    let modelFrom: 'argument' | 'assessment' = 'argument';
    let record: ModelSeen | undefined;
    let serviceWorkspace: string | undefined;
    if (assessment) {
      let common: ModelSeen | null;
      try {
        common = await (input.findCommonModel ?? this.deps.findCommonModel)(assessment);
      } catch (err) {
        return { ok: false, error: 'service-error', message: lookupFailure(err, assessment) };
      }
      if (!common) {
        return {
          ok: false,
          error: 'no-common-model',
          message: `Assessment ${assessment} has no common model M[0].`,
          example: EXAMPLE,
        };
      }
      if (modelArg && modelArg !== common.id) {
        return invalid(
          `Model ${modelArg} is not the common model M[0] of assessment ${assessment} (that is ${common.id}).`,
        );
      }
      modelId = common.id;
      serviceWorkspace = common.workspace;
      modelFrom = modelArg ? 'argument' : 'assessment';
      record = common;
    }
    const pointless = await liveRequestRefusal(this.deps, {
      action: input.action,
      modelId: modelId!,
      ...(input.teamId ? { teamId: input.teamId } : {}),
      ...(record ? { record } : {}),
    });
    if (pointless) return { ok: false, error: 'pointless', message: pointless };
    const route = await this.approverRule.route(modelId!, input.teamId, {
      seen: record !== undefined,
      ...(serviceWorkspace ? { serviceWorkspace } : {}),
    });
    const nobody = this.approverRule.nobodyCouldApprove(input.action, modelId!, route);
    if (nobody) return { ok: false, error: 'no-approvers', message: nobody };
    const rule = route.approversWorkspace;
    const doubt = route.modelDoubt;
    const strictest = route.approversStrictest;

    const at = this.now();
    const request = await this.deps.store.createApproval({
      action: input.action,
      modelId: modelId!,
      assessmentId: assessment,
      reason,
      requesterId: input.requesterId,
      teamId: input.teamId,
      originChannelId: input.channelId,
      ...(input.threadTs ? { originThreadTs: input.threadTs } : {}),
      approvalsChannelId: input.approvalsChannelId || input.channelId,
      createdAt: at,
      expiresAt: at + this.ttlMs,
      ...(rule ? { approversWorkspace: { id: rule.id, ...(rule.name ? { name: rule.name } : {}) } } : {}),
      ...(doubt ? { modelDoubt: doubt } : {}),
      ...(strictest ? { approversStrictest: true } : {}),
    });
    const audit: NewAuditEntry = {
      at,
      userId: input.requesterId,
      teamId: input.teamId,
      channelId: input.channelId,
      operation: 'approval.request',
      params: {
        action: request.action,
        model: request.modelId,
        assessment,
        reason,
        ...(rule ? { approversWorkspace: rule.id } : {}),
        ...(doubt ? { modelDoubt: doubt } : {}),
        ...(strictest ? { approversRule: 'strictest' } : {}),
      },
      outcome: 'ok',
      requestId: request.id,
    };
    return { ok: true, request, modelFrom, audit };
  }

  /** Records where the request message was posted, so it can be updated in place later. */
  attachMessage(requestId: string, channelId: string, messageTs: string): Promise<void> {
    return this.deps.store.setApprovalMessage(requestId, channelId, messageTs);
  }

  get(requestId: string): Promise<ApprovalRequest | null> {
    return this.deps.store.getApproval(requestId);
  }

  /**
   * Pending requests that can still be decided, newest first. Due ones are expired on the way, and
   * returned too (with their audit entries), so that whoever asked can update their messages.
   */
  async listPending(
    limit = 50,
  ): Promise<{ pending: ApprovalRequest[]; expired: ApprovalRequest[]; audit: NewAuditEntry[] }> {
    const { requests: expired, audit } = await this.expireDue();
    return {
      pending: await this.deps.store.listApprovals({ statuses: ['pending'], limit }),
      expired,
      audit,
    };
  }

  /**
   * Whether `userId` may decide this request now, without deciding it: the Reject button asks before it
   * opens the reason form. The decision itself is checked again, atomically, when it is made.
   */
  async check(
    requestId: string,
    userId: string,
    decision: 'approve' | 'reject',
    teamId?: string,
  ): Promise<{ verdict: CheckVerdict; audit: NewAuditEntry[] }> {
    const request = await this.ofTeam(requestId, teamId);
    if (!request) return { verdict: { ok: false, refusal: { kind: 'not-found' } }, audit: [] };
    const refused = await this.rule(request, userId, decision === 'approve');
    if (refused) return { verdict: { ok: false, refusal: refused }, audit: [] };
    if (request.status === 'pending' && request.expiresAt <= this.now()) {
      const { requests: expired, audit } = await this.expireDue();
      const current = expired.find((r) => r.id === request.id);
      const refusal: DecisionOutcome = current
        ? { kind: 'expired', request: current, expiredNow: true }
        : lost((await this.deps.store.getApproval(requestId)) ?? request);
      return { verdict: { ok: false, refusal }, audit };
    }
    if (request.status !== 'pending') return { verdict: { ok: false, refusal: lost(request) }, audit: [] };
    return { verdict: { ok: true, request }, audit: [] };
  }

  /**
   * Approve or reject. Only the first valid decision wins; a won approval comes back `approved`, for the
   * operation runner to create its flow exactly once and record it (`recordExecution`).
   */
  async decide(input: DecideInput): Promise<Decided> {
    const request = await this.ofTeam(input.requestId, input.teamId);
    if (!request) return { step: { kind: 'not-found' }, audit: [] };
    const refused = await this.refuse(
      request,
      input,
      input.decision === 'approve',
      `approval.${input.decision}`,
    );
    if (refused) return refused;

    const reason = input.reason?.trim().slice(0, MAX_REASON_LENGTH) || undefined;
    const at = this.now();
    const won = await this.deps.store.decideApproval({
      id: request.id,
      decision: input.decision,
      by: input.userId,
      at,
      reason,
    });
    if (!won.ok) {
      const current = won.current ?? request;
      // This click found it past its expiry and expired it: record that like a sweep would.
      return {
        step: lost(current, won.expiredNow === true),
        audit: won.expiredNow ? expiryEntries([current], at) : [],
      };
    }

    const audit = [
      entry(won.request, input, `approval.${input.decision}`, at, {
        action: won.request.action,
        model: won.request.modelId,
        ...(reason ? { reason } : {}),
      }),
    ];
    if (input.decision === 'reject') return { step: { kind: 'rejected', request: won.request }, audit };
    return { step: { kind: 'approved', request: won.request }, audit };
  }

  /** Retry a request whose flow creation failed definitively: won, it comes back `approved` again. */
  async retry(input: RetryInput): Promise<Decided> {
    const request = await this.ofTeam(input.requestId, input.teamId);
    if (!request) return { step: { kind: 'not-found' }, audit: [] };
    const refused = await this.refuse(request, input, true, 'approval.retry');
    if (refused) return refused;
    const at = this.now();
    const claimed = await this.deps.store.claimRetry(request.id, input.userId, at);
    if (!claimed.ok) {
      const current = claimed.current ?? request;
      const step: DecisionStep =
        current.status === 'executing' || current.status === 'executed'
          ? { kind: 'already-decided', request: current }
          : { kind: 'not-retryable', request: current };
      return { step, audit: [] };
    }
    const audit = [
      entry(claimed.request, input, 'approval.retry', at, {
        action: claimed.request.action,
        model: claimed.request.modelId,
        attempt: claimed.request.attempts,
      }),
    ];
    return { step: { kind: 'approved', request: claimed.request }, audit };
  }

  /** Expires due pending requests (call periodically and at start-up); returns the ones it expired. */
  async expireDue(): Promise<SelfDecided> {
    const at = this.now();
    const expired = await this.deps.store.expireDue(at);
    return { requests: expired, audit: expiryEntries(expired, at) };
  }

  /**
   * The last `limit` approval decisions and flow creations, newest first, for approvers only
   * (`/tsai audit [n]`).
   */
  async auditTrail(
    userId: string,
    limit = 20,
    teamId?: string,
  ): Promise<
    { ok: true; entries: AuditEntry[] } | { ok: false; approvers: { users: string[]; groups: string[] } }
  > {
    if (!(await this.approverRule.isBotApprover(userId))) return { ok: false, approvers: this.approverIds };
    const entries = await this.deps.store.listAudit({
      limit: Math.max(1, Math.min(100, Math.floor(limit) || 20)),
      operationPrefixes: ['approval.', 'flow.'],
      // Of the reader's team only: another team's decisions and flows are its own (core/read-scope.ts).
      ...(teamId ? { teamId } : {}),
    });
    return { ok: true, entries };
  }

  /**
   * Marks outcome unknown every execution claimed longer ago than the bound and never recorded: its
   * process died after the click won (the flow may have been created). Run at start-up and with every
   * sweep, so a replica that survives another's death recovers its requests without a restart; replicas
   * sweeping at once each mark and report different requests.
   */
  async recoverInterrupted(
    interruptedAfterMs = this.deps.config.interruptedAfterMs ?? INTERRUPTED_AFTER_MS,
  ): Promise<SelfDecided> {
    const at = this.now();
    const interrupted = await this.deps.store.markInterrupted(at - interruptedAfterMs, at);
    const audit = interrupted.map(
      (r): NewAuditEntry => ({
        at,
        userId: SYSTEM_USER,
        teamId: r.teamId ?? undefined,
        channelId: r.approvalsChannelId,
        operation: `flow.${FLOW_TYPE[r.action]}`,
        params: { model: r.modelId },
        outcome: 'unknown',
        error: r.error ?? undefined,
        requestId: r.id,
      }),
    );
    return { requests: interrupted, audit };
  }

  /** The two rules about people: only approvers decide, and nobody approves their own request. */
  /**
   * The request, when the deciding click comes from its own Slack workspace: a request of another team is
   * answered as one the bot does not know, whoever holds its ID (approvers are named per bot, not per team).
   */
  private async ofTeam(requestId: string, teamId: string | undefined): Promise<ApprovalRequest | null> {
    const request = await this.deps.store.getApproval(requestId);
    // A surface without teams (the core's own tests, a caller that names none) is not asked for one.
    return request && (teamId === undefined || withinTeam(request.teamId, { userId: '', teamId }))
      ? request
      : null;
  }

  private async rule(request: ApprovalRequest, userId: string, approving: boolean): Promise<Refusal | null> {
    const refused = await this.approverRule.refusal(request, {
      requesterId: request.requesterId,
      userId,
      approving,
    });
    return refused ? { kind: refused, request, approvers: this.approverIdsOf(request) } : null;
  }

  /** The rules applied to a decision; a refusal changes nothing but is audited. */
  private async refuse(
    request: ApprovalRequest,
    who: { userId: string; teamId?: string; channelId?: string },
    approving: boolean,
    operation: string,
  ): Promise<Decided | null> {
    const outcome = await this.rule(request, who.userId, approving);
    if (!outcome) return null;
    const audit = entry(
      request,
      who,
      operation,
      this.now(),
      { model: request.modelId },
      'refused',
      outcome.kind,
    );
    return { step: outcome, audit: [audit] };
  }

  /** The name of an approved request's STARTLIVEMODEL/STOPLIVEMODEL flow. */
  flowName(request: ApprovalRequest, people: FlowPeople): string {
    return (this.deps.flowName ?? defaultFlowName)(request, people, this.now());
  }

  /**
   * What creating an approved request's flow came to. The flow was asked for: it is recorded even through
   * a store outage. A retry after a commit the bot did not hear of finds the request no longer executing
   * and reads it as it is.
   */
  async recordExecution(request: ApprovalRequest, result: LiveFlowResult): Promise<DecisionOutcome> {
    const execution: ExecutionOutcome = result.ok
      ? {
          status: 'executed',
          flowId: result.flowId,
          ...(result.flowStatus ? { flowStatus: result.flowStatus } : {}),
        }
      : {
          status: result.outcomeUnknown ? 'unknown' : result.retryable === false ? 'refused' : 'failed',
          error: result.message,
        };
    const at = this.now();
    const recorded = await recordSurely(() => this.deps.store.recordExecution(request.id, execution, at));
    const final = recorded.ok ? recorded.request : (recorded.current ?? request);
    const error = result.ok ? '' : result.message;
    switch (final.status) {
      case 'executed':
        return { kind: 'executed', request: final };
      case 'failed':
      case 'refused':
        return { kind: 'failed', request: final, error: final.error ?? error };
      default:
        return { kind: 'outcome-unknown', request: final, error: final.error ?? error };
    }
  }
}

/** The audit entry of a decision about a request. */
function entry(
  request: ApprovalRequest,
  who: { userId: string; teamId?: string; channelId?: string },
  operation: string,
  at: number,
  params: Record<string, unknown>,
  outcome: 'ok' | 'refused' = 'ok',
  error?: string,
): NewAuditEntry {
  return {
    at,
    userId: who.userId,
    teamId: who.teamId,
    channelId: who.channelId ?? request.approvalsChannelId,
    operation,
    params,
    outcome,
    error,
    requestId: request.id,
  };
}

/** The audit entries of requests the bot expired by itself. */
function expiryEntries(expired: ApprovalRequest[], at: number): NewAuditEntry[] {
  return expired.map((r) => ({
    at,
    userId: SYSTEM_USER,
    teamId: r.teamId ?? undefined,
    channelId: r.approvalsChannelId,
    operation: 'approval.expire',
    params: { action: r.action, model: r.modelId, expiresAt: new Date(r.expiresAt).toISOString() },
    outcome: 'ok' as const,
    requestId: r.id,
  }));
}

/** A failed look-up of an assessment's M[0], said as every other failed service call is. */
function lookupFailure(err: unknown, assessment: string): string {
  const doing = `look up the common model of assessment ${assessment}`;
  return err instanceof ServiceError
    ? serviceFailure(err, doing).message
    : `Could not ${doing}: something went wrong inside the bot, so nothing was filed.`;
}

export function createApprovalWorkflow(deps: ApprovalsDeps): ApprovalWorkflow {
  return new ApprovalWorkflow(deps);
}
