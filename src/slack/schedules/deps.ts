import type { SchedulingDeps } from '../../core/schedules/manage.js';
import type { Bot } from '../bot.js';

/** What core's schedule decisions need of the composed bot, for the commands, the forms and the runs alike. */
export function schedulingDeps(bot: Bot): SchedulingDeps {
  const { perPerson, perChannel, minIntervalMs } = bot.config.schedules;
  return {
    store: bot.store,
    operations: bot.operations,
    now: bot.now,
    limits: { perPerson, perChannel, minIntervalMs },
  };
}
