import { type Logger, rawLogWriter } from '../../log.js';
import { type Bot, type BotHooks, type BotSetup, storeSharedAcrossThreads } from '../bot.js';
import { opensView } from './dispatch.js';
import { followUpsHere, inThreadFollowUps } from './in-thread.js';
import type { FollowUps, Job } from './jobs.js';
import { tell } from './notices.js';

/** Views opened on the acking thread at once before the next goes to the worker first. */
const VIEWS_HERE_AT_ONCE = 4;

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
    tell: (n, text) => tell(bot, n, text),
  });
  // A job that opens a view has 3 seconds to do it (feature.ts, opensView). It runs here, beside the acks,
  // where a busy machine does not starve it; past a few at once (a burst of forms), the worker runs it if
  // it begins it in time, else it is taken back here (worker-host.ts, TAKE_BACK_AFTER_MS), so a burst
  // does not queue its views behind one another on this thread. Which job opens a view (a command's
  // parse) is read after the ack's bytes have left, never before them.
  const here = followUpsHere(bot);
  const route = (job: Job) => {
    if (!opensView(job)) return elsewhere.run(job);
    if (here.inHand() < VIEWS_HERE_AT_ONCE) return here.run(job);
    elsewhere.runOrTake(job, here.run);
  };
  return {
    ...elsewhere,
    run: (job) => setImmediate(() => route(job)),
    async stop() {
      await Promise.all([here.stop(), elsewhere.stop()]);
    },
  };
}
