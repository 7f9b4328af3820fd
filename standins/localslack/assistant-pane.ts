import { type LocalSlackContext, placeOf, userRef } from './context.js';
import { sendEvent } from './event-delivery.js';
import type { AssistantThreadState, Delivery, LocalMessage, PaneOpened } from './types.js';

/** The context Slack sends with the pane's events: the channel the person views, in its workspace. */
function contextOf(ctx: LocalSlackContext, user: string, channel: string | undefined) {
  const { state } = ctx;
  const team = state.teamOf(user);
  if (!channel) return { teamId: team.id, ...(team.enterpriseId ? { enterpriseId: team.enterpriseId } : {}) };
  const ch = state.channels.get(channel);
  if (!ch || !state.canSee(ch, user)) throw new Error(`local slack: ${user} cannot view "${channel}"`);
  return {
    channelId: ch.id,
    teamId: state.teamsOf(ch)[0] ?? team.id,
    ...(team.enterpriseId ? { enterpriseId: team.enterpriseId } : {}),
  };
}

/** Tells the app an event of the pane, when its manifest subscribes to it (as Slack does). */
function tellPane(ctx: LocalSlackContext, user: string, event: Record<string, unknown>): Promise<Delivery> {
  if (!ctx.state.app.botEvents.includes(String(event.type)))
    return Promise.resolve({ status: 0, body: `not subscribed to ${String(event.type)}`, delivered: false });
  return sendEvent(ctx, event, { user });
}

/** The event's `assistant_thread`, as Slack writes it. */
function threadPayload(head: LocalMessage, t: AssistantThreadState) {
  const c = t.context;
  return {
    user_id: t.user,
    context: {
      ...(c.channelId ? { channel_id: c.channelId } : {}),
      team_id: c.teamId,
      ...(c.enterpriseId ? { enterprise_id: c.enterpriseId } : {}),
    },
    channel_id: head.channel,
    thread_ts: head.ts,
  };
}

/** The head of one of a person's pane threads. */
function paneHead(
  ctx: LocalSlackContext,
  user: string,
  threadTs: string,
): LocalMessage & {
  assistantThread: AssistantThreadState;
} {
  const head = ctx.state.message(`D${user}`, threadTs);
  if (!head?.assistantThread || head.assistantThread.user !== user)
    throw new Error(`local slack: ${user} has no assistant thread ${threadTs}`);
  return head as LocalMessage & { assistantThread: AssistantThreadState };
}

/**
 * A person opens the app's assistant pane (from a channel they view, or from nowhere in particular): Slack
 * starts a thread in their DM with the app, its head a message of the app's (`assistant_app_thread`), and
 * tells the app `assistant_thread_started` with the channel as its context. Only an app whose manifest
 * declares `features.assistant_view` has a pane (Slack's paid plans).
 */
export async function openAssistant(
  ctx: LocalSlackContext,
  { user, channel }: { user: string; channel?: string },
): Promise<PaneOpened> {
  const { state } = ctx;
  if (!state.app.assistantView)
    throw new Error('local slack: the app has no assistant pane (features.assistant_view is not declared)');
  const u = userRef(ctx, user);
  const { install } = placeOf(ctx, u.id);
  const context = contextOf(ctx, u.id, channel);
  const dm = state.channel(u.id)!;
  const head = state.addMessage({
    channel: dm.id,
    user: install.botUserId,
    botId: install.botId,
    text: 'New chat',
    kind: 'system',
    via: 'slack',
    assistantThread: { user: u.id, context },
  });
  const delivery = await tellPane(ctx, u.id, {
    type: 'assistant_thread_started',
    assistant_thread: threadPayload(head, head.assistantThread!),
  });
  return { threadTs: head.ts, channel: dm.id, delivery };
}

/**
 * The person moves to another channel (or to none) while their pane thread is open: Slack tells the app
 * `assistant_thread_context_changed` with the new context.
 */
export async function changeAssistantContext(
  ctx: LocalSlackContext,
  { user, threadTs, channel }: { user: string; threadTs: string; channel?: string },
): Promise<PaneOpened> {
  const u = userRef(ctx, user);
  const head = paneHead(ctx, u.id, threadTs);
  head.assistantThread.context = contextOf(ctx, u.id, channel);
  ctx.state.changed();
  const delivery = await tellPane(ctx, u.id, {
    type: 'assistant_thread_context_changed',
    assistant_thread: threadPayload(head, head.assistantThread),
  });
  return { threadTs: head.ts, channel: head.channel, delivery };
}

/** A person writes in a pane thread: Slack stops showing its suggested prompts, which were for its start. */
export function promptsAnswered(ctx: LocalSlackContext, m: LocalMessage): void {
  if (!m.threadTs) return;
  const t = ctx.state.message(m.channel, m.threadTs)?.assistantThread;
  if (t?.prompts) delete t.prompts;
}
