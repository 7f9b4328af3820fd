import type { BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { FollowUps } from '../runtime/jobs.js';
import { formOfFlowNext } from './views.js';

type Click = BlockAction<ButtonAction>;

/** Acked at once: the form must open within the click's trigger_id, 3 seconds. */
export async function ackNextStep(
  { ack, body, action }: Pick<SlackActionMiddlewareArgs<Click>, 'ack' | 'body' | 'action'>,
  followUps: Pick<FollowUps, 'run'>,
): Promise<void> {
  await ack();
  followUps.run({
    kind: 'flow-next',
    step: formOfFlowNext(action.action_id),
    value: action.value ?? '',
    userId: body.user.id,
    ...((body.team?.id ?? body.user.team_id) ? { teamId: body.team?.id ?? body.user.team_id } : {}),
    triggerId: body.trigger_id,
    ...(body.channel?.id ? { channelId: body.channel.id } : {}),
    ...(body.response_url ? { responseUrl: body.response_url } : {}),
  });
}
