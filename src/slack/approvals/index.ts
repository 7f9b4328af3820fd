import type { BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { type Feature, type Listener, listener } from '../feature.js';
import { exactly } from '../routes.js';
import { code } from '../views/mrkdwn.js';
import { APPROVAL_ACTION, REJECT_MODAL_CALLBACK } from './card.js';
import { ackApprovalClick, ackRejectReason } from './listeners.js';

export {
  approvalMessage,
  describeAction,
  type FollowedFlow,
  pendingListMessage,
  statusText,
} from './card.js';
export { type CardCopy, copiesOf, groupMembers } from './copies.js';

/** A request was filed: its card goes to the approvals channel (or the approvers), the requester gets a link. */
export async function announceRequest(
  ...args: Parameters<typeof import('./announce.js').announceRequest>
): Promise<void> {
  return (await import('./announce.js')).announceRequest(...args);
}

/** Requests the bot decided by itself (expired, or interrupted by a crash): their cards and requesters. */
export async function announceDecided(
  ...args: Parameters<typeof import('./present.js').announceDecided>
): Promise<void> {
  return (await import('./present.js')).announceDecided(...args);
}

/** The one way a clicked decision is taken, whichever surface showed the button (the card or a Home). */
export async function decideClick(...args: Parameters<typeof import('./follow-up.js').decideClick>) {
  return (await import('./follow-up.js')).decideClick(...args);
}

type Click = SlackActionMiddlewareArgs<BlockAction<ButtonAction>>;
const CLICKS = new RegExp(`^(${Object.values(APPROVAL_ACTION).join('|')})$`);

/** Approve, Reject and Retry on a request's card: decided after the ack, exactly once, in the store. */
const approvalClick: Listener = listener({
  match: { route: 'actions', ids: CLICKS },
  ack: (args, { followUps }) => ackApprovalClick(args as Click, followUps),
  followUps: {
    'approval-click': {
      run: async (job, bot) => (await import('./follow-up.js')).followApprovalClick(job, bot),
      // Reject asks for a reason in a form.
      opensView: (job) => job.action === 'reject',
      notice: (job) => ({
        userId: job.userId,
        ...(job.channelId ? { channelId: job.channelId } : {}),
        ...(job.responseUrl ? { responseUrl: job.responseUrl } : {}),
        what: `your ${job.action} click on request ${code(String(job.requestId))}`,
      }),
    },
  },
});

/** The reject-reason form: closed at once; the rejection is decided after. */
const rejectReason: Listener = listener({
  match: { route: 'viewSubmissions', ids: exactly(REJECT_MODAL_CALLBACK) },
  ack: (args, { followUps }) => ackRejectReason(args, followUps),
  followUps: {
    'approval-reject': {
      run: async (job, bot) => (await import('./follow-up.js')).followRejectReason(job, bot),
      notice: (job) => ({
        userId: job.userId,
        what: `your rejection of request ${code(String(job.requestId))}`,
      }),
    },
  },
});

/** Approvals: the buttons on a request's card, the reject-reason form, and expiry and recovery unasked. */
export const APPROVALS: Feature = {
  name: 'approvals',
  listeners: [approvalClick, rejectReason],
  background: async (bot) => (await import('./background.js')).startApprovalWork(bot),
};
