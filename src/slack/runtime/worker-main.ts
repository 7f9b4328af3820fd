import { parentPort, workerData } from 'node:worker_threads';
import { createLogger } from '../../log.js';
import { memoryUse } from '../../memory.js';
import { loadMetricsIfCounting, threadMetrics } from '../../metrics/metrics.js';
import { startTracing } from '../../tracing/start.js';
import { composeBot } from '../bot.js';
import { startBackgroundWork } from './background.js';
import type { Job } from './jobs.js';
import type { FromWorker, ToWorker, WorkerSetup } from './protocol.js';
import { runFollowUpTraced } from './traced.js';

/** Log lines go to the acking thread, once per event-loop turn, so the process keeps one log stream. */
function forwardedLogs(post: (m: FromWorker) => void): { write(line: string): void; flush(): void } {
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

/**
 * The follow-up worker thread's life (its entry, `src/worker.ts`, lowers its priority first): it builds its
 * own bot from the same setup as the acking thread, runs every job's follow-up, does the background work,
 * and on `drain` finishes what it has in hand and closes.
 */
export async function runWorkerThread(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('the follow-up worker runs as a worker thread (see startWorkerHost)');
  const post = (m: FromWorker) => port.postMessage(m);
  const setup = workerData as WorkerSetup;
  const logs = forwardedLogs(post);
  const logger = createLogger({
    level: setup.config.logLevel,
    secrets: setup.config.secrets,
    destination: logs,
  }).child({ thread: 'follow-ups' });
  try {
    // This thread's own tracer, from the same settings: a job's spans join the trace its request began.
    const stopTracing = await startTracing(setup.config.tracing, logger);
    const bot = await composeBot(setup, logger, {
      onSlackAuthError: (error) => post({ kind: 'slack-auth', error }),
      onStoreWrites: (health) => post({ kind: 'store-writes', health }),
    });
    const background = await startBackgroundWork(bot);

    const inHand = new Set<Promise<void>>();
    // One message per event-loop turn, not per job: each message is an event on the acking thread.
    let finished: number[] = [];
    const reportFinished = () => {
      post({ kind: 'done', ids: finished });
      finished = [];
    };
    const finish = (id: number) => {
      if (finished.push(id) === 1) setImmediate(reportFinished);
    };
    const start = (id: number, job: Job) => {
      const run = runFollowUpTraced(job, bot)
        .catch((e: unknown) =>
          logger.error(
            { err: e instanceof Error ? (e.stack ?? e.message) : String(e), job: job.kind },
            'follow-up failed',
          ),
        )
        .finally(() => {
          inHand.delete(run);
          finish(id);
        });
      inHand.add(run);
    };
    // Jobs the acking thread may take instead (a view to open within its trigger's 3 s), until it answers.
    const claiming = new Map<number, Job>();
    port.on('message', (m: ToWorker) => {
      if (m.kind === 'job') {
        if (!m.claim) return start(m.id, m.job);
        claiming.set(m.id, m.job);
        post({ kind: 'claim', id: m.id });
        return;
      }
      if (m.kind === 'claimed') {
        const job = claiming.get(m.id);
        claiming.delete(m.id);
        if (job && m.ok) start(m.id, job);
        else finish(m.id);
        return;
      }
      if (m.kind === 'memory') {
        logger.info(memoryUse(), 'memory usage');
        return;
      }
      if (m.kind === 'metrics') {
        void threadMetrics().then((metrics) => post({ kind: 'metrics', id: m.id, metrics }));
        return;
      }
      // Draining, the acking thread takes no job back: those it was asked about are begun here.
      for (const [id, job] of claiming) start(id, job);
      claiming.clear();
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
        await stopTracing();
        logs.flush();
        post({ kind: 'drained' });
        port.close();
      })();
    });
    post({ kind: 'ready' });
    // Loaded once this thread is ready, so that it never delays the start (metrics.ts).
    loadMetricsIfCounting();
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    logger.error({ err: message }, 'the follow-up worker could not start');
    logs.flush();
    post({ kind: 'start-failed', message });
    port.close();
  }
}
