import type { MessageJob } from '../mentions/jobs.js';

/** The channel a person views while the assistant pane is open, as Slack says it (its `context`). */
export interface ViewedChannel {
  channelId: string;
  teamId?: string;
  enterpriseId?: string;
}

/**
 * The assistant pane opened a thread (`started`), or the person moved to another channel while it is open
 * (`context-changed`), as the acknowledgement read it.
 */
export interface PaneThreadJob {
  kind: 'assistant-thread';
  event: 'started' | 'context-changed';
  userId: string;
  teamId?: string;
  /** The pane's conversation: the person's direct messages with the bot. */
  channelId: string;
  threadTs: string;
  /** The channel they view; absent when Slack names none the bot could post in. */
  viewed?: ViewedChannel;
}

/**
 * A message written in a thread of the bot's direct messages: a thread of the assistant pane, or, when the
 * bot keeps no pane thread of that name, a thread of the Messages tab (answered as the Messages tab is).
 */
export interface PaneMessageJob {
  kind: 'assistant-message';
  message: Extract<MessageJob, { kind: 'direct-message' }>;
}

export type AssistantJob = PaneThreadJob | PaneMessageJob;
