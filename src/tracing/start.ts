import type { TracingSettings } from '../config/types.js';
import type { Provider } from './sdk.js';
import { useTracing } from './trace.js';

/** The few lines tracing writes; the bot's pino logger fits (log.ts reads trace.ts for its lines' IDs). */
export interface TracingLog {
  info(o: object, msg: string): void;
  warn(o: object, msg: string): void;
  error(o: object, msg: string): void;
}

/** This thread's provider and how many bots it serves (tests run several in one thread). */
let running: { provider: Promise<Provider>; users: number } | undefined;

/**
 * Starts tracing on this thread when the settings say so (an OTEL_* variable is set), and returns how to
 * stop it: what is batched is sent first. Off, it loads nothing of OpenTelemetry and stops nothing. Each
 * thread (the acking thread, the follow-up worker) starts its own from the same settings.
 */
export async function startTracing(
  settings: TracingSettings | undefined,
  logger: TracingLog,
): Promise<() => Promise<void>> {
  if (!settings) return async () => {};
  if (!running) {
    const provider = (async () => {
      const [{ registerProvider }, api] = await Promise.all([
        import('./sdk.js'),
        import('@opentelemetry/api'),
      ]);
      const made = await registerProvider(settings, logger);
      useTracing(api);
      logger.info({ url: settings.url, protocol: settings.protocol }, 'traces are sent over OTLP');
      return made;
    })().catch((e: unknown): Provider => {
      // Traces are for whoever runs the bot; the bot's work is Slack's, so it runs on without them.
      logger.error(
        { err: e instanceof Error ? e.message : String(e) },
        'tracing could not start; the bot runs without traces',
      );
      return { shutdown: async () => {} };
    });
    running = { provider, users: 0 };
  }
  const mine = running;
  mine.users++;
  await mine.provider;
  let stopped = false;
  return async () => {
    if (stopped) return;
    stopped = true;
    if (--mine.users > 0) return;
    if (running === mine) running = undefined;
    useTracing(undefined);
    const api = await import('@opentelemetry/api');
    await (await mine.provider).shutdown().catch(() => undefined);
    api.trace.disable();
    api.context.disable();
    api.propagation.disable();
  };
}
