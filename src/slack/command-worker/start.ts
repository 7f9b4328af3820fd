import { Worker } from 'node:worker_threads';
import type { SlashCommand } from '@slack/bolt';
import type { Logger } from '../../log.js';
import { respondTo } from '../response-url.js';
import { interruptedText, restartingText } from '../views/worker-notices.js';
import type { FromWorker, ToWorker, WorkerSetup } from './protocol.js';

export interface CommandWorker {
  /** Hands an acked command to the worker; never throws, never waits. */
  run(command: SlashCommand): void;
  /** Resolves when the first worker is ready; rejects when it could not start. */
  readonly ready: Promise<void>;
  /** Lets the worker finish the commands in hand (up to `drainTimeoutMs`), then ends it. */
  stop(): Promise<void>;
}

export interface CommandWorkerOptions {
  setup: WorkerSetup;
  logger: Logger;
  /** The worker program; default ./thread.js next to this file (tests pass their own). */
  script?: URL;
  drainTimeoutMs?: number;
  /** Commands kept while the worker restarts; more are told to try again. */
  maxWaiting?: number;
}

/**
 * The worker's heap. Under a burst V8 grew each isolate's young generation to ~34 MB and let the old one
 * reach 3-4x its live size before collecting (its growing factor is 4 when the heap limit is large). The
 * worker's objects are few, short-lived or held for one service call (~30 MB live in a 1200-command
 * burst), so a small young generation and a 256 MB limit (growing factor 1.3) cost a few more
 * collections on a low-priority thread and saved 50-100 MB of resident memory (docs/performance.md). A
 * worker that still ran out would be restarted like any crashed one.
 */
const HEAP_LIMITS = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 256 };

/** Restart delays after a crash: at once, then growing; reset after a minute without one. */
const RESTART_DELAYS_MS = [0, 1_000, 5_000, 30_000];
const CALM_AFTER_MS = 60_000;

/**
 * The main thread's side of the command worker. Slash commands are acked on the main thread and their
 * follow-up work runs on a worker thread (docs/performance.md says why). If the worker dies, the user of
 * every command it had in hand is told that its outcome is unknown, and a new worker is started; commands
 * that arrive meanwhile wait for it.
 */
export function startCommandWorker(o: CommandWorkerOptions): CommandWorker {
  const log = o.logger.child({ part: 'command-worker' });
  const script = o.script ?? new URL('./thread.js', import.meta.url);
  const maxWaiting = o.maxWaiting ?? 1_000;
  const inHand = new Map<number, SlashCommand>();
  let waiting: { id: number; command: SlashCommand }[] = [];
  let nextId = 1;
  let worker: Worker | undefined;
  let stopping = false;
  let crashes = 0;
  let lastCrash = 0;
  let restartTimer: NodeJS.Timeout | undefined;
  let drained: (() => void) | undefined;

  let settleReady!: (error?: Error) => void;
  const ready = new Promise<void>((ok, fail) => {
    settleReady = (error) => (error ? fail(error) : ok());
  });
  let isReady = false;

  const send = (w: Worker, m: ToWorker) => w.postMessage(m);

  const tell = (command: SlashCommand, text: string) =>
    respondTo(command.response_url)({ response_type: 'ephemeral', replace_original: false, text }).catch(
      (e: unknown) =>
        log.warn(
          { err: e instanceof Error ? e.message : String(e) },
          'could not tell a user about a lost command',
        ),
    );

  const spawn = () => {
    restartTimer = undefined;
    const w = new Worker(script, {
      workerData: o.setup,
      resourceLimits: HEAP_LIMITS,
    });
    worker = w;
    w.on('message', (m: FromWorker) => {
      switch (m.kind) {
        case 'done':
          for (const id of m.ids) inHand.delete(id);
          return;
        case 'ready':
          isReady = true;
          settleReady();
          return;
        case 'start-failed':
          if (!isReady) settleReady(new Error(`the command worker could not start: ${m.message}`));
          return;
        case 'drained':
          drained?.();
          return;
      }
    });
    w.on('error', (e) => log.error({ err: e.stack ?? e.message }, 'the command worker failed'));
    w.on('exit', (code) => {
      if (worker === w) worker = undefined;
      if (stopping) return drained?.();
      if (!isReady) return settleReady(new Error(`the command worker exited with ${code} while starting`));
      onCrash(code);
    });
    for (const m of waiting) {
      inHand.set(m.id, m.command);
      send(w, { kind: 'command', ...m });
    }
    waiting = [];
  };

  const onCrash = (code: number) => {
    const lost = [...inHand.values()];
    inHand.clear();
    log.error({ code, commandsLost: lost.length }, 'the command worker stopped; starting a new one');
    for (const command of lost) {
      void tell(command, interruptedText(command));
    }
    const now = Date.now();
    if (now - lastCrash > CALM_AFTER_MS) crashes = 0;
    lastCrash = now;
    const delay = RESTART_DELAYS_MS[Math.min(crashes, RESTART_DELAYS_MS.length - 1)] ?? 0;
    crashes++;
    restartTimer = setTimeout(spawn, delay);
  };

  spawn();

  return {
    ready,
    run(command) {
      const id = nextId++;
      if (worker && !stopping) {
        inHand.set(id, command);
        send(worker, { kind: 'command', id, command });
      } else if (waiting.length < maxWaiting && !stopping) {
        waiting.push({ id, command });
      } else {
        void tell(command, restartingText(command));
      }
    },
    async stop() {
      stopping = true;
      if (restartTimer) clearTimeout(restartTimer);
      const w = worker;
      if (!w) return;
      const done = new Promise<void>((ok) => {
        drained = ok;
      });
      send(w, { kind: 'drain' });
      const timeout = new Promise<'timeout'>((ok) =>
        setTimeout(() => ok('timeout'), o.drainTimeoutMs ?? 20_000).unref(),
      );
      if ((await Promise.race([done, timeout])) === 'timeout')
        log.warn({ inHand: inHand.size }, 'the command worker did not finish in time; ending it');
      await w.terminate();
    },
  };
}
