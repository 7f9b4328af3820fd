import type {
  BlockAction,
  ButtonAction,
  SlackActionMiddlewareArgs,
  SlackEventMiddlewareArgs,
} from '@slack/bolt';
import type { FollowUps } from '../runtime/jobs.js';
import { teamOf } from '../tenant.js';
import { HOME_ACTION } from './ids.js';

type Click = BlockAction<ButtonAction>;

/** Slack sends this on every visit, to either tab: only the Home tab is published, and debounced. */
export async function ackHomeOpened(
  { event, body }: Pick<SlackEventMiddlewareArgs<'app_home_opened'>, 'event' | 'body'>,
  followUps: Pick<FollowUps, 'run'>,
): Promise<void> {
  const teamId = teamOf(body);
  if (event.tab === 'messages' || typeof event.user !== 'string' || !teamId) return;
  const hash = (event.view as { hash?: unknown } | undefined)?.hash;
  followUps.run({
    kind: 'home-opened',
    userId: event.user,
    teamId,
    ...(typeof hash === 'string' ? { hash } : {}),
  });
}

/** A click in the Home tab: acked at once; decided after, exactly as on the request's card. */
export async function ackHomeDecision(
  { ack, body, action }: Pick<SlackActionMiddlewareArgs<Click>, 'ack' | 'body' | 'action'>,
  followUps: Pick<FollowUps, 'run'>,
): Promise<void> {
  await ack();
  const teamId = teamOf(body);
  followUps.run({
    kind: 'home-decision',
    action: action.action_id === HOME_ACTION.reject ? 'reject' : 'approve',
    requestId: typeof action.value === 'string' ? action.value : '',
    userId: body.user.id,
    ...(teamId ? { teamId } : {}),
    triggerId: body.trigger_id,
  });
}
