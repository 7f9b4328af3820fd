import { errText } from '../log.js';
import type { Bot } from './bot.js';
import { postToResponseUrl } from './respond.js';
import { slackFailure } from './slack-errors.js';
import { section } from './views/mrkdwn.js';

/** Slack's answers that mean the bot is not in the channel (a private one shows the bot nothing at all). */
const NOT_IN_CHANNEL = new Set(['not_in_channel', 'channel_not_found']);

/** Whether a refused post says the bot is not a member of the channel. */
export function isNotInChannel(e: unknown): boolean {
  return NOT_IN_CHANNEL.has(slackFailure(e).error);
}

/** Where the message went instead of the channel, which decides what the person gets meanwhile. */
export type Fallback =
  | { kind: 'response-url'; url: string }
  | { kind: 'dm'; channelId: string }
  | { kind: 'dm-digest'; channelId: string }
  /** The bot was mentioned in a channel it is not in: answered where Slack lets it, and told how to invite it. */
  | { kind: 'mention'; channelId: string };

/** What the person is told, once, when something of theirs could not be posted in the channel for want of the bot. */
export function inviteHintText(fallback: Fallback): string {
  if (fallback.kind === 'response-url')
    return "I'm not in this channel, so I posted your flow here through your command's reply link. Meanwhile its status does not change in place and it gets no thread: when it ends, you get one new message here (by direct message if that is more than 30 minutes away). For live status and a thread for each flow, type `/invite @tsai` in this channel.";
  if (fallback.kind === 'mention')
    return `You mentioned me in <#${fallback.channelId}>, where I'm not a member: Slack passes me mentions only from conversations I'm in, and I cannot answer you there privately, so what only you should see comes to you here. To ask me in <#${fallback.channelId}> and its threads, type \`/invite @tsai\` there.`;
  if (fallback.kind === 'dm-digest')
    return `I'm not in <#${fallback.channelId}>, so I sent its digest to you here instead, and will go on doing so; nobody in <#${fallback.channelId}> sees it. To have it posted there, type \`/invite @tsai\` in <#${fallback.channelId}>.`;
  return `I'm not in <#${fallback.channelId}>, so I sent your flow to you here instead. Meanwhile its status changes in place in this conversation and its end comes in its thread, but nobody in <#${fallback.channelId}> sees it. For live status and threads there, type \`/invite @tsai\` in <#${fallback.channelId}>.`;
}

/**
 * Tells the person, once per channel, that inviting the bot there gives live status and threads (or the
 * channel its digest), and what they get meanwhile: privately through the response_url the flow went by (one of its uses), or by direct
 * message beside the flow. Remembered in the store, so every replica tells it once. True when it used the
 * response_url. A hint that cannot be sent is logged and left: the flow itself was announced.
 */
export async function tellInviteOnce(
  bot: Bot,
  who: { userId: string; channelId: string },
  fallback: Fallback,
): Promise<boolean> {
  // A digest's hint says something a flow's does not (it keeps coming by direct message): told apart.
  const about = fallback.kind === 'dm-digest' ? ':digest' : fallback.kind === 'mention' ? ':mention' : '';
  const key = `invite-hint:${who.channelId}:${who.userId}${about}`;
  try {
    if (await bot.store.getState(key)) return false;
    await bot.store.setState(key, { at: bot.now().getTime() }, bot.now().getTime());
    const text = inviteHintText(fallback);
    const body = { text, blocks: [section(text)] };
    if (fallback.kind === 'response-url') {
      await postToResponseUrl(fallback.url, { response_type: 'ephemeral', replace_original: false, ...body });
      return true;
    }
    await bot.slack.chat.postMessage({ channel: who.userId, ...body });
  } catch (e) {
    bot.logger.info({ err: errText(e), channel: who.channelId }, 'could not tell how to invite the bot');
  }
  return false;
}
