import type { webApi } from '@slack/bolt';
import { errText, type Logger } from '../log.js';
import { postToResponseUrl } from './respond.js';
import type { MessageBody } from './views/messages.js';

/** Who an outcome is for, and the ways to reach them in the conversation they asked from. */
export interface Audience {
  userId: string;
  /** The channel (or DM) the person asked in; absent for a surface outside any conversation. */
  channelId?: string;
  /** response_urls that post into that channel, best first (a command's, a form's channel picker's). */
  responseUrls: string[];
}

export interface Replier {
  slack: webApi.WebClient;
  logger: Logger;
}

/**
 * Posts an outcome in the channel: through a response_url first (it works whether or not the bot is a
 * member), then `chat.postMessage`. False when nothing worked.
 */
export async function postInChannel(r: Replier, to: Audience, body: MessageBody): Promise<boolean> {
  for (const url of to.responseUrls) {
    try {
      await postToResponseUrl(url, { response_type: 'in_channel', replace_original: false, ...body });
      return true;
    } catch (e) {
      r.logger.info({ err: errText(e) }, 'response_url post failed; trying the next way');
    }
  }
  if (!to.channelId) return false;
  try {
    await r.slack.chat.postMessage({ channel: to.channelId, text: body.text, blocks: body.blocks });
    return true;
  } catch (e) {
    r.logger.warn({ err: errText(e), channel: to.channelId }, 'could not post in the channel');
    return false;
  }
}

/**
 * Tells only the person: ephemeral through a response_url, else ephemeral in the channel, else a direct
 * message from the app, so that what they asked is never answered by silence. False when nothing worked.
 */
export async function tellUser(r: Replier, to: Audience, body: MessageBody): Promise<boolean> {
  for (const url of to.responseUrls) {
    try {
      await postToResponseUrl(url, { response_type: 'ephemeral', replace_original: false, ...body });
      return true;
    } catch (e) {
      r.logger.info({ err: errText(e) }, 'response_url post failed; trying the next way');
    }
  }
  if (to.channelId) {
    try {
      await r.slack.chat.postEphemeral({
        channel: to.channelId,
        user: to.userId,
        text: body.text,
        blocks: body.blocks,
      });
      return true;
    } catch (e) {
      r.logger.info({ err: errText(e) }, 'ephemeral failed; sending a direct message');
    }
  }
  try {
    await r.slack.chat.postMessage({ channel: to.userId, text: body.text, blocks: body.blocks });
    return true;
  } catch (e) {
    r.logger.warn({ err: errText(e) }, 'could not reach the user');
    return false;
  }
}

/** A plain sentence to the person, through `tellUser`. */
export function say(r: Replier, to: Audience, text: string): Promise<boolean> {
  return tellUser(r, to, {
    text,
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text, verbatim: true } }],
  });
}
