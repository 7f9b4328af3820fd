import { promptsAnswered } from './assistant-pane.js';
import { commandText } from './command-text.js';
import { type LocalSlackContext, userRef } from './context.js';
import type { LocalSlack } from './local-slack-api.js';
import { appBotUser, tellApp } from './message-events.js';
import type { ChannelState } from './state.js';
import type { LocalMessage } from './types.js';

/**
 * The conversation a person writes in: a channel, or their direct messages with the app (`D<user>`, or
 * their own user ID), opened on first use as Slack opens it.
 */
function conversationOf(ctx: LocalSlackContext, user: string, channel: string): ChannelState {
  const { state } = ctx;
  const dm = channel === user || channel === `D${user}`;
  const ch = dm ? state.channel(user) : state.channels.get(channel);
  if (!ch) throw new Error(`local slack: unknown channel "${channel}"`);
  if (!state.canSee(ch, user)) throw new Error(`local slack: ${user} is not in ${channel}`);
  if (ch.archived) throw new Error(`local slack: #${ch.name} is archived; nobody can write there`);
  if (ch.isIm && !state.app.messagesTabEnabled)
    throw new Error('local slack: the app has no Messages tab (messages_tab_enabled is off)');
  if (ch.isIm && state.app.messagesTabReadOnly)
    throw new Error('local slack: the Messages tab is read-only (messages_tab_read_only_enabled)');
  return ch;
}

/** A person's own message in a conversation, by its ts. */
function ownMessage(user: string, ch: ChannelState, ts: string): LocalMessage {
  const m = ch.messages.find((x) => x.ts === ts);
  if (!m || m.user !== user || m.via !== 'user')
    throw new Error(`local slack: ${user} has no message ${ts} in ${ch.id} to change`);
  return m;
}

/**
 * Slack's client writes a message's text as Slack stores it: `&`, `<`, `>` as entities, and `@name`,
 * `#channel`, `@here` and links as Slack's `<…>` references (picking `@tsai` gives `<@U0LOCALBOT>`).
 */
const asSlackWrites = (ctx: LocalSlackContext, user: string, text: string, raw?: boolean) =>
  raw ? text : commandText(text, ctx.state, true, appBotUser(ctx, user));

/**
 * A person writes a message, in a channel, a thread or their direct messages with the app. Slack tells the
 * app of it afterwards, as its subscriptions ask: `app_mention` for a message that mentions the bot,
 * `message` (channel_type `im`) for one in its direct messages.
 */
export function postUserMessage(
  ctx: LocalSlackContext,
  { user, channel, text, threadTs, rawText }: Parameters<LocalSlack['postUserMessage']>[0],
): LocalMessage {
  const u = userRef(ctx, user);
  const ch = conversationOf(ctx, u.id, channel);
  if (threadTs && !ch.messages.some((m) => m.ts === threadTs && m.ephemeralTo === undefined))
    throw new Error(`local slack: no message ${threadTs} in ${ch.id} to reply to`);
  const message = ctx.state.addMessage({
    channel: ch.id,
    user: u.id,
    text: asSlackWrites(ctx, u.id, text, rawText),
    threadTs,
    kind: 'message',
    via: 'user',
  });
  promptsAnswered(ctx, message);
  tellApp(ctx, { kind: 'posted', message });
  return message;
}

/** A person edits one of their messages: Slack marks it edited and tells the app as it does. */
export function editUserMessage(
  ctx: LocalSlackContext,
  { user, channel, ts, text, rawText }: Parameters<LocalSlack['editUserMessage']>[0],
): LocalMessage {
  const ch = conversationOf(ctx, userRef(ctx, user).id, channel);
  const m = ownMessage(user, ch, ts);
  const previous = structuredClone(m);
  m.text = asSlackWrites(ctx, user, text, rawText);
  m.edits++;
  ctx.state.changed();
  tellApp(ctx, { kind: 'edited', message: m, previous, editedTs: ctx.state.nextTs() });
  return m;
}

/** A person deletes one of their messages (its replies stay, as in Slack). */
export function deleteUserMessage(
  ctx: LocalSlackContext,
  { user, channel, ts }: Parameters<LocalSlack['deleteUserMessage']>[0],
): void {
  const ch = conversationOf(ctx, userRef(ctx, user).id, channel);
  const m = ownMessage(user, ch, ts);
  ctx.state.removeMessage(ch.id, m.ts);
  tellApp(ctx, { kind: 'deleted', message: m });
}
