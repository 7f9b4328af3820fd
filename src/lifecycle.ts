import type { Logger } from './log.js';
import { memoryUse } from './memory.js';

export interface ShutdownOptions {
  /** Stops everything: no new requests, replies in hand finished, leases released, stores closed. */
  stop(): Promise<void>;
  logger: Logger;
  /** Past this, the process exits anyway (code 1), with a log line saying so. */
  timeoutMs: number;
  exit?(code: number): void;
}

/**
 * The process's answer to SIGTERM and SIGINT. The first one stops the bot and exits 0 (1 if stopping
 * failed); a signal while it stops changes nothing; a stop that hangs (a store that no longer answers,
 * say) is cut at `timeoutMs`. The bound timer is not unref'd: it must fire even if nothing else is left.
 */
export function exitOnSignals(o: ShutdownOptions): void {
  const exit = o.exit ?? ((code: number) => process.exit(code));
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) {
      o.logger.info({ signal }, 'already shutting down; the signal changes nothing');
      return;
    }
    stopping = true;
    const started = Date.now();
    o.logger.info({ signal, timeoutMs: o.timeoutMs }, 'shutting down');
    const bound = setTimeout(() => {
      o.logger.error(
        { signal, timeoutMs: o.timeoutMs },
        `shutdown did not finish within ${o.timeoutMs} ms; exiting without waiting for the rest`,
      );
      exit(1);
    }, o.timeoutMs);
    o.stop().then(
      () => {
        clearTimeout(bound);
        o.logger.info({ ms: Date.now() - started }, 'stopped');
        exit(0);
      },
      (e: unknown) => {
        clearTimeout(bound);
        o.logger.error({ err: e instanceof Error ? e.message : String(e) }, 'stopping failed');
        exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

/** On SIGUSR2, every thread logs its memory use ("memory usage"): how the bench reads the heap. */
export function logMemoryOnSignal(logger: Logger, others: () => void): void {
  process.on('SIGUSR2', () => {
    logger.info(memoryUse(), 'memory usage');
    others();
  });
}
