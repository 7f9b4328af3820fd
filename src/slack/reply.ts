import type { webApi } from '@slack/bolt';
import { errText, type Logger } from '../log.js';
import { inSpan } from '../tracing/trace.js';
import { postToResponseUrl } from './respond.js';
import { slackFailure } from './slack-errors.js';
import { type MessageBody, plainMessage } from './views/messages.js';
import type { KnownBlock } from './views/mrkdwn.js';
import { type TypedOn, writtenFor } from './views/typed-commands.js';

/** Who an outcome is for, and the ways to reach them in the conversation they asked from. */
export interface Audience {
  userId: string;
  /** The channel (or DM) the person asked in; absent for a surface outside any conversation. */
  channelId?: string;
  /**
   * The thread they asked in (a mention of the bot): what is said in the channel is a reply in it, and
   * what only they may see is shown to them alone in it.
   */
  threadTs?: string;
  /**
   * Their message starts that thread (a mention at the top of a channel): what only they may see is shown
   * in the channel, where they are looking, since an ephemeral inside a thread nobody opened is never seen.
   */
  startsThread?: boolean;
  /** The conversation is their direct messages with the bot: what only they may see is said there plainly. */
  direct?: boolean;
  /**
   * Where what only they may see is said when that is not the conversation things are announced in: their
   * thread in the assistant pane, while the channel they view is where changes and flows are posted.
   */
  privately?: Omit<Audience, 'userId' | 'responseUrls' | 'privately'>;
  /**
   * How commands are typed where they read (a mention's thread, the Messages tab): the commands a message
   * quotes are written so (`writtenFor`); absent: as the slash command.
   */
  typedOn?: TypedOn;
  /** response_urls that post into that channel, best first (a command's, a form's channel picker's). */
  responseUrls: string[];
}

/** Where in the channel an answer goes: under the thread asked in, when there is one. */
const inThread = (to: Audience) => (to.threadTs ? { thread_ts: to.threadTs } : {});

/** Where what only the person sees goes: in the thread asked in, unless their message only starts it. */
const privatelyInThread = (to: Audience) => (to.startsThread ? {} : inThread(to));

export interface Replier {
  slack: webApi.WebClient;
  logger: Logger;
}

/**
 * Sends `body` one way; when Slack refuses the message itself (`invalid_blocks`, `msg_too_long`), the
 * same way again with its plain, shorter version (`plain`, by default `plainMessage(body)`), so that the
 * outcome still reaches the person. Any other failure is the caller's, to try the next way.
 */
export async function sendOrPlain<T>(
  r: Replier,
  body: MessageBody,
  send: (b: MessageBody) => Promise<T>,
  plain?: MessageBody,
): Promise<T> {
  // Every reply passes here: in a request's trace, one `slack.reply` span holds the Web API call (and its
  // plain second try).
  return inSpan(
    'slack.reply',
    {},
    async () => {
      try {
        return await send(body);
      } catch (e) {
        if (slackFailure(e).kind !== 'content') throw e;
        r.logger.warn({ err: errText(e) }, 'Slack refused a message; sending it shorter, as plain text');
        return await send(plain ?? plainMessage(body));
      }
    },
    { inTraceOnly: true },
  );
}

/** Posts through the command's response_urls in turn until one takes it; false when none did. */
async function viaResponseUrls(
  r: Replier,
  to: Audience,
  body: MessageBody,
  responseType: 'in_channel' | 'ephemeral',
): Promise<boolean> {
  for (const url of to.responseUrls) {
    try {
      await sendOrPlain(r, body, (b) =>
        postToResponseUrl(url, { response_type: responseType, replace_original: false, ...b }),
      );
      return true;
    } catch (e) {
      r.logger.info({ err: errText(e) }, 'response_url post failed; trying the next way');
    }
  }
  return false;
}

/**
 * Posts an outcome in the channel: through a response_url first (it works whether or not the bot is a
 * member), then `chat.postMessage`. False when nothing worked.
 */
export async function postInChannel(r: Replier, to: Audience, shown: MessageBody): Promise<boolean> {
  const body = writtenFor(to.typedOn, shown);
  if (await viaResponseUrls(r, to, body, 'in_channel')) return true;
  const channel = to.channelId;
  if (!channel) return false;
  try {
    await sendOrPlain(r, body, (b) =>
      r.slack.chat.postMessage({ channel, ...inThread(to), text: b.text, blocks: b.blocks }),
    );
    return true;
  } catch (e) {
    r.logger.warn({ err: errText(e), channel: to.channelId }, 'could not post in the channel');
    return false;
  }
}

/**
 * Tells only the person: ephemeral through a response_url, else ephemeral in the channel (in the thread
 * they asked in, unless their message starts it), else a direct message from the app, so that what they
 * asked is never answered by silence. In their own direct messages with the bot (their assistant pane's
 * thread included) it is a plain message there. False when nothing worked.
 */
export async function tellUser(r: Replier, to: Audience, shown: MessageBody): Promise<boolean> {
  if (to.privately)
    return tellUser(r, { userId: to.userId, ...to.privately, direct: true, responseUrls: [] }, shown);
  const body = writtenFor(to.typedOn, shown);
  if (await viaResponseUrls(r, to, body, 'ephemeral')) return true;
  const channel = to.channelId;
  if (channel && to.direct) {
    if (await postInChannel(r, to, body)) return true;
  } else if (channel) {
    try {
      await sendOrPlain(r, body, (b) =>
        r.slack.chat.postEphemeral({
          channel,
          user: to.userId,
          ...privatelyInThread(to),
          text: b.text,
          blocks: b.blocks,
        }),
      );
      return true;
    } catch (e) {
      r.logger.info({ err: errText(e) }, 'ephemeral failed; sending a direct message');
    }
  }
  try {
    await sendOrPlain(r, body, (b) =>
      r.slack.chat.postMessage({ channel: to.userId, text: b.text, blocks: b.blocks }),
    );
    return true;
  } catch (e) {
    r.logger.warn({ err: errText(e), user: to.userId }, 'could not reach the user');
    return false;
  }
}

/** A plain sentence to the person, through `tellUser`; `more`: blocks under it (a button). */
export function say(r: Replier, to: Audience, text: string, more: KnownBlock[] = []): Promise<boolean> {
  return tellUser(r, to, {
    text,
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text, verbatim: true } }, ...more],
  });
}
