import { type MessageEventArgs, readMessageEvent } from '../mentions/index.js';
import type { FollowUps } from '../runtime/jobs.js';
import { teamOf } from '../tenant.js';
import type { PaneThreadJob, ViewedChannel } from './jobs.js';

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : undefined;
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * A channel the bot may use as the place of a request: a public or private channel (C…, G…), not a direct
 * message between people, which the bot can neither read nor post in.
 */
const isChannel = (id: string | undefined): id is string => id !== undefined && /^[CG][A-Z0-9]+$/.test(id);

/** What an `assistant_thread_started` or `assistant_thread_context_changed` event says; undefined if malformed. */
export function readPaneThreadEvent(body: unknown): PaneThreadJob | undefined {
  const b = rec(body);
  const event = rec(b?.event);
  const thread = rec(event?.assistant_thread);
  if (!b || !event || !thread) return undefined;
  const kind =
    event.type === 'assistant_thread_started'
      ? 'started'
      : event.type === 'assistant_thread_context_changed'
        ? 'context-changed'
        : undefined;
  const userId = str(thread.user_id);
  const channelId = str(thread.channel_id);
  const threadTs = str(thread.thread_ts);
  if (!kind || !userId || !channelId || !threadTs) return undefined;
  const context = rec(thread.context);
  const viewedId = str(context?.channel_id);
  const viewed: ViewedChannel | undefined = isChannel(viewedId)
    ? {
        channelId: viewedId,
        ...(str(context?.team_id) ? { teamId: str(context?.team_id)! } : {}),
        ...(str(context?.enterprise_id) ? { enterpriseId: str(context?.enterprise_id)! } : {}),
      }
    : undefined;
  const teamId = teamOf(b);
  return {
    kind: 'assistant-thread',
    event: kind,
    userId,
    ...(teamId ? { teamId } : {}),
    channelId,
    threadTs,
    ...(viewed ? { viewed } : {}),
  };
}

/**
 * Whether a message event is one of a thread in the bot's direct messages (the assistant pane's threads
 * are), its edits included: what the pane's listener answers, the Messages tab's listener the rest.
 */
export function inDirectThread(body: Record<string, unknown>): boolean {
  const event = rec(body.event);
  if (event?.type !== 'message' || event.channel_type !== 'im') return false;
  return str(event.thread_ts) !== undefined || str(rec(event.message)?.thread_ts) !== undefined;
}

/** The pane opened a thread, or the channel the person views changed: handed on at once. */
export async function ackPaneThread(body: unknown, followUps: Pick<FollowUps, 'run'>): Promise<void> {
  const job = readPaneThreadEvent(body);
  if (job) followUps.run(job);
}

/**
 * A message in a thread of the direct messages, read as the Messages tab reads its own (a bot's message,
 * Slack's own change of a message, a deletion dropped), and handed on: whether the thread is the pane's is
 * for the follow-up to find out, from what the store keeps.
 */
export async function ackPaneMessage(a: MessageEventArgs, followUps: Pick<FollowUps, 'run'>): Promise<void> {
  const message = readMessageEvent(a);
  if (message?.kind !== 'direct-message') return;
  // The edit of a message that heads a thread is the Messages tab's own.
  followUps.run(message.threadTs ? { kind: 'assistant-message', message } : message);
}
