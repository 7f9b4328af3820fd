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
  | { kind: 'self-approval'; request: ApprovalRequest; approvers: Approvers }
  /** Approving runs the flow with the approver's own identity, which they have not connected (or was turned down). */
  | { kind: 'connect-first'; request: ApprovalRequest; connect: 'connect' | 'reconnect'; message: string }
  /** The gate refused the decider (their Slack standing): nothing changed. */
  | { kind: 'refused'; message: string };

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

/** A workspace as a card or a refusal names it: its name when known, else its ID. */
export function workspaceLabel(w: { id: string; name: string | null }): string {
  return w.name ? `"${w.name}" (${w.id})` : w.id;
}

/** Who decides a request, as its card says: the rule that applied when it was filed. */
export function approversRuleText(
  request: Pick<ApprovalRequest, 'approversWorkspace' | 'approversStrictest'>,
): string {
  if (request.approversWorkspace)
    return `approvers for workspace ${workspaceLabel(request.approversWorkspace)}`;
  if (request.approversStrictest)
    return "only someone who approves for the bot and for every workspace with approvers of its own (the model's workspace is not known)";
  return "the bot's approvers";
}

/** Where the bot looked for a model before saying it has never seen it. */
const LOOKED_IN =
  'the answers the service gave in this Slack workspace: common-model lookups, the flows the bot followed, workspace reads and moves';

/**
 * What the bot could not vouch for in a request's model, for the requester and the card alike; undefined
 * when the service said where the model is.
 */
export function modelDoubtText(request: Pick<ApprovalRequest, 'modelId' | 'modelDoubt'>): string | undefined {
  const m = request.modelId;
  switch (request.modelDoubt) {
    case 'unseen':
      return `The bot has never seen model ${m}: it looked in ${LOOKED_IN}, and none named it.`;
    case 'no-workspace':
      return `The bot has seen model ${m}, but the service never said which workspace holds it (it looked in ${LOOKED_IN}).`;
    default:
      return undefined;
  }
}

/** What approvers can check before deciding on a model the bot cannot vouch for. */
export const MODEL_DOUBT_CHECK =
  "Approvers can check in the service's user interface that the model exists, which workspace holds it and that it is the one meant, before approving.";

/**
 * What someone who may not decide is told, for a request and a schedule alike: not one of the approvers
 * its rule names, or its requester approving their own. The surface renders `ask` after `askLead`.
 */
export function deciderRefusalText(
  kind: 'not-approver' | 'self-approval',
  rule: Pick<ApprovalRequest, 'approversWorkspace' | 'approversStrictest'>,
  what: 'request' | 'schedule',
  ask: Approvers,
): RefusalText {
  if (kind === 'self-approval')
    return {
      message:
        what === 'request'
          ? 'You filed this request, so you cannot approve it yourself; nothing changed.'
          : 'You made this schedule, so you cannot approve it yourself; nothing changed.',
      askLead: 'Ask another approver:',
      ask,
    };
  return {
    message: rule.approversWorkspace
      ? `You are not one of the approvers for workspace ${workspaceLabel(rule.approversWorkspace)}, who decide this ${what}, so nothing changed.`
      : rule.approversStrictest
        ? `The bot does not know which workspace holds this ${what}'s model, so only someone who approves for the bot and for every workspace with approvers of its own decides it. You are not, so nothing changed.`
        : 'You are not an approver for starting or stopping live models, so nothing changed.',
    askLead: 'Ask',
    ask,
  };
}

export function refusalText(outcome: DecisionOutcome): RefusalText | undefined {
  switch (outcome.kind) {
    case 'not-found':
      return { message: 'This request is not known to this bot; nothing changed.' };
    case 'not-approver':
    case 'self-approval':
      return deciderRefusalText(outcome.kind, outcome.request, 'request', outcome.approvers);
    case 'connect-first':
      return {
        message: `${outcome.message} The request stays pending: once you are connected, click the same button again.`,
      };
    case 'refused':
      return { message: outcome.message };
    case 'not-retryable':
      return {
        message: `This request cannot be retried (it is ${outcome.request.status}); nothing changed.`,
      };
    default:
      return undefined;
  }
}
