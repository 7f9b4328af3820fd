import { errText } from '../../log.js';
import type { Bot } from '../bot.js';
import { type BackgroundWork, startBackgroundWork } from './background.js';
import type { FollowUps, Job } from './jobs.js';
import { runFollowUpTraced } from './traced.js';

/**
 * Follow-ups on the acking thread, for a store that cannot be shared with a second thread (an in-memory
 * SQLite database).
 */
export function inThreadFollowUps(bot: Bot): FollowUps {
  const here = followUpsHere(bot);
  const background: Promise<BackgroundWork> = startBackgroundWork(bot);
  background.catch((e: unknown) => bot.logger.error({ err: errText(e) }, 'background work could not start'));
  return {
    ready: background.then(() => undefined),
    run: here.run,
    async stop() {
      await here.stop();
      await (await background.catch(() => undefined))?.stop();
    },
  };
}

/**
 * Jobs run on this thread: each starts after the acks already received (setImmediate), and is not
 * awaited, so Bolt's request objects are released at the ack.
 */
export function followUpsHere(bot: Bot): Pick<FollowUps, 'run' | 'stop'> & { inHand(): number } {
  const inHand = new Set<Promise<void>>();
  let stopping = false;
  return {
    run(job: Job) {
      if (stopping) return;
      const run = new Promise<void>((done) =>
        setImmediate(() =>
          runFollowUpTraced(job, bot)
            .catch((e: unknown) =>
              bot.logger.error({ err: errText(e, { stack: true }), job: job.kind }, 'follow-up failed'),
            )
            .finally(done),
        ),
      );
      inHand.add(run);
      void run.finally(() => inHand.delete(run));
    },
    async stop() {
      stopping = true;
      await Promise.allSettled([...inHand]);
    },
    inHand: () => inHand.size,
  };
}
