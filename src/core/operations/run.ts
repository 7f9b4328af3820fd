import type { ServiceCalls, ServiceClient } from '../../api/index.js';
import { errText } from '../../log.js';
import type { ApprovalRequest, AuditResult, NewAuditEntry, Store } from '../../store/index.js';
import type { ApproverRule } from '../approvals/approver-rule.js';
import type { DecisionOutcome } from '../approvals/rules.js';
import type {
  ApprovalWorkflow,
  CheckVerdict,
  FileRequestInput,
  FileRequestOutcome,
  LiveFlowResult,
} from '../approvals/workflow.js';
import { AuditLog } from '../audit.js';
import { forgetMissing, missingResource, recordOperation } from '../catalog/record.js';
import { clearChannelDefaults, setChannelDefaults } from '../channel-defaults.js';
import { recordSurely, storeFaultMessage } from '../durable.js';
import {
  Gate,
  type GateVerdict,
  MASKED_NOTE,
  type SlackStanding,
  singleTenant,
  type Tenancy,
  type TenantInstall,
  tenantPerInstallation,
} from '../gate/index.js';
import type { Resource } from '../gate/resource.js';
import type { SurfaceId } from '../gate/surfaces.js';
import type { CommandSpec } from '../grammar/commands.js';
import type { IdentityVault } from '../identity/vault.js';
import type { OpFailure, OpOutcome } from '../outcome.js';
import type { AccessPolicy } from '../policy.js';
import { requestsVisibleTo } from '../read-scope.js';
import { decideSchedule } from '../schedules/approval.js';
import type { FlowTracker } from '../tracking/tracker.js';
import { execute, type RangeEcho } from './execute.js';
import {
  ACTED_AS_TEXT,
  type IdentityChoice,
  roleNeededFor,
  type ServiceAccountOf,
  ServiceIdentity,
} from './identity.js';
import {
  type Actor,
  auditNameOf,
  flowTypeOf,
  type Operation,
  type OperationResult,
  reachesService,
} from './operation.js';
import { requestParams } from './params.js';
import { flowNotFound } from './registry/flow.js';
import { findCommonModel } from './registry/model-common.js';

/** The few log lines the runner writes; the bot's pino logger fits. */
export interface OperationLog {
  info(o: object, msg: string): void;
  error(o: object, msg: string): void;
}

export interface OperationsDeps {
  service: ServiceClient;
  store: Store;
  policy: AccessPolicy;
  approvals: ApprovalWorkflow;
  now: () => Date;
  /** The zone in which an approved request's outcome is described. */
  timeZone: string;
  log: OperationLog;
  /** Where approval requests are posted (TSAI_APPROVALS_CHANNEL); absent: the channel asked in. */
  approvalsChannel?: string;
  /** Follows every flow the runner creates until it ends; absent when TSAI_TRACK_FLOWS is off. */
  tracker?: FlowTracker;
  /** The one audit writer, shared with the policy; absent: one over `store`. */
  audit?: AuditLog;
  /** Each person's own service token; absent: nobody is connected. */
  identity?: IdentityVault;
  /** A person's display name as their team's Slack knows it, for what the service shows (flow names). */
  displayName?: (userId: string, teamId?: string) => Promise<string | undefined>;
  /** Whether `service` has the bot's shared token (TSAI_TOKEN); default yes. */
  sharedToken?: boolean;
  /** Operations run only with a person's own token (TSAI_REQUIRE_USER_TOKEN). */
  requireUserToken?: boolean;
  /** A person's standing in Slack, asked by the gate; absent: nobody is refused for it. */
  standing?: SlackStanding;
  /** Where `service` is (TSAI_BASE_URL, TSAI_ACCOUNT_ID): people's tokens checked there are sent there alone. */
  servicePlace?: { baseUrl: string; accountId: string };
  /**
   * "Add to Slack": each tenant's own service account and where it is (undefined while it has none),
   * instead of `service` for everyone; the gate's tenancy then has a tenant per installation.
   */
  accountOf?: (tenant: string) => Promise<ServiceAccountOf | undefined>;
}

const INSIDE_THE_BOT =
  "Something went wrong inside the bot (the error is in its log). If it was meant to create something, check the service's Activity view before trying again.";

/**
 * The one path every operation takes, whichever surface asked (core/gate/surfaces.ts): through the one
 * gate (masking, the person, what it touches, their permissions), then execute, audit, and return the
 * outcome for the surface to show. A surface decides only how it acknowledges and how it shows the result.
 */
export class Operations {
  /** The one audit writer, which the runner owns; what it decides outside an operation is audited here too. */
  readonly auditLog: AuditLog;
  /** The tenant of each team, and whose token each of its service calls uses. */
  readonly tenancy: Tenancy;
  /** Who decides a live start or stop (a request's, a schedule's). */
  readonly approvers: ApproverRule;
  private readonly gate: Gate;

  constructor(private readonly deps: OperationsDeps) {
    this.auditLog = deps.audit ?? new AuditLog(deps.store);
    const rejected = new Map<string, string>();
    const identity = (account: () => Promise<ServiceAccountOf | undefined>) =>
      new ServiceIdentity({
        account,
        ...(deps.identity ? { vault: deps.identity } : {}),
        sharedToken: deps.sharedToken ?? true,
        requireUserToken: deps.requireUserToken ?? false,
        rejected,
      });
    const { accountOf } = deps;
    const place = deps.servicePlace ?? { baseUrl: '', accountId: '' };
    this.tenancy = accountOf
      ? tenantPerInstallation((tenant) => identity(() => accountOf(tenant)))
      : singleTenant(identity(async () => ({ client: deps.service, place: { ...place, since: 0 } })));
    this.approvers = deps.approvals.approverRule;
    this.gate = new Gate({
      store: deps.store,
      policy: deps.policy,
      approvers: this.approvers,
      tenancy: this.tenancy,
      ...(deps.standing ? { standing: deps.standing } : {}),
    });
  }

  /**
   * A tenant's own service account about to be opened for a change or changed: only its admins, as Slack
   * says now (the gate's `tenantAdmin`), whichever surface asked (`/tsai setup`, its button, its form).
   */
  tenantAdmin(actor: Actor, install: TenantInstall): Promise<OpFailure | null> {
    return this.gate.tenantAdmin(actor, install);
  }

  /** Files an approval request; the request exists once stored, so its entry waits out a store outage. */
  async fileRequest(input: FileRequestInput, surface?: SurfaceId): Promise<FileRequestOutcome> {
    const filed = await this.deps.approvals.fileRequest(input);
    // Stored is filed: its card is posted whatever becomes of this line, and a lost line is logged.
    if (filed.ok)
      await (surface ? this.auditLog.via(surface) : this.auditLog)
        .writeSurely(filed.audit)
        .catch((e: unknown) =>
          this.deps.log.error(
            { user: input.requesterId, requestId: filed.request.id, err: errText(e) },
            'could not write the audit entry of a filed approval request',
          ),
        );
    return filed;
  }

  /** Pending requests, newest first; due ones are expired on the way and returned too. */
  async listPending(limit?: number): Promise<{ pending: ApprovalRequest[]; expired: ApprovalRequest[] }> {
    const { pending, expired, audit } = await this.deps.approvals.listPending(limit);
    await this.auditLog.write(audit);
    return { pending, expired };
  }

  /** Whether someone may decide a request now, without deciding it (a lapsed one is expired on the way). */
  async checkDecision(
    requestId: string,
    userId: string,
    decision: 'approve' | 'reject',
    teamId?: string,
  ): Promise<CheckVerdict> {
    const { verdict, audit } = await this.deps.approvals.check(requestId, userId, decision, teamId);
    await this.auditLog.write(audit);
    return verdict;
  }

  /** Expires due pending requests (periodically and at start-up); returns the ones it expired. */
  async expireDue(): Promise<ApprovalRequest[]> {
    return this.selfDecided(await this.deps.approvals.expireDue());
  }

  /** Marks outcome unknown the executions whose process died after their click won. */
  async recoverInterrupted(interruptedAfterMs?: number): Promise<ApprovalRequest[]> {
    return this.selfDecided(await this.deps.approvals.recoverInterrupted(interruptedAfterMs));
  }

  /**
   * At start-up: expire what lapsed while the bot was down, and mark executions a crash interrupted as
   * outcome unknown (the flow may have been created). Returns both, for updating their messages.
   */
  async recoverAfterRestart(
    interruptedAfterMs?: number,
  ): Promise<{ expired: ApprovalRequest[]; interrupted: ApprovalRequest[] }> {
    const expired = await this.expireDue();
    return { expired, interrupted: await this.recoverInterrupted(interruptedAfterMs) };
  }

  private async selfDecided(decided: { requests: ApprovalRequest[]; audit: NewAuditEntry[] }) {
    await this.auditLog.write(decided.audit);
    return decided.requests;
  }

  /** Whose token the service calls of a team's people use: its tenant's identity. */
  identityOf(teamId: string | undefined): ServiceIdentity {
    return this.tenancy.tenantOf(teamId || undefined).identity;
  }

  /**
   * The gate for a command on its own (the person's standing and the access policy): a surface asks before
   * it opens a form, so that nobody fills one in to be refused at the end. `run` asks again, always.
   */
  async authorize(
    actor: Actor,
    spec: CommandSpec,
    params: Record<string, unknown> = { asked: actor.asked },
  ): Promise<OpFailure | null> {
    return this.gate.command(actor, spec, params).catch((e: unknown) => storeFault(e));
  }

  /**
   * Whether `op` would pass the gate now, as `actor`, without running it: what a schedule's creation asks
   * of its command (each of its runs passes the gate again, at its instant).
   */
  async check(actor: Actor, op: Operation): Promise<OpFailure | null> {
    const verdict = await this.pass(actor, op);
    return verdict.ok ? null : verdict.failure;
  }

  private pass(actor: Actor, op: Operation): Promise<GateVerdict> {
    // A refusal is audited before it is told, and the vault is in the store: without the store nothing
    // was done, and saying so is safe.
    return this.gate.pass(actor, op).catch((e: unknown) => ({ ok: false as const, failure: storeFault(e) }));
  }

  async run(asked: Actor, requested: Operation): Promise<OperationResult> {
    const verdict = await this.pass(asked, requested);
    if (!verdict.ok) return verdict.failure;
    const { actor, op, resource, masked } = verdict.passage;
    const identity = verdict.passage.principal.identity;
    const where = { user: actor.userId, channel: actor.channelId };
    const intent = await this.intend(actor, op, identity);
    if (intent.kind === 'refused') return intent.failure;
    const started = Date.now();
    const performed = await this.perform(actor, op, resource, identity);
    const result =
      identity && !performed.ok
        ? verdict.passage.principal.tenant.identity.explain(identity, performed, roleNeededFor(op))
        : performed;
    if (masked && result.ok && result.kind === 'service')
      result.notes = [...(result.notes ?? []), MASKED_NOTE];
    this.deps.log.info(
      {
        ...where,
        op: op.kind,
        ok: result.ok,
        flowId: result.ok && 'flow' in result ? result.flow?.id : undefined,
        ms: Date.now() - started,
      },
      'operation handled',
    );
    if (intent.kind === 'written')
      await this.auditLog
        .complete(intent.id, auditResultOf(result as OpOutcome), {
          onRetry: (attempt, e) => this.retrying('audit entry', attempt, e),
        })
        .catch((e: unknown) => {
          this.deps.log.error(
            {
              ...where,
              op: op.kind,
              auditId: intent.id,
              flowId: result.ok && 'flow' in result ? result.flow?.id : undefined,
              err: errText(e),
            },
            'could not write the result into the audit entry',
          );
          noteUnrecorded(
            result,
            "The bot's database did not take the result, so its audit log shows this as outcome unknown.",
          );
        });
    await this.follow(actor, op, result);
    await this.learn(actor, op, result).catch((e: unknown) =>
      this.deps.log.error({ ...where, err: errText(e) }, 'could not record resources in the catalog'),
    );
    return result;
  }

  /**
   * The catalog learns the resources a successful operation used or the service named; an ID the service
   * said does not exist is forgotten. Only within the Slack team that asked.
   */
  private async learn(actor: Actor, op: Operation, result: OperationResult): Promise<void> {
    const teamId = actor.teamId;
    if (!teamId || !reachesService(op)) return;
    const request = op;
    if (result.ok && result.kind === 'service') {
      await recordOperation(this.deps.store, {
        teamId,
        now: this.deps.now,
        request,
        ...(result.seen ? { returned: result.seen } : {}),
      });
      return;
    }
    if (!result.ok) {
      const missing = missingResource(request, result.status);
      if (missing) await forgetMissing(this.deps.store, { teamId, ...missing, now: this.deps.now });
    }
  }

  /** A created flow is followed until it ends; failing to follow it never undoes its creation. */
  private async follow(actor: Actor, op: Operation, result: OperationResult): Promise<void> {
    const flowType = flowTypeOf(op);
    const tracker = this.deps.tracker;
    if (!tracker || !flowType || !result.ok || result.kind !== 'service' || !result.flow) return;
    const flow = result.flow;
    try {
      await recordSurely(() => tracker.follow({ actor, op, outcome: { ...result, flow }, flowType }), {
        onRetry: (attempt, e) => this.retrying('tracked flow', attempt, e),
      });
    } catch (e) {
      this.deps.log.error(
        { user: actor.userId, flowId: flow.id, err: errText(e) },
        'could not start following a flow',
      );
      noteUnrecorded(
        result,
        `The bot's database did not answer, so it will not tell you when this flow ends: check it with \`/tsai flow ${flow.id}\`.`,
      );
    }
  }

  /**
   * An Approve, Retry or Reject, taken through the workflow's rules and its compare-and-set; a won approval
   * creates its flow here, as every other operation does, and the workflow records what came of it. What
   * goes wrong inside the bot is thrown, for the surface that asked to say so.
   */
  private async decide(
    actor: Actor,
    op: Extract<Operation, { kind: 'approval-decision' }>,
    resource: Resource,
  ): Promise<DecisionOutcome> {
    const { approvals } = this.deps;
    // Read by the gate within the decider's Slack team: one of another team is not known here.
    if (resource.kind !== 'request' || !resource.request) return { kind: 'not-found' };
    if (op.decision !== 'reject') {
      const waiting = await this.connectBeforeDeciding(actor, op);
      if (waiting) return waiting;
    }
    const who = {
      requestId: op.requestId,
      userId: actor.userId,
      ...(actor.teamId ? { teamId: actor.teamId } : {}),
      ...(op.channelId ? { channelId: op.channelId } : {}),
    };
    const { step, audit } =
      op.decision === 'retry'
        ? await approvals.retry(who)
        : await approvals.decide({
            ...who,
            decision: op.decision,
            ...(op.reason ? { reason: op.reason } : {}),
          });
    // The decision is stored: a lost line must not leave a won approval without its flow.
    await this.auditLog
      .via(actor.surface)
      .write(audit)
      .catch((e: unknown) =>
        this.deps.log.error(
          { user: actor.userId, requestId: op.requestId, err: errText(e) },
          'could not write the audit entry of an approval decision',
        ),
      );
    if (step.kind !== 'approved') return step;
    try {
      await op.onExecuting?.(step.request);
    } catch {
      // progress display only
    }
    let result: LiveFlowResult;
    try {
      result = await this.runApproved(step.request, actor);
    } catch {
      // Nothing proves the flow was not created, so the request must not look retryable.
      result = {
        ok: false,
        outcomeUnknown: true,
        message: 'Unexpected error while creating the flow; its outcome is unknown. Check the Activity view.',
      };
    }
    return approvals.recordExecution(step.request, result);
  }

  /** The requester's and the approver's display names, for the flow's name (none when unknown). */
  private async flowPeople(request: ApprovalRequest, approver: Actor) {
    const nameOf = this.deps.displayName;
    const known = async (id: string, teamId?: string | null) =>
      nameOf ? nameOf(id, teamId ?? undefined).catch(() => undefined) : undefined;
    const [requester, approverName] = await Promise.all([
      known(request.requesterId, request.teamId),
      approver.userName ?? known(approver.userId, approver.teamId),
    ]);
    return { ...(requester ? { requester } : {}), ...(approverName ? { approver: approverName } : {}) };
  }

  /** The flow of a request an approver approved. */
  private async runApproved(request: ApprovalRequest, approver: Actor): Promise<LiveFlowResult> {
    const result = await this.run(
      {
        userId: approver.userId,
        ...(approver.userName ? { userName: approver.userName } : {}),
        ...(approver.teamId ? { teamId: approver.teamId } : {}),
        channelId: request.approvalsChannelId,
        asked: `approve request ${request.id}`,
        timeZone: this.deps.timeZone,
        via: 'approval',
        // The flow of a click: audited under the surface the approver clicked on.
        surface: approver.surface,
      },
      {
        kind: 'live-model',
        action: request.action,
        modelId: request.modelId,
        name: this.deps.approvals.flowName(request, await this.flowPeople(request, approver)),
        approvalId: request.id,
        requesterId: request.requesterId,
      },
    );
    if (!result.ok)
      return {
        ok: false,
        outcomeUnknown: result.outcomeUnknown === true,
        message: result.message,
        retryable: !turnedDown(result.status),
      };
    if (result.kind === 'service' && result.flow)
      return { ok: true, flowId: result.flow.id, flowStatus: result.flow.status };
    return {
      ok: false,
      outcomeUnknown: true,
      message: "The service answered without a flow ID; check the service's Activity view.",
    };
  }

  /**
   * An approver whose identity cannot act is asked to connect before anything is decided, so the request
   * stays pending and their click after connecting works; the approval rules still come first, so someone
   * who may not decide is told that instead.
   */
  private async connectBeforeDeciding(
    actor: Actor,
    op: Extract<Operation, { kind: 'approval-decision' }>,
  ): Promise<DecisionOutcome | undefined> {
    const identity = await this.identityOf(actor.teamId).forPerson({
      teamId: actor.teamId ?? '',
      userId: actor.userId,
    });
    if (identity.ok) return undefined;
    const { verdict, audit } = await this.deps.approvals.check(op.requestId, actor.userId, 'approve');
    await this.auditLog.via(actor.surface).write(audit);
    const refusal = verdict.ok ? undefined : verdict.refusal;
    const retryable =
      op.decision === 'retry' && refusal?.kind === 'already-decided' && refusal.request.status === 'failed';
    if (refusal && !retryable) return refusal;
    const request = verdict.ok ? verdict.request : (refusal as { request: ApprovalRequest }).request;
    return {
      kind: 'connect-first',
      request,
      connect: identity.refusal.connect ?? 'reconnect',
      message: identity.refusal.message,
    };
  }

  private async perform(
    actor: Actor,
    op: Operation,
    resource: Resource,
    identity?: IdentityChoice,
  ): Promise<OperationResult> {
    const { store, approvals, now } = this.deps;
    if (op.kind === 'approval-decision')
      return { ok: true, kind: 'approval-decision', outcome: await this.decide(actor, op, resource) };
    if (op.kind === 'schedule-decision')
      return { ok: true, kind: 'schedule-decision', decided: await this.decideSchedule(actor, op, resource) };
    const service: ServiceCalls = identity?.ok ? identity.service : this.deps.service;
    try {
      if (op.kind === 'flow') return await this.flowStatus(actor, op, resource, service);
      if (reachesService(op)) return await execute(op, service, this.echoFor(actor));
      switch (op.kind) {
        case 'live-request': {
          const filed = await this.fileRequest(
            {
              findCommonModel: (assessmentId) => findCommonModel(service, assessmentId),
              action: op.action,
              ...(op.modelId ? { modelId: op.modelId } : {}),
              ...(op.assessmentId ? { assessmentId: op.assessmentId } : {}),
              ...(op.reason ? { reason: op.reason } : {}),
              requesterId: actor.userId,
              ...(actor.teamId ? { teamId: actor.teamId } : {}),
              channelId: actor.channelId,
              ...(actor.threadTs ? { threadTs: actor.threadTs } : {}),
              ...(this.deps.approvalsChannel ? { approvalsChannelId: this.deps.approvalsChannel } : {}),
            },
            actor.surface,
          );
          if (!filed.ok)
            return {
              ok: false,
              message: filed.message,
              ...(filed.example ? { example: filed.example } : {}),
            };
          return { ok: true, kind: 'approval-filed', request: filed.request, modelFrom: filed.modelFrom };
        }
        case 'defaults-set': {
          const defaults = await setChannelDefaults(store, {
            channelId: actor.channelId,
            values: op.values,
            userId: actor.userId,
            ...(actor.teamId ? { teamId: actor.teamId } : {}),
            now,
            audit: this.auditLog.via(actor.surface),
          });
          return { ok: true, kind: 'channel-defaults', change: 'set', defaults };
        }
        case 'defaults-clear': {
          const cleared = await clearChannelDefaults(store, {
            channelId: actor.channelId,
            userId: actor.userId,
            ...(actor.teamId ? { teamId: actor.teamId } : {}),
            now,
            audit: this.auditLog.via(actor.surface),
          });
          return { ok: true, kind: 'channel-defaults', change: 'clear', defaults: null, cleared };
        }
        case 'defaults-show':
          return {
            ok: true,
            kind: 'channel-defaults',
            change: 'show',
            defaults: await store.getChannelDefaults(actor.channelId),
          };
        case 'approvals-list': {
          const { pending, expired } = await this.listPending(100);
          const requests = await requestsVisibleTo(pending, actor, (r) =>
            approvals.mayDecide(r, actor.userId),
          );
          const everyone = await approvals.isApprover(actor.userId);
          return { ok: true, kind: 'pending-approvals', requests: requests.slice(0, 40), expired, everyone };
        }
        case 'flows-list':
          return {
            ok: true,
            kind: 'tracked-flows',
            flows: await store.listTrackedFlows({
              channelId: actor.channelId,
              ...(actor.teamId ? { teamId: actor.teamId } : {}),
              limit: op.limit ?? 10,
            }),
          };
        case 'audit-list': {
          const trail = await approvals.auditTrail(actor.userId, op.limit ?? 20, actor.teamId);
          if (trail.ok) return { ok: true, kind: 'audit-trail', entries: trail.entries };
          return {
            ok: false,
            message: 'Only approvers can read the audit log.',
            refusal: {
              reason: 'not-approver',
              askUsers: trail.approvers.users,
              askGroups: trail.approvers.groups,
              allowedChannels: [],
            },
          };
        }
      }
    } catch (e) {
      // Only lookups and bot-side operations touch the store here, before any service call that creates.
      const message = storeFaultMessage(e);
      if (message) {
        this.deps.log.error(
          { user: actor.userId, channel: actor.channelId, op: op.kind, err: errText(e) },
          'the store failed; nothing was done',
        );
        return { ok: false, message };
      }
      this.deps.log.error(
        { user: actor.userId, channel: actor.channelId, op: op.kind, err: errText(e, { stack: true }) },
        'operation failed inside the bot',
      );
      return { ok: false, outcomeUnknown: reachesService(op), message: INSIDE_THE_BOT };
    }
  }

  /** The one approval of a schedule of live starts or stops, on the schedule the gate read in the team. */
  private decideSchedule(
    actor: Actor,
    op: Extract<Operation, { kind: 'schedule-decision' }>,
    resource: Resource,
  ) {
    return decideSchedule(
      {
        store: this.deps.store,
        approvers: this.approvers,
        now: this.deps.now,
        audit: this.auditLog.via(actor.surface),
      },
      {
        schedule: resource.kind === 'schedule' ? resource.schedule : null,
        userId: actor.userId,
        ...(actor.teamId ? { teamId: actor.teamId } : {}),
        ...(op.channelId ? { channelId: op.channelId } : {}),
        decision: op.decision,
      },
    );
  }

  /** `/tsai flow <id>`: one of another team is answered as an ID nobody knows, and the service not asked. */
  private async flowStatus(
    actor: Actor,
    op: Extract<Operation, { kind: 'flow' }>,
    resource: Resource,
    service: ServiceCalls,
  ): Promise<OperationResult> {
    const tracked = resource.kind === 'flow' ? resource.tracked : null;
    if (resource.kind === 'flow' && !resource.visible)
      return {
        ok: true,
        kind: 'flow-status',
        flowId: op.flowId,
        tracked: null,
        now: flowNotFound(op.flowId),
      };
    const now = await execute(op, service, this.echoFor(actor));
    return { ok: true, kind: 'flow-status', flowId: op.flowId, tracked, now };
  }

  /** Ranges are echoed in the person's zone, their year told by the bot's clock. */
  private echoFor(actor: Actor): RangeEcho {
    return { timeZone: actor.timeZone, now: this.deps.now() };
  }

  private retrying(what: string, attempt: number, e: unknown): void {
    this.deps.log.info({ what, attempt, err: errText(e) }, 'the store did not answer; writing again');
  }

  /**
   * The audit entry of an operation the service will act on is written before the service is asked, so
   * that nothing the service does for the bot is missing from the log: a store that cannot write it stops
   * the operation here, with nothing sent. The answer is written over it afterwards.
   */
  private async intend(actor: Actor, op: Operation, identity?: IdentityChoice): Promise<Intent> {
    const operation = auditNameOf(op);
    if (!operation || !reachesService(op)) return { kind: 'none' };
    const actedAs = identity?.ok ? { actedAs: ACTED_AS_TEXT[identity.actedAs] } : {};
    try {
      const id = await this.auditLog.via(actor.surface).intend({
        at: this.deps.now().getTime(),
        userId: actor.userId,
        ...(actor.teamId ? { teamId: actor.teamId } : {}),
        channelId: actor.channelId,
        operation,
        params: {
          ...(op.kind === 'live-model'
            ? {
                name: op.name,
                model: op.modelId,
                ...(op.requesterId ? { requestedBy: op.requesterId } : {}),
              }
            : requestParams(op)),
          ...actedAs,
          // Which surface asked is the line's `via` (the log this writes through names it); a step says which.
          ...(actor.workflow ? { workflow: actor.workflow } : {}),
        },
        ...(op.kind === 'live-model' ? { requestId: op.approvalId } : {}),
      });
      return { kind: 'written', id };
    } catch (e) {
      const message = storeFaultMessage(e);
      this.deps.log.error(
        { user: actor.userId, channel: actor.channelId, op: op.kind, err: errText(e) },
        'could not write the audit entry before the service call; nothing was sent',
      );
      return {
        kind: 'refused',
        failure: {
          ok: false,
          message:
            message ?? 'Something went wrong inside the bot (the error is in its log), so nothing was sent.',
        },
      };
    }
  }
}

type Intent = { kind: 'none' } | { kind: 'written'; id: number } | { kind: 'refused'; failure: OpFailure };

/** What an operation's audit entry says once the service answered. */
function auditResultOf(outcome: OpOutcome): AuditResult {
  if (outcome.ok)
    return {
      outcome: 'ok',
      ...(outcome.flow ? { flowId: outcome.flow.id, flowStatus: outcome.flow.status } : {}),
    };
  return { outcome: outcome.outcomeUnknown ? 'unknown' : 'error', error: outcome.message };
}

/** A successful result says what the bot could not record, so nobody relies on it. */
function noteUnrecorded(result: OperationResult, note: string): void {
  if (result.ok && result.kind === 'service') result.notes = [...(result.notes ?? []), note];
}

/** A store that failed before anything was done, said so; anything else is thrown on. */
function storeFault(e: unknown): OpFailure {
  const message = storeFaultMessage(e);
  if (message) return { ok: false, message };
  throw e;
}

/** The service turned the request down for a cause of its own (4xx): asking again would meet it again. */
function turnedDown(status: number | undefined): boolean {
  return status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429;
}
