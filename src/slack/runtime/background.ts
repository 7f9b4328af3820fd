import { startCatalogPruner } from '../../core/catalog/index.js';
import { every } from '../../core/every.js';
import { startRetentionPruner } from '../../core/retention.js';
import { errText } from '../../log.js';
import type { Bot } from '../bot.js';
import type { Running } from '../feature.js';
import { featuresOf } from '../features.js';
import { tellAbandoned } from './holds.js';
import { tell } from './notices.js';

export type BackgroundWork = Running;

/** How often the follow-ups dead processes left in hand are looked for. */
const ABANDONED_EVERY_MS = 5_000;

/**
 * What the bot does without being asked, on the thread that runs follow-ups: each feature's background
 * work (approvals: recovery at start and the sweep; flows: following them), started in the order of the
 * features, and telling the people whose follow-ups a dead process had in hand. At stop, all of it stops
 * side by side, then each feature lets go of what still waits (Homes not yet published).
 */
export async function startBackgroundWork(bot: Bot): Promise<BackgroundWork> {
  const log = bot.logger.child({ part: 'background' });
  const running: Running[] = [];
  const features = await featuresOf(bot.config);
  for (const f of features) if (f.background) running.push(await f.background(bot));
  running.push(startAbandonedSweep(bot, log), ...startHousekeeping(bot, log));
  return {
    async stop() {
      await Promise.all(running.map((r) => r.stop()));
      for (const f of features) await f.drain?.(bot);
    },
  };
}

const DAY_MS = 86_400_000;

/** Nothing the store keeps grows without bound: each kind of record goes after its retention (TSAI_RETAIN_*). */
function startHousekeeping(bot: Bot, log: Bot['logger']): Running[] {
  const r = bot.config.retention;
  return [
    startCatalogPruner(bot.store, {
      retentionDays: r.catalogMs / DAY_MS,
      onError: (err) => log.error({ err: errText(err) }, 'could not prune the catalog; trying again later'),
    }),
    startRetentionPruner(bot.store, {
      auditDays: r.auditMs / DAY_MS,
      approvalDays: r.approvalsMs / DAY_MS,
      flowDays: r.flowsMs / DAY_MS,
      logger: log,
    }),
  ];
}

/** Tells, every few seconds and at once, the people behind follow-ups a dead process had in hand. */
function startAbandonedSweep(bot: Bot, log: Bot['logger']): Running {
  return every(ABANDONED_EVERY_MS, async () => {
    try {
      const told = await tellAbandoned(
        bot.store,
        (n, text) => tell(bot, n, text),
        // The machine's clock: holds are renewed by other processes.
        Date.now(),
      );
      if (told) log.warn({ told }, 'told the people whose follow-ups a stopped process had in hand');
    } catch (err) {
      log.error({ err: errText(err) }, 'could not look for follow-ups a stopped process had in hand');
    }
  });
}
