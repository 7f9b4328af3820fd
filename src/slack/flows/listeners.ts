import type { App, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { Routes } from '../routes.js';
import type { FollowUps } from '../runtime/jobs.js';
import { FLOW_ACTION } from './views.js';

type Click = BlockAction<ButtonAction>;
const CLICKS = new RegExp(`^(${Object.values(FLOW_ACTION).join('|')})$`);
/** What the flows answer (`registerFlows` registers exactly these). */
export const FLOW_ROUTES = { actions: CLICKS } satisfies Routes;

/** The next-step buttons under a finished flow. Their follow-up (`next-step.ts`) opens the form. */
export function registerFlows(app: App, followUps: FollowUps): void {
  app.action<Click>(FLOW_ROUTES.actions, (args) => ackNextStep(args, followUps));
}

/** Acked at once: the form must open within the click's trigger_id, 3 seconds. */
export async function ackNextStep(
  { ack, body, action }: Pick<SlackActionMiddlewareArgs<Click>, 'ack' | 'body' | 'action'>,
  followUps: Pick<FollowUps, 'run'>,
): Promise<void> {
  await ack();
  followUps.run({
    kind: 'flow-next',
    step: action.action_id === FLOW_ACTION.score ? 'score' : 'relearn',
    value: action.value ?? '',
    userId: body.user.id,
    ...((body.team?.id ?? body.user.team_id) ? { teamId: body.team?.id ?? body.user.team_id } : {}),
    triggerId: body.trigger_id,
    ...(body.channel?.id ? { channelId: body.channel.id } : {}),
    ...(body.response_url ? { responseUrl: body.response_url } : {}),
  });
}
