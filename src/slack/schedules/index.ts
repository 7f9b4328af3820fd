import type { BlockAction, ButtonAction, SlackActionMiddlewareArgs, SlashCommand } from '@slack/bolt';
import type { Bot } from '../bot.js';
import { type Feature, type Listener, listener } from '../feature.js';
import type { Audience } from '../reply.js';

/** `action_id`s of a schedule's approval card (kept here so the acking thread loads nothing more). */
const DECISION_OF: Record<string, 'approve' | 'reject' | 'revoke'> = {
  schedule_approve: 'approve',
  schedule_reject: 'reject',
  schedule_revoke: 'revoke',
};

type Click = SlackActionMiddlewareArgs<BlockAction<ButtonAction>>;

/** An approver's click on a schedule's card: acked at once, decided once in the store after. */
const decision: Listener = listener({
  match: { route: 'actions', ids: /^schedule_(approve|reject|revoke)$/ },
  ack: async (args, { followUps }) => {
    const { ack, body, action } = args as Click;
    await ack();
    const which = DECISION_OF[action.action_id];
    if (!which || !action.value) return;
    followUps.run({
      kind: 'schedule-decision',
      decision: which,
      scheduleId: action.value,
      userId: body.user.id,
      ...(body.team?.id ? { teamId: body.team.id } : {}),
      ...(body.channel?.id ? { channelId: body.channel.id } : {}),
      ...(body.message?.ts ? { messageTs: body.message.ts } : {}),
    });
  },
  followUps: {
    'schedule-decision': {
      run: async (job, bot) => (await import('./approval.js')).followScheduleDecision(job, bot),
      notice: (job) => ({
        userId: job.userId,
        ...(job.channelId ? { channelId: job.channelId } : {}),
        what: `your decision on a schedule`,
      }),
    },
  },
});

/** `/tsai schedule …`, `/tsai schedules`, `/tsai digest …`, handed over by the command's follow-up. */
export async function followScheduling(
  bot: Bot,
  read: { id: string; text: string },
  command: SlashCommand,
  to: Audience,
): Promise<void> {
  return (await import('./follow-up.js')).followScheduling(bot, read, command, to);
}

export { scheduleLine } from './views.js';

/**
 * Schedules and digests: recurring runs of any command, each planned run claimed once in the store and
 * run through the one path; the approval of a schedule of live starts or stops.
 */
export const SCHEDULES: Feature = {
  name: 'schedules',
  listeners: [decision],
  background: async (bot) => (await import('./background.js')).startScheduleWork(bot),
};
