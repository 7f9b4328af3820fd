import type { ApprovalRequest } from '../../store/index.js';
import type { Actor, Operation, OperationResult } from '../operations/operation.js';
import type { DecisionOutcome } from './rules.js';
import type {
  ApprovalWorkflow,
  DecideInput,
  FileRequestInput,
  FileRequestOutcome,
  RetryInput,
} from './workflow.js';

/** The runner's one entry point, all the desk needs of it. */
export type RunOperation = (actor: Actor, op: Operation) => Promise<OperationResult>;

/**
 * Approvals as the surfaces use them: what the workflow knows (requests, approvers, expiry), and the
 * decisions, which go through the operation runner like every other operation: the runner takes them
 * through the workflow's rules and creates an approved request's flow.
 */
export class Approvals {
  constructor(
    private readonly workflow: ApprovalWorkflow,
    private readonly run: RunOperation,
    /** The zone in which a decision's outcome is described. */
    private readonly timeZone: string,
  ) {}

  get ttlMs(): number {
    return this.workflow.ttlMs;
  }

  get approverIds(): { users: string[]; groups: string[] } {
    return this.workflow.approverIds;
  }

  isApprover(userId: string): Promise<boolean> {
    return this.workflow.isApprover(userId);
  }

  fileRequest(input: FileRequestInput): Promise<FileRequestOutcome> {
    return this.workflow.fileRequest(input);
  }

  attachMessage(requestId: string, channelId: string, messageTs: string): Promise<void> {
    return this.workflow.attachMessage(requestId, channelId, messageTs);
  }

  get(requestId: string): Promise<ApprovalRequest | null> {
    return this.workflow.get(requestId);
  }

  listPending(limit?: number): ReturnType<ApprovalWorkflow['listPending']> {
    return this.workflow.listPending(limit);
  }

  check(...args: Parameters<ApprovalWorkflow['check']>): ReturnType<ApprovalWorkflow['check']> {
    return this.workflow.check(...args);
  }

  expireDue(): Promise<ApprovalRequest[]> {
    return this.workflow.expireDue();
  }

  auditTrail(
    ...args: Parameters<ApprovalWorkflow['auditTrail']>
  ): ReturnType<ApprovalWorkflow['auditTrail']> {
    return this.workflow.auditTrail(...args);
  }

  recoverAfterRestart(interruptedAfterMs?: number): ReturnType<ApprovalWorkflow['recoverAfterRestart']> {
    return this.workflow.recoverAfterRestart(interruptedAfterMs);
  }

  recoverInterrupted(interruptedAfterMs?: number): Promise<ApprovalRequest[]> {
    return this.workflow.recoverInterrupted(interruptedAfterMs);
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
    who: { userId: string; teamId?: string; channelId?: string },
    op: Extract<Operation, { kind: 'approval-decision' }>,
  ): Promise<DecisionOutcome> {
    const result = await this.run(
      {
        userId: who.userId,
        ...(who.teamId ? { teamId: who.teamId } : {}),
        channelId: who.channelId ?? '',
        asked: `${op.decision} request ${op.requestId}`,
        timeZone: this.timeZone,
        via: 'approval',
      },
      op,
    );
    if (result.ok && result.kind === 'approval-decision') return result.outcome;
    throw new Error(`the runner answered a decision with ${result.ok ? result.kind : result.message}`);
  }
}
