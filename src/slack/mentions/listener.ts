import type { FollowUps } from '../runtime/jobs.js';
import { teamOf } from '../tenant.js';
import type { MessageJob } from './jobs.js';
import { directCommand, mentionCommand } from './text.js';

/** The parts of an Events API callback the bot reads of a message event; anything may be missing. */
export interface MessageEventArgs {
  body: unknown;
  /** Bolt's context: the bot's own user and bot IDs (from `auth.test`). */
  context?: { botUserId?: string; botId?: string };
}

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : undefined;
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * `message` subtypes that are a person's own words: an ordinary message has none; a thread reply also sent
 * to the channel, and a message with a file, are still typed by the person. Every other subtype is
 * Slack's or a bot's (`bot_message`, `channel_join`, …), or a change to an earlier message, handled apart.
 */
const TYPED = new Set([undefined, 'thread_broadcast', 'file_share']);

/** The bot's own user ID: Bolt's context, else the installation the event is for. */
function botUserOf(a: MessageEventArgs, body: Rec): string | undefined {
  const auth = Array.isArray(body.authorizations) ? rec(body.authorizations[0]) : undefined;
  return a.context?.botUserId ?? str(auth?.user_id);
}

/**
 * Whether a message is a bot's, this one's included: answering a bot (or itself, were the bot to write its
 * own name) could start a loop.
 */
function byABot(m: Rec, bot: { userId?: string; botId?: string }): boolean {
  return (
    m.subtype === 'bot_message' ||
    str(m.bot_id) !== undefined ||
    rec(m.bot_profile) !== undefined ||
    (bot.userId !== undefined && m.user === bot.userId)
  );
}

/** What a message event asks the bot, read with nothing but the event: undefined when it asks nothing. */
export function readMessageEvent(a: MessageEventArgs): MessageJob | undefined {
  const body = rec(a.body);
  const event = rec(body?.event);
  if (!body || !event) return undefined;
  const botUserId = botUserOf(a, body);
  const self = {
    ...(botUserId ? { userId: botUserId } : {}),
    ...(a.context?.botId ? { botId: a.context.botId } : {}),
  };
  const teamId = teamOf(body) ?? str(event.team);
  const channelId = str(event.channel);
  if (!channelId) return undefined;

  if (event.type === 'app_mention') {
    // Slack sends a mention again, with `edited`, when its message is edited.
    if (byABot(event, self) || !botUserId) return undefined;
    return job('mention', event, {
      text: mentionCommand(String(event.text ?? ''), botUserId),
      teamId,
      channelId,
      editedTs: str(rec(event.edited)?.ts),
    });
  }
  // Messages elsewhere than the bot's direct messages are not the bot's to read (it subscribes to none).
  if (event.type !== 'message' || event.channel_type !== 'im') return undefined;
  if (event.subtype === 'message_changed') {
    const m = rec(event.message);
    // Without `edited` it is Slack changing the message (a thread's reply count, a link's preview).
    const editedTs = str(rec(m?.edited)?.ts);
    if (!m || !editedTs || byABot(m, self)) return undefined;
    return job('direct-message', m, {
      text: directCommand(String(m.text ?? ''), botUserId),
      teamId,
      channelId,
      editedTs,
    });
  }
  if (!TYPED.has(str(event.subtype)) || byABot(event, self)) return undefined;
  return job('direct-message', event, {
    text: directCommand(String(event.text ?? ''), botUserId),
    teamId,
    channelId,
  });
}

function job(
  kind: MessageJob['kind'],
  m: Rec,
  o: { text: string; teamId: string | undefined; channelId: string; editedTs?: string | undefined },
): MessageJob | undefined {
  const userId = str(m.user);
  const ts = str(m.ts);
  if (!userId || !ts) return undefined;
  const threadTs = str(m.thread_ts);
  return {
    kind,
    text: o.text,
    userId,
    ...(o.teamId ? { teamId: o.teamId } : {}),
    channelId: o.channelId,
    ts,
    ...(threadTs && threadTs !== ts ? { threadTs } : {}),
    ...(o.editedTs ? { editedTs: o.editedTs } : {}),
  };
}

/**
 * A mention of the bot, or a direct message to it (Bolt acknowledged the event before any listener): read
 * at once and handed on; a bot's message (this one's included), a deletion or any message the bot was not
 * asked in is dropped here, so that nothing the bot says can start a loop.
 */
export async function ackMessageEvent(a: MessageEventArgs, followUps: Pick<FollowUps, 'run'>): Promise<void> {
  const asked = readMessageEvent(a);
  if (asked) followUps.run(asked);
}
