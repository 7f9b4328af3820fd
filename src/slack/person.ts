import type { Person } from '../core/interpret.js';
import type { Bot } from './bot.js';
import { goesBy } from './users.js';

/**
 * Who asked, as reading what they wrote needs: the name they go by, their zone and Slack locale (asked of
 * Slack only when the reading gets that far).
 */
export function personOf(bot: Bot, who: { userId: string; userName?: string }): () => Promise<Person> {
  return async () => {
    const [info, timeZone] = await Promise.all([bot.users.lookup(who.userId), bot.zoneOf(who.userId)]);
    const userName = goesBy(info, who.userName);
    return {
      ...(userName ? { userName } : {}),
      timeZone,
      ...(info.locale ? { locale: info.locale } : {}),
    };
  };
}
