import type { types } from '@slack/bolt';
import {
  approversRuleText,
  FLOW_TYPE,
  MODEL_DOUBT_CHECK,
  modelDoubtText,
} from '../../core/approvals/index.js';
import type { ApprovalRequest, ApprovalStatus } from '../../core/records.js';
import { type MessageBody, plainMessage } from '../views/messages.js';
import {
  button,
  code,
  context,
  escapeMrkdwn,
  fieldsSection,
  type KnownBlock,
  limitBlocks,
  mention,
  plural,
  section,
  shorten,
  slackTime,
} from '../views/mrkdwn.js';

/** action_ids of the request message's buttons; the button value is the request ID. */
export const APPROVAL_ACTION = {
  approve: 'approval_approve',
  reject: 'approval_reject',
  retry: 'approval_retry',
} as const;

/** callback_id of the reject-reason modal; private_metadata is the request ID. */
export const REJECT_MODAL_CALLBACK = 'approval_reject_reason';
export const REJECT_REASON_BLOCK = 'reject_reason';
export const REJECT_REASON_ACTION = 'reason';

const VERB: Record<'start' | 'stop', string> = { start: 'start', stop: 'stop' };

const STATUS_LINE: Record<ApprovalStatus, string> = {
  pending: ':hourglass_flowing_sand: Waiting for approval',
  executing: ':gear: Approved, creating the flow…',
  executed: ':white_check_mark: Approved and executed',
  failed: ':x: Approved, but the flow could not be created',
  refused: ':x: Approved, but the service turned the flow down',
  unknown: ':grey_question: Approved, outcome unknown',
  rejected: ':no_entry_sign: Rejected',
  expired: ':hourglass: Expired',
};

/** What is being asked, one line: "start live model `1070…` (assessment `1060…`)". */
export function describeAction(r: ApprovalRequest): string {
  const assessment = r.assessmentId ? ` (common model of assessment ${code(r.assessmentId)})` : '';
  return `${VERB[r.action]} live model ${code(r.modelId)}${assessment}`;
}

/**
 * The request message in every state; pending has Approve/Reject, failed has Retry (approvers only act).
 * `flow`: the created flow as the bot follows it, so the card says when the model is live or stopped.
 */
export function approvalMessage(r: ApprovalRequest, flow?: FollowedFlow): MessageBody {
  const headline = `${mention(r.requesterId)} asks to ${describeAction(r)}.`;
  const fields = [
    `*Requested by*\n${mention(r.requesterId)}`,
    `*Action*\n${FLOW_TYPE[r.action]}`,
    `*Model*\n${code(r.modelId)}`,
  ];
  if (r.assessmentId) fields.push(`*Assessment*\n${code(r.assessmentId)}`);
  if (r.reason) fields.push(`*Reason*\n${escapeMrkdwn(r.reason)}`);
  fields.push(`*Approvers*\n${escapeMrkdwn(approversRuleText(r))}`);
  if (r.status === 'pending') fields.push(`*Expires*\n${slackTime(r.expiresAt)}`);

  const blocks: KnownBlock[] = [section(headline), ...fieldsSection(fields)];
  const doubt = modelDoubtText(r);
  if (doubt) blocks.push(section(`:warning: ${escapeMrkdwn(doubt)} ${escapeMrkdwn(MODEL_DOUBT_CHECK)}`));
  const status = statusText(r, flow);
  blocks.push(section(status));
  if (r.status === 'pending') {
    blocks.push({
      type: 'actions',
      block_id: 'approval_actions',
      elements: [
        button('Approve', APPROVAL_ACTION.approve, r.id, 'primary'),
        button('Reject', APPROVAL_ACTION.reject, r.id, 'danger'),
      ],
    });
  } else if (r.status === 'failed') {
    blocks.push({
      type: 'actions',
      block_id: 'approval_actions',
      elements: [button('Retry', APPROVAL_ACTION.retry, r.id, 'primary')],
    });
  }
  blocks.push(context(`Request ${code(r.id)} · filed ${slackTime(r.createdAt)}`));
  return {
    text: `${STATUS_LINE[r.status].replace(/^:[a-z_]+: /, '')}: ${mention(r.requesterId)} asks to ${VERB[r.action]} live model ${r.modelId}`,
    blocks: limitBlocks(blocks),
  };
}

/** A service error, escaped and short enough that the guidance after it is never truncated away. */
function errorText(error: string | null): string {
  return escapeMrkdwn(shorten(error ?? '', 1000));
}

/** The state line under the facts: who decided when, and the flow or the error. */
export function statusText(r: ApprovalRequest, flow?: FollowedFlow): string {
  const line = `*${STATUS_LINE[r.status]}*`;
  const by = r.decidedBy ? ` by ${mention(r.decidedBy)}` : '';
  const when = r.decidedAt ? ` at ${slackTime(r.decidedAt, '{time}')}` : '';
  switch (r.status) {
    case 'pending':
      return `${line}. Approvers: press Approve or Reject.`;
    case 'executing':
      return `${line}${by}${when}.`;
    case 'executed':
      return `${line}${by}${when}.\n*Flow* ${code(r.flowId ?? '?')} · *Status* ${escapeMrkdwn(flow?.status ?? r.flowStatus ?? 'unknown')}${flowEnd(r, flow)}`;
    case 'failed':
      return `${line}${by}${when}.\n${errorText(r.error)}\nAn approver may press Retry.`;
    case 'refused':
      return `${line}${by}${when}.\n${errorText(r.error)}\nRetrying would be turned down the same way, so this request is closed: once the cause is fixed, file a new one with \`/tsai live ${r.action} ${r.modelId}\`.`;
    case 'unknown':
      return `${line}${by}${when}.\n${errorText(r.error)}\nThe flow may or may not exist: check the service's Activity view before filing a new request. This request is not retried.`;
    case 'rejected':
      return `${line}${by}${when}.${r.rejectReason ? `\n*Reason:* ${escapeMrkdwn(r.rejectReason)}` : ''}`;
    case 'expired':
      return `${line}: nobody decided before ${slackTime(r.expiresAt)}. File a new request if it is still needed.`;
  }
}

/** The part of a followed flow the card shows. */
export interface FollowedFlow {
  status: string;
  endReason: string | null;
  failure: string | null;
}

/** What the end of the flow means for the model, once the bot has seen it. */
function flowEnd(r: ApprovalRequest, flow: FollowedFlow | undefined): string {
  if (flow?.endReason !== 'ended') return '';
  if (flow.status.toUpperCase() === 'COMPLETED')
    return `\n:white_check_mark: Model ${code(r.modelId)} is now ${r.action === 'start' ? 'live' : 'stopped'}.`;
  return `\n:x: The flow ended ${escapeMrkdwn(flow.status)}${flow.failure ? `: ${errorText(flow.failure)}` : ''}. The model was not ${r.action === 'start' ? 'started' : 'stopped'}.`;
}

/** The thread reply that tells the requester what happened. */
export function requesterNotice(r: ApprovalRequest): string {
  const who = mention(r.requesterId);
  const by = r.decidedBy ? ` by ${mention(r.decidedBy)}` : '';
  const what = `your request to ${describeAction(r)}`;
  switch (r.status) {
    case 'executed':
      return `${who} ${what} was approved${by}: flow ${code(r.flowId ?? '?')} (${escapeMrkdwn(r.flowStatus ?? 'unknown')}).`;
    case 'failed':
      return `${who} ${what} was approved${by}, but the flow could not be created: ${errorText(r.error)}`;
    case 'refused':
      return `${who} ${what} was approved${by}, but the service turned the flow down: ${errorText(r.error)} Once the cause is fixed, file a new request.`;
    case 'unknown':
      return `${who} ${what} was approved${by}; the outcome is unknown: ${errorText(r.error)}`;
    case 'rejected':
      return `${who} ${what} was rejected${by}.${r.rejectReason ? ` Reason: ${escapeMrkdwn(r.rejectReason)}` : ''}`;
    case 'expired':
      return `${who} ${what} expired before anyone decided.`;
    default:
      return `${who} ${what} is ${r.status}.`;
  }
}

/** "already approved by @bob at 10:42" and friends, for clicks that change nothing. */
export function alreadyDecidedText(r: ApprovalRequest): string {
  const at = (ms: number | null) => (ms ? ` at ${slackTime(ms, '{time}')}` : '');
  switch (r.status) {
    case 'expired':
      return `This request expired at ${slackTime(r.expiresAt)}; nothing was done.`;
    case 'rejected':
      return `This request was already rejected by ${mention(r.decidedBy ?? '?')}${at(r.decidedAt)}.`;
    case 'failed':
      return `This request was already approved by ${mention(r.decidedBy ?? '?')}${at(r.decidedAt)}; creating the flow failed (an approver may Retry).`;
    case 'refused':
      return `This request was already approved by ${mention(r.decidedBy ?? '?')}${at(r.decidedAt)}; the service turned the flow down, so it is not retried. File a new request once the cause is fixed.`;
    case 'executing':
      if (r.attempts > 1 && r.lastAttemptBy)
        return `${mention(r.lastAttemptBy)} is already retrying this request (since ${slackTime(r.lastAttemptAt ?? r.decidedAt ?? 0, '{time}')}).`;
      return `This request was already approved by ${mention(r.decidedBy ?? '?')}${at(r.decidedAt)}; the flow is being created.`;
    case 'pending':
      return 'This request is still pending.';
    default:
      return `This request was already approved by ${mention(r.decidedBy ?? '?')}${at(r.decidedAt)}.`;
  }
}

/** The small modal asking for an optional reject reason. */
export function rejectReasonModal(r: ApprovalRequest): types.ModalView {
  return {
    type: 'modal',
    callback_id: REJECT_MODAL_CALLBACK,
    private_metadata: r.id,
    title: { type: 'plain_text', text: 'Reject request' },
    submit: { type: 'plain_text', text: 'Reject' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      section(`Reject ${mention(r.requesterId)}'s request to ${describeAction(r)}?`),
      {
        type: 'input',
        block_id: REJECT_REASON_BLOCK,
        optional: true,
        label: { type: 'plain_text', text: 'Reason' },
        element: {
          type: 'plain_text_input',
          action_id: REJECT_REASON_ACTION,
          multiline: true,
          max_length: 500,
          placeholder: { type: 'plain_text', text: 'Why not, or what to do instead' },
        },
      },
    ],
  };
}

/**
 * `/tsai approvals`: pending requests, ephemeral. `everyone`: the asker is one of the bot's approvers and
 * sees all of them; anyone else sees the requests they filed or may decide.
 */
export function pendingListMessage(requests: ApprovalRequest[], everyone = true): MessageBody {
  if (requests.length === 0) {
    const none = everyone
      ? 'No pending approval requests.'
      : "You have no pending approval requests, and none waits for your decision. Only the bot's approvers see everyone's requests.";
    return { text: none, blocks: [section(none)] };
  }
  const whose = everyone ? '' : ' that you filed or may decide';
  const count = plural(requests.length, 'pending approval request');
  const blocks: KnownBlock[] = [section(`*${count}${whose}*`)];
  for (const r of requests) {
    blocks.push(
      section(
        `${code(r.id)} ${mention(r.requesterId)} asks to ${describeAction(r)} in <#${r.approvalsChannelId}>` +
          `${r.reason ? ` — ${escapeMrkdwn(r.reason)}` : ''}\nExpires ${slackTime(r.expiresAt)}`,
      ),
    );
  }
  return { text: count, blocks: limitBlocks(blocks) };
}

/** The plain version of a card, which has no buttons: it says where they are. */
export function withHomeHint(card: MessageBody): MessageBody {
  const plain = plainMessage(card);
  return {
    text: plain.text,
    blocks: [...plain.blocks, context('Approve or Reject it in the bot’s Home tab.')],
  };
}
