import type { ApprovalRequest } from '../../store/index.js';

/** Configured approvers, for "ask one of …" (the surface renders them as mentions). */
export interface Approvers {
  users: string[];
  groups: string[];
}

/** A decision nobody may take: the rules say no, or the request is past deciding. */
export type Refusal =
  | { kind: 'not-found' }
  | { kind: 'not-approver'; request: ApprovalRequest; approvers: Approvers }
  | { kind: 'self-approval'; request: ApprovalRequest }
  /** Approving runs the flow with the approver's own identity, which they have not connected (or was turned down). */
  | { kind: 'connect-first'; request: ApprovalRequest; connect: 'connect' | 'reconnect'; message: string };

export type DecisionOutcome =
  | Refusal
  /** `expiredNow`: this click found it past its expiry and expired it (nobody has announced it yet). */
  | { kind: 'expired'; request: ApprovalRequest; expiredNow?: boolean }
  /** Someone else decided first: `request.status`, `decidedBy`, `decidedAt` (or `lastAttemptBy/At`). */
  | { kind: 'already-decided'; request: ApprovalRequest }
  | { kind: 'not-retryable'; request: ApprovalRequest }
  | { kind: 'rejected'; request: ApprovalRequest }
  | { kind: 'executed'; request: ApprovalRequest }
  /** Definitive error: approvers may Retry. */
  | { kind: 'failed'; request: ApprovalRequest; error: string }
  /** The flow may or may not exist: never retried automatically. */
  | { kind: 'outcome-unknown'; request: ApprovalRequest; error: string };

/** A request someone else moved on from pending: expired, or decided by another click. */
export function lost(current: ApprovalRequest, expiredNow = false): DecisionOutcome {
  if (current.status === 'expired') {
    return { kind: 'expired', request: current, ...(expiredNow ? { expiredNow } : {}) };
  }
  return { kind: 'already-decided', request: current };
}

/**
 * What a refused click is told, wherever it was clicked (the request's card, the Home tab): one
 * sentence, and whom to ask, which the surface renders after `askLead`.
 */
export interface RefusalText {
  message: string;
  askLead?: string;
  ask?: Approvers;
}

export function refusalText(outcome: DecisionOutcome, approvers: Approvers): RefusalText | undefined {
  switch (outcome.kind) {
    case 'not-found':
      return { message: 'This request is not known to this bot; nothing changed.' };
    case 'not-approver':
      return {
        message: 'You are not an approver for starting or stopping live models, so nothing changed.',
        askLead: 'Ask',
        ask: outcome.approvers,
      };
    case 'self-approval':
      return {
        message: 'You filed this request, so you cannot approve it yourself; nothing changed.',
        askLead: 'Ask another approver:',
        ask: approvers,
      };
    case 'connect-first':
      return {
        message: `${outcome.message} The request stays pending: once you are connected, click the same button again.`,
      };
    case 'not-retryable':
      return {
        message: `This request cannot be retried (it is ${outcome.request.status}); nothing changed.`,
      };
    default:
      return undefined;
  }
}
