import { startApprovalSweeper } from '../../core/approvals/index.js';
import { errText } from '../../log.js';
import { announceDecided } from '../approvals/present.js';
import type { Bot } from '../bot.js';
import { stopHomes } from '../home/refresh.js';
import { say } from '../reply.js';
import { tellAbandoned } from './holds.js';
import { audienceOf } from './notices.js';

export interface BackgroundWork {
  stop(): Promise<void>;
}

/** How often the follow-ups dead processes left in hand are looked for. */
const ABANDONED_EVERY_MS = 5_000;

/**
 * What the bot does without being asked, on the thread that runs follow-ups: at start, expiry missed
 * while it was down and executions a crash interrupted; then the approvals sweep (expiry, and executions
 * another replica's death cut off), telling the people whose follow-ups a dead process had in hand, and
 * following flows.
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
  const abandoned = startAbandonedSweep(bot, log);
  // Loaded with the background work: the acking thread never follows flows itself.
  const tracker = bot.tracker;
  if (tracker) tracker.start((await import('../flows/notifier.js')).createFlowNotifier(bot));
  return {
    async stop() {
      await Promise.all([sweeper.stop(), tracker?.stop(), abandoned.stop()]);
      await stopHomes(bot);
    },
  };
}

/** Tells, every few seconds and at once, the people behind follow-ups a dead process had in hand. */
function startAbandonedSweep(bot: Bot, log: Bot['logger']): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const sweep = () => {
    if (running) return;
    running = (async () => {
      try {
        const told = await tellAbandoned(
          bot.store,
          (n, text) => say(bot, audienceOf(n), text),
          // The machine's clock: holds are renewed by other processes.
          Date.now(),
        );
        if (told) log.warn({ told }, 'told the people whose follow-ups a stopped process had in hand');
      } catch (err) {
        log.error({ err: errText(err) }, 'could not look for follow-ups a stopped process had in hand');
      } finally {
        running = undefined;
      }
    })();
  };
  sweep();
  const timer = setInterval(sweep, ABANDONED_EVERY_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
