import type { Bot } from '../bot.js';
import type { InstallJob } from './jobs.js';

/**
 * Removes what the tenant kept secret (core/tenancy/lifecycle.ts: its bot token, its service account,
 * its people's tokens; its schedules paused), and forgets what this thread held of it; says so in the log.
 */
export async function followRemoval(job: InstallJob & { tenant?: string }, bot: Bot): Promise<void> {
  const tenant = job.tenant;
  if (!tenant)
    return void bot.logger.warn(
      { cause: job.cause },
      'the app was removed, but Slack did not say from where',
    );
  bot.installations?.forget(tenant);
  try {
    const removed = await bot.lifecycle.removed(tenant, job.cause);
    bot.logger.info(
      { tenant, cause: job.cause, ...removed },
      "the app was removed: its bot token, service account and people's tokens deleted, its schedules paused; its flows, requests, audit and names stay until retention deletes them",
    );
  } finally {
    bot.installations?.forget(tenant);
  }
}
