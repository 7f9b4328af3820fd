import type { ApprovalRequest } from '../../store/index.js';
import type { Actor, Operation, OperationResult } from '../operations/operation.js';
import type { DecisionOutcome } from './rules.js';
import type {
  ApprovalWorkflow,
  CheckVerdict,
  DecideInput,
  FileRequestInput,
  FileRequestOutcome,
  RetryInput,
} from './workflow.js';

/** The runner's one entry point for an operation. */
export type RunOperation = (actor: Actor, op: Operation) => Promise<OperationResult>;

/**
 * What the desk needs of the operation runner: operations, and the approval records that the runner
 * audits (filing, the Reject button's check, expiry and recovering cut-off executions).
 */
export interface ApprovalRunner {
  run: RunOperation;
  fileRequest(input: FileRequestInput): Promise<FileRequestOutcome>;
  listPending(limit?: number): Promise<{ pending: ApprovalRequest[]; expired: ApprovalRequest[] }>;
  checkDecision(
    requestId: string,
    userId: string,
    decision: 'approve' | 'reject',
    teamId?: string,
  ): Promise<CheckVerdict>;
  expireDue(): Promise<ApprovalRequest[]>;
  recoverInterrupted(interruptedAfterMs?: number): Promise<ApprovalRequest[]>;
  recoverAfterRestart(
    interruptedAfterMs?: number,
  ): Promise<{ expired: ApprovalRequest[]; interrupted: ApprovalRequest[] }>;
}

/**
 * Approvals as the surfaces use them: what the workflow knows (requests, approvers, expiry), and the
 * decisions, which go through the operation runner like every other operation: the runner takes them
 * through the workflow's rules and creates an approved request's flow.
 */
export class Approvals {
  constructor(
    private readonly workflow: ApprovalWorkflow,
    private readonly runner: ApprovalRunner,
    /** The zone in which a decision's outcome is described. */
    private readonly timeZone: string,
  ) {}

  get ttlMs(): number {
    return this.workflow.ttlMs;
  }

  get approverIds(): { users: string[]; groups: string[] } {
    return this.workflow.approverIds;
  }

  /** The approvers who decide this request: its workspace's, or the bot's. */
  approverIdsOf(request: Pick<ApprovalRequest, 'approversWorkspace' | 'approversStrictest'>): {
    users: string[];
    groups: string[];
  } {
    return this.workflow.approverIdsOf(request);
  }

  isApprover(userId: string): Promise<boolean> {
    return this.workflow.isApprover(userId);
  }

  /** Whether `userId` is one of the approvers who decide this request. */
  mayDecide(request: ApprovalRequest, userId: string): Promise<boolean> {
    return this.workflow.mayDecide(request, userId);
  }

  fileRequest(input: FileRequestInput): Promise<FileRequestOutcome> {
    return this.runner.fileRequest(input);
  }

  attachMessage(requestId: string, channelId: string, messageTs: string): Promise<void> {
    return this.workflow.attachMessage(requestId, channelId, messageTs);
  }

  get(requestId: string): Promise<ApprovalRequest | null> {
    return this.workflow.get(requestId);
  }

  listPending(limit?: number): ReturnType<ApprovalRunner['listPending']> {
    return this.runner.listPending(limit);
  }

  check(
    requestId: string,
    userId: string,
    decision: 'approve' | 'reject',
    teamId?: string,
  ): Promise<CheckVerdict> {
    return this.runner.checkDecision(requestId, userId, decision, teamId);
  }

  expireDue(): Promise<ApprovalRequest[]> {
    return this.runner.expireDue();
  }

  auditTrail(
    ...args: Parameters<ApprovalWorkflow['auditTrail']>
  ): ReturnType<ApprovalWorkflow['auditTrail']> {
    return this.workflow.auditTrail(...args);
  }

  recoverAfterRestart(interruptedAfterMs?: number): ReturnType<ApprovalRunner['recoverAfterRestart']> {
    return this.runner.recoverAfterRestart(interruptedAfterMs);
  }

  recoverInterrupted(interruptedAfterMs?: number): Promise<ApprovalRequest[]> {
    return this.runner.recoverInterrupted(interruptedAfterMs);
  }

  /** Approve or reject. Only the first valid decision wins; an approval then executes exactly once. */
  decide(input: DecideInput): Promise<DecisionOutcome> {
    return this.decision(input, {
      kind: 'approval-decision',
      decision: input.decision,
      requestId: input.requestId,
      ...(input.reason ? { reason: input.reason } : {}),
      ...(input.channelId ? { channelId: input.channelId } : {}),
      ...(input.onExecuting ? { onExecuting: input.onExecuting } : {}),
    });
  }

  /** Retry a request whose flow creation failed definitively. */
  retry(input: RetryInput): Promise<DecisionOutcome> {
    return this.decision(input, {
      kind: 'approval-decision',
      decision: 'retry',
      requestId: input.requestId,
      ...(input.channelId ? { channelId: input.channelId } : {}),
      ...(input.onExecuting ? { onExecuting: input.onExecuting } : {}),
    });
  }

  private async decision(
    who: {
      userId: string;
      userName?: string;
      teamId?: string;
      channelId?: string;
      surface?: 'button' | 'home';
    },
    op: Extract<Operation, { kind: 'approval-decision' }>,
  ): Promise<DecisionOutcome> {
    const result = await this.runner.run(
      {
        userId: who.userId,
        ...(who.userName ? { userName: who.userName } : {}),
        ...(who.teamId ? { teamId: who.teamId } : {}),
        channelId: who.channelId ?? '',
        asked: `${op.decision} request ${op.requestId}`,
        timeZone: this.timeZone,
        via: 'approval',
        surface: who.surface ?? 'button',
      },
      op,
    );
    if (result.ok && result.kind === 'approval-decision') return result.outcome;
    // The gate refused the decider before anything was decided (their standing in Slack).
    if (!result.ok && result.refusedBy) return { kind: 'refused', message: result.message };
    throw new Error(`the runner answered a decision with ${result.ok ? result.kind : result.message}`);
  }
}
