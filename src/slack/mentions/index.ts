import { keptWordOf, shownWhat } from '../asked.js';
import type { Bot } from '../bot.js';
import { onChange } from '../changes.js';
import { type Feature, type FollowUp, type Listener, listener, onEvents } from '../feature.js';
import type { Notice } from '../runtime/jobs.js';
import { code } from '../views/mrkdwn.js';
import type { MessageJob } from './jobs.js';
import { ackMessageEvent, type MessageEventArgs } from './listener.js';
import { audienceOf } from './place.js';

export type { MessageJob } from './jobs.js';
export { type MessageEventArgs, readMessageEvent } from './listener.js';
export { type AskedMessage, markCame, markMessage, REACTIONS } from './reactions.js';

/** A mention or a direct message, read and answered (follow-up.ts). */
export async function followMessage(job: MessageJob, bot: Bot): Promise<void> {
  return (await import('./follow-up.js')).followMessage(job, bot);
}

/** Run as the slash command would be, answered where it was asked; told there if lost in hand. */
const followUp: FollowUp<MessageJob> = {
  run: followMessage,
  notice: (job: MessageJob): Notice => {
    const { userId, channelId, threadTs, startsThread, direct, typedOn } = audienceOf(job);
    return {
      userId,
      ...(channelId ? { channelId } : {}),
      ...(threadTs ? { threadTs } : {}),
      ...(startsThread ? { startsThread } : {}),
      ...(direct ? { direct } : {}),
      ...(typedOn ? { typedOn } : {}),
      what: code(shownWhat(job.kind, job.text)),
      keptWhat: code(keptWordOf(job.kind, job.text)),
    };
  },
};

/**
 * `@tsai <command>` in a channel or a thread (`app_mention`), and a command typed in the bot's Messages
 * tab (`message` in a direct message): Bolt acknowledged the event; the listener reads it at once, drops
 * what asks nothing (a bot's message, an edit's echo, a deletion) and hands the rest on.
 */
const messages: Listener = listener({
  match: onEvents(
    {
      name: 'app_mention',
      scope: 'app_mentions:read',
      why: '@tsai <command> in a channel or a thread, answered in the thread',
    },
    {
      name: 'message.im',
      scope: 'im:history',
      why: "a command typed in the bot's Messages tab, without /tsai",
    },
  ),
  ack: (args, { followUps }) => ackMessageEvent(args as unknown as MessageEventArgs, followUps),
  followUps: { mention: followUp, 'direct-message': followUp },
});

// A flow's end, or a request's decision, marks the message that asked for it (reactions.ts).
onChange((bot, change) => {
  if (change.flowEnded || change.requestId)
    void import('./reactions.js').then(
      (m) => m.markEnded(bot, change),
      () => undefined,
    );
});

/** Asking the bot in words where people talk: mentions in channels and threads, and its direct messages. */
export const MENTIONS: Feature = {
  name: 'mentions',
  listeners: [messages],
  manifest: async () => ({
    appHome: {
      set: { messages_tab_read_only_enabled: false },
      why: 'People type commands in the Messages tab, without /tsai (docs/mentions.md).',
    },
    scopes: [
      {
        scope: 'groups:read',
        why: 'whether the bot is in the private channel a mention came from (conversations.info)',
      },
    ],
  }),
};
