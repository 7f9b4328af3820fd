import type { WriteHealth } from '../../core/records.js';
import type { ThreadMetrics } from '../../metrics/metrics.js';
import type { BotSetup } from '../bot.js';
import type { Job } from './jobs.js';

/** What the follow-up worker is started with (`workerData`): plain data, since nothing else crosses a thread. */
export type WorkerSetup = BotSetup;

export type ToWorker =
  /**
   * A job whose listener already acknowledged: run its follow-up. `claim`: the acking thread takes it if
   * this thread is slow to begin it, so ask first (`claim`) and run it only when `claimed` says so.
   */
  | { kind: 'job'; id: number; job: Job; claim?: true }
  /** The answer to a claim: run the job (`ok`), or drop it, the acking thread having taken it. */
  | { kind: 'claimed'; id: number; ok: boolean }
  /** Shutting down: finish the jobs in hand, stop the background work, close, answer `drained`. */
  | { kind: 'drain' }
  /** Log this thread's memory use (the bench reads it). */
  | { kind: 'memory' }
  /** Send this thread's metrics (a scrape of /metrics asks). */
  | { kind: 'metrics'; id: number };

export type FromWorker =
  | { kind: 'ready' }
  | { kind: 'start-failed'; message: string }
  /** This thread is about to begin a job sent with `claim`: may it? */
  | { kind: 'claim'; id: number }
  /** These jobs' follow-ups are over (reply sent or failure logged); batched per event-loop turn. */
  | { kind: 'done'; ids: number[] }
  /** Log lines, already formatted and scrubbed, for the process's one log stream. */
  | { kind: 'logs'; lines: string[] }
  | { kind: 'drained' }
  | { kind: 'metrics'; id: number; metrics: ThreadMetrics }
  /** One of the worker's Web API calls was answered with an auth error (the token no longer works). */
  | { kind: 'slack-auth'; error: string }
  /** The worker's writes to the store started failing, or work again (readiness). */
  | { kind: 'store-writes'; health: WriteHealth };
