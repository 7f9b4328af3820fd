import type { SlashCommand } from '@slack/bolt';
import type { ServiceClientOptions } from '../../api/index.js';
import type { Config } from '../../config.js';

/** What the worker is started with (`workerData`): plain data, since nothing else crosses a thread. */
export interface WorkerSetup {
  /** The resolved configuration (with the local Slack's token when `startAll` started one). */
  config: Config;
  /** Where the service is (the built-in emulator's URL when `TSAI_BASE_URL` is not set). */
  service: ServiceClientOptions;
}

export type ToWorker =
  /** A slash command already acked on the main thread: run its follow-up work. */
  | { kind: 'command'; id: number; command: SlashCommand }
  /** Shutting down: finish the commands in hand, close, answer `drained`. */
  | { kind: 'drain' };

export type FromWorker =
  | { kind: 'ready' }
  | { kind: 'start-failed'; message: string }
  /** These commands' follow-up work is over (reply sent or failure logged); batched per event-loop turn. */
  | { kind: 'done'; ids: number[] }
  | { kind: 'drained' };
