import { errText } from '../../log.js';
import { asTyped } from '../asked.js';
import type { Bot } from '../bot.js';
import type { Change } from '../changes.js';
import { claimOnce, keepFor, keptValue } from '../kept.js';
import { postInChannel } from '../reply.js';
import { code, escapeMrkdwn, section, shorten } from '../views/mrkdwn.js';
import type { PanePlace } from './threads.js';

/** What the pane's status line says while the bot reads and answers a message. */
export const READING = 'is reading your request…';
/** The status line while a flow started from the pane runs, cleared at its end. */
export const following = (flowId: string) => `is following flow ${flowId}…`;

/** A thread's title: the first request asked in it, as typed (tokens masked), short. */
const TITLE_MAX = 80;

/** How long a flow started from the pane is remembered for its end to clear the pane's status. */
const FOLLOWED_FOR_MS = 14 * 24 * 60 * 60_000;

const threadKey = (p: PanePlace) => `${p.teamId ?? '-'}:${p.channelId}:${p.threadTs}`;
const flowKey = (teamId: string | null | undefined, flowId: string) =>
  `assistant-flow:${teamId ?? '-'}:${flowId}`;

/** Logs what Slack refused of the pane's own calls: the answer itself goes on. */
function warnOf(bot: Bot, what: string) {
  return (e: unknown) => bot.logger.info({ part: 'assistant', err: errText(e) }, `could not ${what}`);
}

/** The status line under the pane's thread (an empty one clears it). Never throws. */
export async function setStatus(bot: Bot, p: PanePlace, status: string): Promise<void> {
  await bot.slack.assistant.threads
    .setStatus({ channel_id: p.channelId, thread_ts: p.threadTs, status })
    .catch(warnOf(bot, 'set the assistant status'));
}

/** Titles the thread after the first request asked in it, once. Never throws. */
export async function titleOnce(bot: Bot, p: PanePlace, text: string): Promise<void> {
  try {
    if (!(await claimOnce(bot, `assistant-title:${threadKey(p)}`, FOLLOWED_FOR_MS))) return;
    const title = shorten(asTyped('assistant', text), TITLE_MAX) || 'help';
    await bot.slack.assistant.threads.setTitle({ channel_id: p.channelId, thread_ts: p.threadTs, title });
  } catch (e) {
    warnOf(bot, 'title the assistant thread')(e);
  }
}

/** A flow started from the pane: its status line says so until the flow ends (`paneFlowEnded`). */
export async function followInPane(bot: Bot, p: PanePlace, flowId: string): Promise<void> {
  await keepFor(bot, flowKey(p.teamId, flowId), p, FOLLOWED_FOR_MS).catch(
    warnOf(bot, 'remember a flow started from the assistant pane'),
  );
  const f = await bot.store.getTrackedFlow({ teamId: p.teamId, flowId }).catch(() => null);
  // Ended already (a quick flow): nothing to follow.
  if (f?.finishedAt) return setStatus(bot, p, '');
  await setStatus(bot, p, following(flowId));
}

/**
 * A flow ended (announced once, changes.ts): the pane it was started from stops saying it follows it and,
 * when the flow was announced elsewhere (the channel the person views), says how it ended and where its
 * results are. Never throws, never waits.
 */
export function paneFlowEnded(bot: Bot, change: Change): void {
  const flowId = change.flowEnded;
  if (!flowId) return;
  void (async () => {
    const p = await keptValue<PanePlace>(bot, flowKey(change.teamId, flowId));
    if (!p) return;
    await setStatus(bot, p, '');
    const f = await bot.store.getTrackedFlow({ teamId: change.teamId, flowId });
    const a = f?.announcement;
    if (!f || a?.kind !== 'message' || a.channelId === p.channelId) return;
    // The end is told before the store shows it: its status comes with the change.
    const status = change.flowStatus ?? f.status;
    const text = `Flow ${code(flowId)} ended: *${escapeMrkdwn(status)}*. Its results are in the thread of its announcement in <#${a.channelId}>.`;
    await postInChannel(
      bot,
      { userId: f.requesterId, channelId: p.channelId, threadTs: p.threadTs, direct: true, responseUrls: [] },
      { text, blocks: [section(text)] },
    );
  })().catch(warnOf(bot, 'tell the assistant pane that its flow ended'));
}
