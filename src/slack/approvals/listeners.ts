import type {
  BlockAction,
  ButtonAction,
  SlackActionMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import type { FollowUps } from '../runtime/jobs.js';
import { teamOf } from '../tenant.js';
import { APPROVAL_ACTION, REJECT_REASON_ACTION, REJECT_REASON_BLOCK } from './card.js';

type Click = BlockAction<ButtonAction>;
const ACTION_OF: Record<string, 'approve' | 'reject' | 'retry'> = {
  [APPROVAL_ACTION.approve]: 'approve',
  [APPROVAL_ACTION.reject]: 'reject',
  [APPROVAL_ACTION.retry]: 'retry',
};

/** A button click: acked at once; the decision is taken after, exactly once, in the store. */
export async function ackApprovalClick(
  { ack, body, action }: Pick<SlackActionMiddlewareArgs<Click>, 'ack' | 'body' | 'action'>,
  followUps: Pick<FollowUps, 'run'>,
): Promise<void> {
  await ack();
  const which = ACTION_OF[action.action_id];
  if (!which) return;
  followUps.run({
    kind: 'approval-click',
    action: which,
    requestId: action.value ?? '',
    userId: body.user.id,
    ...(teamOf(body) ? { teamId: teamOf(body)! } : {}),
    ...(body.channel?.id ? { channelId: body.channel.id } : {}),
    ...(body.response_url ? { responseUrl: body.response_url } : {}),
    triggerId: body.trigger_id,
  });
}

/** The reject-reason form: closed at once; the rejection is decided after. */
export async function ackRejectReason(
  { ack, body, view }: Pick<SlackViewMiddlewareArgs<ViewSubmitAction>, 'ack' | 'body' | 'view'>,
  followUps: Pick<FollowUps, 'run'>,
): Promise<void> {
  await ack();
  const reason = view.state.values[REJECT_REASON_BLOCK]?.[REJECT_REASON_ACTION]?.value ?? undefined;
  followUps.run({
    kind: 'approval-reject',
    requestId: view.private_metadata,
    userId: body.user.id,
    ...(teamOf(body) ? { teamId: teamOf(body)! } : {}),
    ...(reason ? { reason } : {}),
  });
}
