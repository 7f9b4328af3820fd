import { startApprovalSweeper } from '../core/approvals/index.js';
import { errText } from '../log.js';
import { announceDecided } from './approvals/present.js';
import type { Bot } from './bot.js';
import { stopHomes } from './home/refresh.js';

export interface BackgroundWork {
  stop(): Promise<void>;
}

/**
 * What the bot does without being asked, on the thread that runs follow-ups: at start, expiry missed
 * while it was down and executions a crash interrupted; then the approvals sweep (expiry, and executions
 * another replica's death cut off), and following flows.
 */
export async function startBackgroundWork(bot: Bot): Promise<BackgroundWork> {
  const log = bot.logger.child({ part: 'background' });
  const { expired, interrupted } = await bot.approvals.recoverAfterRestart();
  if (expired.length || interrupted.length) {
    log.info(
      { expired: expired.length, interrupted: interrupted.length },
      'approval requests recovered at start-up',
    );
  }
  await announceDecided(bot, [...expired, ...interrupted]);
  const sweeper = startApprovalSweeper(bot.approvals, {
    ...(bot.setup.sweepIntervalMs ? { intervalMs: bot.setup.sweepIntervalMs } : {}),
    onDecided: async (decided) => {
      if (decided.interrupted.length)
        log.warn(
          { requests: decided.interrupted.map((r) => r.id) },
          'approved requests whose execution was cut off (its process stopped) marked outcome unknown',
        );
      await announceDecided(bot, [...decided.expired, ...decided.interrupted]);
    },
    onError: (err) => log.error({ err: errText(err) }, 'expiry sweep failed'),
  });
  // Loaded with the background work: the acking thread never follows flows itself.
  const tracker = bot.tracker;
  if (tracker) tracker.start((await import('./flows/notifier.js')).createFlowNotifier(bot));
  return {
    async stop() {
      await Promise.all([sweeper.stop(), tracker?.stop()]);
      await stopHomes(bot);
    },
  };
}
