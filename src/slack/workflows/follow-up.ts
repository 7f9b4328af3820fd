import type { StepStart, StepSurface } from '../../core/workflows/runner.js';
import type { Bot } from '../bot.js';
import { showResult } from '../command/show.js';
import { goesBy } from '../users.js';
import { slackCompleter } from './complete.js';

/** A step after its ack: read, run and completed (or left waiting) by core's step runner. */
export async function followStep(start: StepStart, bot: Bot): Promise<void> {
  await bot.steps.start(start, stepSurface(bot), slackCompleter(bot));
}

/** What a step needs of Slack besides its completion: the person, as a command looks them up, and the channel. */
export function stepSurface(bot: Bot): StepSurface {
  return {
    async person(userId) {
      const [info, timeZone] = await Promise.all([bot.users.lookup(userId), bot.zoneOf(userId)]);
      const userName = goesBy(info);
      return { ...(userName ? { userName } : {}), timeZone, ...(info.locale ? { locale: info.locale } : {}) };
    },
    async announce(actor, result) {
      await showResult(bot, result, {
        to: { userId: actor.userId, channelId: actor.channelId, responseUrls: [] },
        who: { userId: actor.userId, commandText: actor.asked },
      });
    },
  };
}
