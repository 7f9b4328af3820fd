import type { SchedulingDeps } from '../../core/schedules/manage.js';
import type { Bot } from '../bot.js';

/** What core's schedule decisions need of the composed bot, for the commands and the approval card alike. */
export function schedulingDeps(bot: Bot): SchedulingDeps {
  return {
    store: bot.store,
    operations: bot.operations,
    now: bot.now,
    isApprover: (userId) => bot.approvals.isApprover(userId),
    hasApprovers: bot.config.approvals.approvers.length > 0,
  };
}
