import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { FromWorker, ToWorker, WorkerSetup } from './slack/follow-up/protocol.js';

/**
 * The follow-up worker thread (started by `slack/follow-up/worker-host.ts`): it builds its own bot from the
 * same setup as the acking thread, runs every job's follow-up, and does the background work.
 *
 * Acks are the deadline (Slack's 3 s); the follow-ups are throughput. On Linux the nice value is per
 * thread, so this thread yields the CPU to the acking thread whenever both want it, from its first
 * instruction: everything else is imported only after the priority is lowered. A moderate value, so the
 * worker still opens forms within their trigger_id's 3 s on a busy machine.
 */
const WORKER_NICE = 10;

function lowerOwnPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, WORKER_NICE);
  } catch {
    // Not permitted or no /proc: the worker runs at the process's priority, which is still correct.
  }
}

lowerOwnPriority();

const port = parentPort;
if (!port) throw new Error('worker.ts runs as the follow-up worker thread (see startWorkerHost)');
const post = (m: FromWorker) => port.postMessage(m);
const setup = workerData as WorkerSetup;

/** Log lines go to the acking thread, once per event-loop turn, so the process keeps one log stream. */
function forwardedLogs(): { write(line: string): void; flush(): void } {
  let lines: string[] = [];
  const flush = () => {
    if (lines.length === 0) return;
    post({ kind: 'logs', lines });
    lines = [];
  };
  return {
    write(line) {
      if (lines.push(line) === 1) setImmediate(flush);
    },
    flush,
  };
}

async function main(): Promise<void> {
  const [{ createLogger }, { composeBot }, { runFollowUp }, { startBackgroundWork }] = await Promise.all([
    import('./log.js'),
    import('./slack/bot.js'),
    import('./slack/follow-ups.js'),
    import('./slack/background.js'),
  ]);
  const logs = forwardedLogs();
  const logger = createLogger({
    level: setup.config.logLevel,
    secrets: setup.config.secrets,
    destination: logs,
  }).child({ thread: 'follow-ups' });
  try {
    const bot = await composeBot(setup, logger, {
      onSlackAuthError: (error) => post({ kind: 'slack-auth', error }),
    });
    const background = await startBackgroundWork(bot);

    const inHand = new Set<Promise<void>>();
    // One message per event-loop turn, not per job: each message is an event on the acking thread.
    let finished: number[] = [];
    const reportFinished = () => {
      post({ kind: 'done', ids: finished });
      finished = [];
    };
    port!.on('message', (m: ToWorker) => {
      if (m.kind === 'job') {
        const run = runFollowUp(m.job, bot)
          .catch((e: unknown) =>
            logger.error(
              { err: e instanceof Error ? (e.stack ?? e.message) : String(e), job: m.job.kind },
              'follow-up failed',
            ),
          )
          .finally(() => {
            inHand.delete(run);
            if (finished.push(m.id) === 1) setImmediate(reportFinished);
          });
        inHand.add(run);
        return;
      }
      if (m.kind === 'memory') {
        logger.info({ memory: process.memoryUsage() }, 'memory usage');
        return;
      }
      void (async () => {
        // The replies in hand and the background work (whose last round ends, then gives its leases back)
        // stop side by side, so the drain takes the longer of the two, not their sum.
        await Promise.all([
          Promise.allSettled([...inHand]),
          background
            .stop()
            .catch((e: unknown) =>
              logger.error(
                { err: e instanceof Error ? e.message : String(e) },
                'background work did not stop cleanly',
              ),
            ),
        ]);
        await bot.close();
        logs.flush();
        post({ kind: 'drained' });
        port!.close();
      })();
    });
    post({ kind: 'ready' });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    logger.error({ err: message }, 'the follow-up worker could not start');
    logs.flush();
    post({ kind: 'start-failed', message });
    port!.close();
  }
}

main().catch((e: unknown) => {
  post({ kind: 'start-failed', message: e instanceof Error ? e.message : String(e) });
  port.close();
});
