import type { types } from '@slack/bolt';
import { isFixedRange, RELATIVE_RANGE_EXAMPLE, REPEAT_EXAMPLE } from '../../core/forms/repeat.js';
import { teamRecords } from '../../core/gate/team.js';
import { EXAMPLE_IDS } from '../../core/ids.js';
import { errText } from '../../log.js';
import { LIMITS } from '../../wire/block-kit.js';
import type { Bot } from '../bot.js';
import { type Audience, tellUser } from '../reply.js';
import { errorMessage } from '../views/messages.js';
import { REPEAT_FLOW } from '../views/schedule-actions.js';
import { askerOf, scheduleCommandLine } from './create.js';
import type { ScheduleJob } from './jobs.js';

/**
 * Where a "Run this every …" modal came from: the flow, the channel its schedule will post in, and the
 * thread the flow was asked in (a mention), where the new schedule is said.
 */
export interface RepeatMeta {
  flowId: string;
  channelId: string;
  threadTs?: string;
}

export function readRepeatMeta(text: string | undefined): RepeatMeta | undefined {
  try {
    const m = JSON.parse(text ?? '') as Partial<RepeatMeta>;
    return typeof m.flowId === 'string' && typeof m.channelId === 'string'
      ? {
          flowId: m.flowId,
          channelId: m.channelId,
          ...(typeof m.threadTs === 'string' ? { threadTs: m.threadTs } : {}),
        }
      : undefined;
  } catch {
    return undefined;
  }
}

/** The `range=` a command line gives, as typed, to tell a fixed past range from a relative one. */
function rangeTextOf(command: string): string | undefined {
  const m = /(?:^|\s)range=(?:"([^"]*)"|(\S+))/.exec(command);
  return m ? (m[1] ?? m[2]) : undefined;
}

const plain = (text: string): types.PlainTextElement => ({ type: 'plain_text', text, emoji: true });

/**
 * The small modal: when, and the command it repeats (editable, so a fixed range can be made relative
 * before it becomes a schedule). A fixed range is said in the command's hint, with a relative example.
 */
export function repeatModal(
  meta: RepeatMeta,
  command: string,
  o: { zone: string; now: number; locale?: string },
) {
  const range = rangeTextOf(command);
  const fixed = range !== undefined && isFixedRange(range, o);
  const hint = fixed
    ? `Its range, "${range}", names fixed dates, and every run would read that same past data: change it to a relative one, e.g. range="${RELATIVE_RANGE_EXAMPLE}", which each run reads as the hours before it.`
    : 'Each run reads this command again at its instant: "last 8 hours" means the 8 hours before each run.';
  const view: types.ModalView = {
    type: 'modal',
    callback_id: REPEAT_FLOW.callback,
    title: plain('Run this every …'),
    submit: plain('Schedule'),
    close: plain('Cancel'),
    private_metadata: JSON.stringify(meta),
    blocks: [
      {
        type: 'input',
        block_id: REPEAT_FLOW.whenBlock,
        label: plain('When'),
        hint: plain('As you would say it, in your zone: every Monday at 7 · every 8 hours · 0 6 * * 1-5'),
        element: {
          type: 'plain_text_input',
          action_id: REPEAT_FLOW.whenInput,
          initial_value: REPEAT_EXAMPLE,
          max_length: 120,
        },
      },
      {
        type: 'input',
        block_id: REPEAT_FLOW.commandBlock,
        label: plain('Command'),
        hint: plain(hint),
        element: {
          type: 'plain_text_input',
          action_id: REPEAT_FLOW.commandInput,
          initial_value: command.slice(0, LIMITS.inputMaxLength),
          multiline: true,
          max_length: LIMITS.inputMaxLength,
        },
      },
    ],
  };
  return view;
}

/** The click's follow-up: the flow's command line, read from the store, in the modal. */
export async function openRepeatModal(
  job: { userId: string; triggerId: string; flowId: string; channelId?: string; tenant?: string },
  bot: Bot,
): Promise<void> {
  // The flow of the clicker's tenant only: another's of the same ID is not theirs to repeat, or to read.
  const flow = await teamRecords(bot.store, job.tenant).flow(job.flowId);
  const to = { userId: job.userId, ...(job.channelId ? { channelId: job.channelId } : {}), responseUrls: [] };
  if (!flow) {
    const message =
      'The bot no longer knows that flow, so it cannot be scheduled from here: schedule its command instead.';
    const example = `/tsai schedule "${REPEAT_EXAMPLE}" score ${EXAMPLE_IDS.model} workspace=${EXAMPLE_IDS.workspace} range="${RELATIVE_RANGE_EXAMPLE}" prefix=shift`;
    await tellUser(
      bot,
      to,
      errorMessage({ ok: false, message, example }, { userId: job.userId, commandText: '' }),
    );
    return;
  }
  const a = flow.announcement;
  const threadTs = a?.kind === 'message' && a.channelId === flow.channelId ? a.threadTs : undefined;
  const [zone, { locale }] = await Promise.all([bot.zoneOf(job.userId), bot.users.lookup(job.userId)]);
  const view = repeatModal(
    { flowId: flow.flowId, channelId: flow.channelId, ...(threadTs ? { threadTs } : {}) },
    flow.asked.replace(/^\/tsai\s+/, ''),
    { zone, now: bot.now().getTime(), ...(locale ? { locale } : {}) },
  );
  try {
    await bot.slack.views.open({ trigger_id: job.triggerId, view });
  } catch (e) {
    bot.logger.warn({ user: job.userId, err: errText(e) }, 'the "Run this every" modal did not open');
  }
}

/** The modal sent (its "when" already read in the ack): the schedule, through the one schedule path. */
export async function createFromRepeatModal(
  job: Omit<Extract<ScheduleJob, { kind: 'schedule-repeat-create' }>, 'kind'>,
  bot: Bot,
): Promise<void> {
  const asker = await askerOf(bot, {
    userId: job.userId,
    ...(job.teamId ? { teamId: job.teamId } : {}),
    channelId: job.channelId,
  });
  const commandText = `/tsai ${job.commandText.replace(/^\/tsai\s+/, '').replace(/\s*\n\s*/g, ' ')}`;
  const to: Audience = {
    userId: job.userId,
    channelId: job.channelId,
    ...(job.threadTs ? { threadTs: job.threadTs, typedOn: 'mention' as const } : {}),
    responseUrls: [],
  };
  const made = await scheduleCommandLine(bot, asker, { whenText: job.whenText, commandText }, to);
  if (!made.ok) await tellUser(bot, to, errorMessage(made, { userId: job.userId, commandText }));
}
