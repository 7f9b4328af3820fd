import { type Logger, rawLogWriter } from '../../log.js';
import { type Bot, type BotHooks, type BotSetup, storeSharedAcrossThreads } from '../bot.js';
import { say } from '../reply.js';
import { opensView } from './dispatch.js';
import { followUpsHere, inThreadFollowUps } from './in-thread.js';
import type { FollowUps } from './jobs.js';
import { audienceOf } from './notices.js';

/**
 * Follow-ups run on a worker thread, so that acks never queue behind them (docs/performance.md), except
 * those that open a view, which must beat the trigger's 3 seconds. An in-memory SQLite database cannot be
 * opened by a second thread, so with one they all run on this thread.
 */
export async function startFollowUps(
  setup: BotSetup,
  bot: Bot,
  logger: Logger,
  hooks: Required<BotHooks>,
  worker: { script?: URL; startAfter?: Promise<unknown> } = {},
): Promise<FollowUps> {
  if (!storeSharedAcrossThreads(setup)) {
    logger.warn(
      'an in-memory SQLite store cannot be shared with a worker thread; follow-ups run on the main thread',
    );
    return inThreadFollowUps(bot);
  }
  const [{ startWorkerHost }, { startFollowUpHolds }] = await Promise.all([
    import('./worker-host.js'),
    import('./holds.js'),
  ]);
  const elsewhere = await startWorkerHost({
    setup,
    ...worker,
    logger,
    onSlackAuthError: hooks.onSlackAuthError,
    onStoreWrites: hooks.onStoreWrites,
    holds: startFollowUpHolds({ store: bot.store, logger }),
    // What is left of the shutdown bound goes to stopping HTTP, telling whom the drain left, and closing.
    drainTimeoutMs: Math.max(1_000, setup.config.shutdownTimeoutMs - 3_000),
    writeLog: rawLogWriter(logger),
    tell: (n, text) => say(bot, audienceOf(n), text),
  });
  // A job that opens a view has 3 seconds to do it (feature.ts, opensView): the worker runs it if it
  // begins it in time, else it runs here, beside the acks (worker-host.ts, TAKE_BACK_AFTER_MS). Which one
  // it is (a command's parse) is read after the ack's bytes have left, never before them.
  const here = followUpsHere(bot);
  return {
    ...elsewhere,
    run: (job) =>
      setImmediate(() => (opensView(job) ? elsewhere.runOrTake(job, here.run) : elsewhere.run(job))),
    async stop() {
      await Promise.all([here.stop(), elsewhere.stop()]);
    },
  };
}
