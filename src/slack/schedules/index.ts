import type { BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { checkRepeat } from '../../core/forms/repeat.js';
import type { Asked } from '../asked.js';
import type { Bot } from '../bot.js';
import { type Feature, type Listener, listener } from '../feature.js';
import { exactly } from '../routes.js';
import { teamOf } from '../tenant.js';
import { REPEAT_FLOW } from '../views/schedule-actions.js';

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
      ...(teamOf(body) ? { teamId: teamOf(body)! } : {}),
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

/** "Run this every …" under a completed flow: acked at once, the modal opened with the flow's command after. */
const repeatClick: Listener = listener({
  match: { route: 'actions', ids: exactly(REPEAT_FLOW.action) },
  ack: async (args, { followUps }) => {
    const { ack, body, action } = args as Click;
    await ack();
    if (!action.value) return;
    followUps.run({
      kind: 'schedule-repeat-open',
      userId: body.user.id,
      triggerId: body.trigger_id,
      flowId: action.value,
      ...(body.channel?.id ? { channelId: body.channel.id } : {}),
    });
  },
  followUps: {
    'schedule-repeat-open': {
      run: async (job, bot) => (await import('./repeat-flow.js')).openRepeatModal(job, bot),
      opensView: () => true,
    },
  },
});

/** The "Run this every …" modal sent: its "when" read in the ack (an error under the field otherwise). */
const repeatSubmission: Listener = listener({
  match: { route: 'viewSubmissions', ids: exactly(REPEAT_FLOW.callback) },
  ack: async (args, { bot, followUps }) => {
    const { ack, body } = args as unknown as RepeatSubmission;
    const { readRepeatMeta } = await import('./repeat-flow.js');
    const meta = readRepeatMeta(body.view.private_metadata);
    const values = body.view.state.values;
    const whenText = values[REPEAT_FLOW.whenBlock]?.[REPEAT_FLOW.whenInput]?.value ?? '';
    const commandText = (values[REPEAT_FLOW.commandBlock]?.[REPEAT_FLOW.commandInput]?.value ?? '').trim();
    const errors: Record<string, string> = {};
    const zone = await bot.zoneOf(body.user.id);
    const when = checkRepeat(whenText, { zone, now: bot.now().getTime() });
    if (!when.ok) errors[REPEAT_FLOW.whenBlock] = when.error;
    if (!commandText)
      errors[REPEAT_FLOW.commandBlock] = 'Give the command to repeat, e.g. score … range="last 8 hours".';
    if (!meta)
      errors[REPEAT_FLOW.whenBlock] =
        'This form cannot be read (an older version of the bot may have opened it): close it and press the button again.';
    if (!when.ok || !meta || !commandText) return void (await ack({ response_action: 'errors', errors }));
    await ack();
    const teamId = teamOf(body);
    followUps.run({
      kind: 'schedule-repeat-create',
      userId: body.user.id,
      ...(teamId ? { teamId } : {}),
      channelId: meta.channelId,
      ...(meta.threadTs ? { threadTs: meta.threadTs } : {}),
      whenText: when.whenText,
      commandText,
    });
  },
  followUps: {
    'schedule-repeat-create': {
      run: async (job, bot) => (await import('./repeat-flow.js')).createFromRepeatModal(job, bot),
      notice: (job) => ({
        userId: job.userId,
        channelId: job.channelId,
        ...(job.threadTs ? { threadTs: job.threadTs, typedOn: 'mention' as const } : {}),
        what: 'your new schedule',
      }),
    },
  },
});

interface RepeatSubmission {
  ack: (r?: { response_action: 'errors'; errors: Record<string, string> }) => Promise<void>;
  body: {
    user: { id: string; team_id?: string };
    team?: { id: string } | null;
    view: {
      private_metadata?: string;
      state: { values: Record<string, Record<string, { value?: string | null }>> };
    };
  };
}

/** `schedule …`, `schedules`, `digest …` typed anywhere, handed over by the command path's follow-up. */
export async function followScheduling(
  bot: Bot,
  read: { id: string; text: string },
  asked: Asked,
): Promise<void> {
  return (await import('./follow-up.js')).followScheduling(bot, read, asked);
}

export { scheduleLine } from './views.js';

/**
 * Schedules and digests: recurring runs of any command, each planned run claimed once in the store and
 * run through the one path; the approval of a schedule of live starts or stops.
 */
export const SCHEDULES: Feature = {
  name: 'schedules',
  listeners: [decision, repeatClick, repeatSubmission],
  background: async (bot) => (await import('./background.js')).startScheduleWork(bot),
};
