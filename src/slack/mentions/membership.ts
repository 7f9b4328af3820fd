import { errText } from '../../log.js';
import type { Bot } from '../bot.js';
import { slackFailure } from '../slack-errors.js';

/**
 * How long the bot trusts that it is in a channel before asking again. It can only be told so much by the
 * mentions it receives: Slack passes mentions only from conversations the bot is in (or is being invited
 * to), so only a change in between (the bot removed) is missed for this long. "Not a member" is never
 * kept, so an invitation counts at once.
 */
const MEMBER_FOR_MS = 10 * 60_000;
const members = new Map<string, number>();

/**
 * Whether the bot is a member of the channel a mention came from; true when Slack does not say (the
 * answer is then tried there, and the usual fallbacks apply). A private channel the bot is not in does
 * not exist for it (`channel_not_found`).
 */
export async function botIsMember(bot: Bot, channelId: string): Promise<boolean> {
  const now = Date.now();
  if ((members.get(channelId) ?? 0) > now) return true;
  try {
    const info = await bot.slack.conversations.info({ channel: channelId });
    const member = info.channel?.is_member !== false;
    if (member) {
      if (members.size > 10_000) members.clear();
      members.set(channelId, now + MEMBER_FOR_MS);
    }
    return member;
  } catch (e) {
    if (slackFailure(e).error === 'channel_not_found') return false;
    bot.logger.info(
      { channel: channelId, err: errText(e) },
      'could not tell whether the bot is in a channel',
    );
    return true;
  }
}
