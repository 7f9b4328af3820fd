import type { Bot } from '../bot.js';
import type { FollowUps } from '../runtime/jobs.js';

/** An `app_uninstalled` or `tokens_revoked` event's envelope, as far as the bot reads it. */
export interface RemovalBody {
  event?: { type?: unknown; tokens?: { bot?: unknown } };
  /** When Slack made the event, in epoch seconds (a retry or a late delivery keeps it). */
  event_time?: unknown;
  /** The installation the event is for: its bot user is `user_id`. */
  authorizations?: unknown;
}

/**
 * The app was removed from a workspace or organisation (`app_uninstalled`), or its bot token revoked
 * (`tokens_revoked` naming bots; people's OAuth tokens the bot never keeps). Bolt acknowledged the event;
 * whether it concerns the installation kept now, and the removal itself, are decided after. With one bot
 * token (SLACK_BOT_TOKEN) there is no installation to remove: the event is only logged.
 */
export async function ackRemoval(
  body: RemovalBody,
  bot: Bot,
  followUps: Pick<FollowUps, 'run'>,
): Promise<void> {
  const type = body.event?.type;
  const bots = body.event?.tokens?.bot;
  if (type === 'tokens_revoked' && !(Array.isArray(bots) && bots.length > 0)) return;
  if (!bot.installations) {
    bot.logger.warn({ event: type }, 'Slack says the app was removed or its token revoked');
    return;
  }
  const revoked = type === 'tokens_revoked';
  const authorization = Array.isArray(body.authorizations) ? (body.authorizations[0] as unknown) : undefined;
  const botUser = (authorization as { user_id?: unknown } | undefined)?.user_id;
  const botUserIds = (revoked ? (bots as unknown[]) : [botUser]).filter(
    (b): b is string => typeof b === 'string' && b !== '',
  );
  followUps.run({
    kind: 'install-removed',
    cause: revoked ? 'tokens_revoked' : 'app_uninstalled',
    botUserIds,
    ...(typeof body.event_time === 'number' ? { eventTime: body.event_time } : {}),
  });
}
