import { startApprovalSweeper } from '../../core/approvals/index.js';
import { errText } from '../../log.js';
import type { Bot } from '../bot.js';
import type { Running } from '../feature.js';
import { announceDecided } from './present.js';

/**
 * At start, expiry missed while the bot was down and executions a crash interrupted; then the sweep
 * (expiry, and executions another replica's death cut off). Whatever the bot decided by itself is shown.
 */
export async function startApprovalWork(bot: Bot): Promise<Running> {
  const log = bot.logger.child({ part: 'background' });
  const { expired, interrupted } = await bot.approvals.recoverAfterRestart();
  if (expired.length || interrupted.length) {
    log.info(
      { expired: expired.length, interrupted: interrupted.length },
      'approval requests recovered at start-up',
    );
  }
  await announceDecided(bot, [...expired, ...interrupted]);
  return startApprovalSweeper(bot.approvals, {
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
}
