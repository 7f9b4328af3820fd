import { staleRemoval } from '../../core/tenancy/lifecycle.js';
import type { Bot } from '../bot.js';
import type { InstallJob } from './jobs.js';

/**
 * A removal Slack told: compared first with the installation kept now (read anew from the store), since a
 * removal of an earlier installation may arrive, or be retried, after the app was installed again; one
 * that does not concern it changes nothing and is logged. Otherwise what the tenant kept secret goes
 * (core/tenancy/lifecycle.ts: its bot token, its service account, its people's tokens; its schedules
 * paused), and what this thread held of it; said in the log.
 */
export async function followRemoval(job: InstallJob & { tenant?: string }, bot: Bot): Promise<void> {
  const tenant = job.tenant;
  if (!tenant)
    return void bot.logger.warn(
      { cause: job.cause },
      'the app was removed, but Slack did not say from where',
    );
  const removal = {
    cause: job.cause,
    botUserIds: job.botUserIds ?? [],
    ...(job.eventTime !== undefined ? { eventTime: job.eventTime } : {}),
  };
  const now = await bot.installations?.current(tenant);
  const stale = staleRemoval(now, removal);
  if (stale)
    return void bot.logger.warn(
      { tenant, cause: job.cause, bots: removal.botUserIds, eventTime: job.eventTime },
      `a removal of an earlier installation arrived after the app was installed again (${stale}): nothing was deleted`,
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
