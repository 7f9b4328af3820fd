import type {
  App,
  BlockAction,
  ButtonAction,
  SlackActionMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import { exactly, type Routes } from '../routes.js';
import type { FollowUps } from '../runtime/jobs.js';
import { APPROVAL_ACTION, REJECT_MODAL_CALLBACK, REJECT_REASON_ACTION, REJECT_REASON_BLOCK } from './card.js';

type Click = BlockAction<ButtonAction>;
const CLICKS = new RegExp(`^(${Object.values(APPROVAL_ACTION).join('|')})$`);
/** What the approvals answer (`registerApprovals` registers exactly these). */
export const APPROVAL_ROUTES = {
  actions: CLICKS,
  viewSubmissions: exactly(REJECT_MODAL_CALLBACK),
} satisfies Routes;
const ACTION_OF: Record<string, 'approve' | 'reject' | 'retry'> = {
  [APPROVAL_ACTION.approve]: 'approve',
  [APPROVAL_ACTION.reject]: 'reject',
  [APPROVAL_ACTION.retry]: 'retry',
};

/**
 * Approve, Reject and Retry on a request's message (one listener: Bolt runs every listener's middleware on
 * every request), and the reject-reason form. Their follow-ups are in `follow-up.ts`.
 */
export function registerApprovals(app: App, followUps: FollowUps): void {
  app.action<Click>(APPROVAL_ROUTES.actions, (args) => ackApprovalClick(args, followUps));
  app.view<ViewSubmitAction>(
    { callback_id: APPROVAL_ROUTES.viewSubmissions, type: 'view_submission' },
    (args) => ackRejectReason(args, followUps),
  );
}

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
    ...(body.team?.id ? { teamId: body.team.id } : {}),
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
    ...(body.team?.id ? { teamId: body.team.id } : {}),
    ...(reason ? { reason } : {}),
  });
}
