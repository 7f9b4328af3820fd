import type { Bot } from '../bot.js';
import { keepFor, keptValue } from '../kept.js';
import type { ViewedChannel } from './jobs.js';

/**
 * What the bot keeps of one assistant pane thread: whose it is and the channel they view (Slack says so
 * when the thread starts and each time they move). A message in a thread of the direct messages is the
 * pane's only when the bot kept its thread; it is kept in the store, so every replica and thread knows it
 * (Bolt's own context store kept one context for the whole app in memory).
 */
export interface PaneThread {
  userId: string;
  viewed?: ViewedChannel;
}

/** Where a pane thread lives: the person's direct messages with the bot, and the thread's ts. */
export interface PanePlace {
  teamId?: string | undefined;
  channelId: string;
  threadTs: string;
}

/** How long a pane thread is remembered after it started: people come back to their pane's history. */
const KEPT_FOR_MS = 90 * 24 * 60 * 60_000;

const keyOf = (p: PanePlace) => `assistant-thread:${p.teamId ?? '-'}:${p.channelId}:${p.threadTs}`;

/** Keeps (or updates) a pane thread and the channel its person views. */
export function keepThread(bot: Bot, p: PanePlace, thread: PaneThread): Promise<void> {
  return keepFor(bot, keyOf(p), thread, KEPT_FOR_MS);
}

/** The pane thread at that place; undefined when the bot keeps none there (a thread of the Messages tab). */
export function threadAt(bot: Bot, p: PanePlace): Promise<PaneThread | undefined> {
  return keptValue<PaneThread>(bot, keyOf(p));
}
