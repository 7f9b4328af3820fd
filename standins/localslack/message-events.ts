import type { LocalSlackContext } from './context.js';
import { sendEvent } from './event-delivery.js';
import { APP_ID, BOT_ID, BOT_USER_ID, TEAM_ID } from './state.js';
import type { LocalMessage, MessageChange } from './types.js';

type Json = Record<string, unknown>;

/**
 * The bot user's mention in message text, as Slack's client writes it (`<@U…>`; `<@U…|name>` from older
 * clients): the bot user of the installation serving the writer's workspace (each has its own).
 */
const mentionsBot = (text: string, botUserId: string) => new RegExp(`<@${botUserId}(\\|[^>]*)?>`).test(text);

/**
 * The app's bot user as a person's workspace knows it: that of the installation serving it (an org-wide
 * install's in every workspace of the organisation); undefined where the app is not installed.
 */
export function appBotUser(ctx: LocalSlackContext, userId: string): string | undefined {
  if (!ctx.state.users.has(userId)) return BOT_USER_ID;
  return ctx.installs.serving(ctx.state.teamOf(userId).id)?.botUserId;
}

/** The events Slack sends the app for a change, of those its manifest subscribes to (`AppSettings.botEvents`). */
export function eventsOf(ctx: LocalSlackContext, change: MessageChange): Json[] {
  const { state } = ctx;
  const ch = state.channels.get(change.message.channel);
  if (!ch) return [];
  const subscribed = (e: string) => state.app.botEvents.includes(e);
  const m = change.message;
  if (ch.isIm) {
    // message.im: every message of the bot's direct messages, the bot's own and every change included.
    if (!subscribed('message.im')) return [];
    const im = { channel: ch.id, channel_type: 'im', team: TEAM_ID };
    if (change.kind === 'posted') {
      const events: Json[] = [{ ...messageObject(m), ...im, event_ts: m.ts }];
      // A reply changes its thread's parent (its reply count): Slack says so with a hidden message_changed.
      const parent = m.threadTs ? state.message(ch.id, m.threadTs) : undefined;
      if (parent)
        events.push(changed(im, messageObject(parent, threadOf(ctx, parent)), messageObject(parent)));
      return events;
    }
    if (change.kind === 'edited')
      return [
        changed(
          im,
          messageObject(m, { edited: { user: m.user, ts: change.editedTs } }),
          messageObject(change.previous),
        ),
      ];
    const ts = state.nextTs();
    return [
      {
        type: 'message',
        subtype: 'message_deleted',
        hidden: true,
        deleted_ts: m.ts,
        previous_message: messageObject(m),
        ...im,
        ts,
        event_ts: ts,
      },
    ];
  }
  // app_mention: a message in a channel that mentions the bot, again (with `edited`) when edited to one
  // that still does; deletions are not told.
  if (!subscribed('app_mention') || change.kind === 'deleted') return [];
  const bot = m.user ? appBotUser(ctx, m.user) : undefined;
  if (!bot || !mentionsBot(m.text, bot)) return [];
  const edited = change.kind === 'edited' ? { edited: { user: m.user, ts: change.editedTs } } : {};
  return [{ ...messageObject(m, edited), type: 'app_mention', channel: ch.id, event_ts: m.ts }];
}

/** A message as Slack's events carry it: its author (a bot's with its bot ID), text, ts and thread. */
function messageObject(m: LocalMessage, extra: Json = {}): Json {
  const fromBot = m.botId !== undefined;
  return {
    type: 'message',
    user: m.user,
    text: m.text,
    ts: m.ts,
    ...(fromBot
      ? { bot_id: m.botId, app_id: APP_ID, bot_profile: { id: BOT_ID, app_id: APP_ID, name: 'tsai' } }
      : { client_msg_id: `local-${m.ts}` }),
    ...(m.blocks ? { blocks: m.blocks } : {}),
    ...(m.threadTs ? { thread_ts: m.threadTs } : {}),
    team: TEAM_ID,
    ...extra,
  };
}

function changed(im: Json, message: Json, previous: Json): Json {
  return {
    type: 'message',
    subtype: 'message_changed',
    hidden: true,
    message,
    previous_message: previous,
    ...im,
  };
}

/** What a thread's parent says of its replies, as Slack's message objects do. */
export function threadOf(ctx: LocalSlackContext, parent: LocalMessage): Json {
  const replies = (ctx.state.channels.get(parent.channel)?.messages ?? []).filter(
    (r) => r.threadTs === parent.ts && r.ephemeralTo === undefined,
  );
  if (replies.length === 0) return {};
  return {
    thread_ts: parent.ts,
    reply_count: replies.length,
    reply_users_count: new Set(replies.map((r) => r.user)).size,
    reply_users: [...new Set(replies.map((r) => r.user))],
    latest_reply: replies.at(-1)!.ts,
  };
}

/**
 * Tells the app about a change, as Slack does: after the change, not within the call that made it, and in
 * the order the changes happened. Without a bot endpoint nobody is told.
 */
export function tellApp(ctx: LocalSlackContext, change: MessageChange): void {
  const events = eventsOf(ctx, change);
  if (!events.length || !ctx.bot.hasEndpoint()) return;
  for (const event of events)
    ctx.eventQueue = ctx.eventQueue
      .then(() => sendEvent(ctx, event))
      .then(
        () => undefined,
        () => undefined,
      );
}
