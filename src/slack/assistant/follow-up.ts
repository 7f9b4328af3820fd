import { storeFaultMessage } from '../../core/durable.js';
import { errText } from '../../log.js';
import type { Asked } from '../asked.js';
import type { Bot } from '../bot.js';
import { claimOnce } from '../kept.js';
import { followMessage, markCame, markMessage } from '../mentions/index.js';
import { type Audience, postInChannel, say } from '../reply.js';
import { greetingMessage } from './greeting.js';
import type { PaneMessageJob, PaneThreadJob } from './jobs.js';
import { suggestedPrompts } from './prompts.js';
import { readPaneMessage } from './reader.js';
import { followInPane, READING, setStatus, titleOnce } from './status.js';
import { keepThread, type PanePlace, type PaneThread, threadAt } from './threads.js';

/** How long a message read in the pane stays claimed: Slack's retries and a second replica run nothing. */
const READ_FOR_MS = 24 * 60 * 60_000;

/** How many of a person's latest flows the greeting's prompts are drawn from. */
const RECENT_FLOWS = 10;

/** The pane's thread, where everything only its person sees is said (commands typed without `/tsai`). */
function paneAudience(userId: string, p: PanePlace): Audience {
  return {
    userId,
    channelId: p.channelId,
    threadTs: p.threadTs,
    direct: true,
    typedOn: 'assistant',
    responseUrls: [],
  };
}

/**
 * A pane thread opened, or the channel its person views changed: the bot keeps which channel that is (the
 * place of their requests). A new thread is greeted, with prompts drawn from the registry and from what
 * the person did last.
 */
export async function followPaneThread(job: PaneThreadJob, bot: Bot): Promise<void> {
  const place: PanePlace = { teamId: job.teamId, channelId: job.channelId, threadTs: job.threadTs };
  await keepThread(bot, place, { userId: job.userId, ...(job.viewed ? { viewed: job.viewed } : {}) });
  if (job.event !== 'started') return;
  // The same start delivered again (under another event ID, or to another replica) is greeted once.
  const key = `assistant-greeted:${place.teamId ?? '-'}:${place.channelId}:${place.threadTs}`;
  if (!(await claimOnce(bot, key, READ_FOR_MS))) return;
  const recent = await bot.store
    .listTrackedFlows({
      ...(job.teamId ? { teamId: job.teamId } : {}),
      requesterId: job.userId,
      limit: RECENT_FLOWS,
    })
    .catch((e: unknown) => {
      bot.logger.info({ part: 'assistant', err: errText(e) }, 'could not read what the person did last');
      return [];
    });
  const prompts = suggestedPrompts(recent);
  await postInChannel(bot, paneAudience(job.userId, place), greetingMessage(job.userId, prompts, job.viewed));
  await bot.slack.assistant.threads
    .setSuggestedPrompts({ channel_id: place.channelId, thread_ts: place.threadTs, title: 'Try', prompts })
    .catch((e: unknown) =>
      bot.logger.info({ part: 'assistant', err: errText(e) }, 'could not suggest prompts in the pane'),
    );
}

/**
 * A message asked in a pane thread, as the one command path takes it: its person, the channel they view as
 * the place of the request (its defaults, the gate's channel, where changes and flows are announced), and
 * the pane's thread for what only they see. Without a viewed channel the pane's thread is the place, as
 * the Messages tab is.
 */
export function askedInPane(job: PaneMessageJob['message'], thread: PaneThread, p: PanePlace): Asked {
  const pane = paneAudience(job.userId, p);
  const viewed = thread.viewed?.channelId;
  return {
    text: job.text,
    userId: job.userId,
    ...(job.teamId ? { teamId: job.teamId } : {}),
    channelId: viewed ?? p.channelId,
    via: 'assistant',
    to: viewed
      ? {
          userId: job.userId,
          channelId: viewed,
          privately: { channelId: p.channelId, threadTs: p.threadTs, typedOn: 'assistant' },
          responseUrls: [],
        }
      : pane,
  };
}

/**
 * A message in a thread of the direct messages. In a pane thread of its writer: read once (Slack's
 * retries and other replicas run nothing; an edit is not read again), marked taken, the status line set
 * while it is read, the thread titled after its first request, then handed to the pane's reader; what came
 * of it marks the message, and a flow it started keeps the status line until it ends. Any other thread is
 * the Messages tab's, answered as it answers.
 */
export async function followPaneMessage(job: PaneMessageJob, bot: Bot): Promise<void> {
  const m = job.message;
  const place: PanePlace = { teamId: m.teamId, channelId: m.channelId, threadTs: m.threadTs! };
  const thread = await threadAt(bot, place);
  if (!thread || thread.userId !== m.userId) return followMessage(m, bot);
  const log = bot.logger.child({ part: 'assistant', user: m.userId, channel: m.channelId });
  if (m.editedTs) return void log.info('an edited message in the assistant pane; nothing is run again');
  try {
    if (!(await claimOnce(bot, `message:${m.teamId ?? '-'}:${m.channelId}:${m.ts}`, READ_FOR_MS)))
      return void log.info('a message read before, delivered again; nothing is run');
  } catch (e) {
    const message = storeFaultMessage(e);
    if (!message) throw e;
    log.warn({ err: errText(e) }, 'could not claim a message');
    return void (await say(bot, paneAudience(m.userId, place), message));
  }
  const message = { teamId: m.teamId, channelId: m.channelId, ts: m.ts };
  await markMessage(bot, message, 'taken');
  await setStatus(bot, place, READING);
  await titleOnce(bot, place, m.text);
  const came = await readPaneMessage(bot, askedInPane(m, thread, place));
  await markCame(bot, message, came);
  if (came.kind === 'started') await followInPane(bot, place, came.flowId);
  else await setStatus(bot, place, '');
}
