import { keptWordOf, shownWhat } from '../asked.js';
import { onChange } from '../changes.js';
import { type Feature, type Listener, listener, onEvents } from '../feature.js';
import type { MessageEventArgs } from '../mentions/index.js';
import { code } from '../views/mrkdwn.js';
import { ackPaneMessage, ackPaneThread, inDirectThread } from './listener.js';

/**
 * Slack's assistant pane (Agents & AI apps): a thread of the bot's direct messages opened beside the
 * channel a person views. Its events are answered as the bot answers every request, by listeners with an
 * ack and a follow-up part (docs/assistant.md says why not through Bolt's `Assistant` middleware).
 */

/** A pane thread opened, or the channel its person views changed: handed on at once. */
const threads: Listener = listener({
  match: onEvents(
    {
      name: 'assistant_thread_started',
      scope: 'assistant:write',
      why: 'a person opened the assistant pane: greeted, with prompts from the registry and their last flows',
    },
    {
      name: 'assistant_thread_context_changed',
      scope: 'assistant:write',
      why: 'the channel the person views changed: its defaults, and where their requests are announced',
    },
  ),
  ack: (args, { followUps }) => ackPaneThread(args.body, followUps),
  followUps: {
    'assistant-thread': {
      run: async (job, bot) => (await import('./follow-up.js')).followPaneThread(job, bot),
    },
  },
});

/**
 * What a person writes in a thread of the bot's direct messages: the pane's threads are; the follow-up
 * answers a thread the bot keeps as the pane's there, and any other as the Messages tab does.
 */
const messages: Listener = listener({
  match: {
    ...onEvents({
      name: 'message.im',
      scope: 'im:history',
      why: 'what a person writes in the assistant pane, a thread of the direct messages',
    }),
    accepts: inDirectThread,
  },
  ack: (args, { followUps }) => ackPaneMessage(args as unknown as MessageEventArgs, followUps),
  followUps: {
    'assistant-message': {
      run: async (job, bot) => (await import('./follow-up.js')).followPaneMessage(job, bot),
      notice: ({ message: m }) => ({
        userId: m.userId,
        channelId: m.channelId,
        ...(m.threadTs ? { threadTs: m.threadTs } : {}),
        direct: true,
        typedOn: 'assistant',
        what: code(shownWhat('assistant', m.text)),
        keptWhat: code(keptWordOf('assistant', m.text)),
      }),
    },
  },
});

// A flow started from the pane: its end clears the pane's status line (status.ts).
onChange((bot, change) => {
  if (change.flowEnded)
    void import('./status.js').then(
      (m) => m.paneFlowEnded(bot, change),
      () => undefined,
    );
});

/** The assistant pane: its threads and their messages, read as the typed commands are. */
export const ASSISTANT: Feature = {
  name: 'assistant',
  listeners: [threads, messages],
  manifest: async () => (await import('./manifest.js')).assistantManifest(),
};
