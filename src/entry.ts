import { setFlagsFromString } from 'node:v8';
import { type Config, ConfigError, loadConfig, loadDotEnv } from './config.js';
import { exitOnSignals, logMemoryOnSignal } from './lifecycle.js';
import { createLogger, type Logger } from './log.js';
import type { RunningBot } from './startup.js';

/**
 * One process around a start function, for both entry points (the production bot and `npm start`):
 * configuration from `.env` and the environment, one message naming every bad variable, the logger,
 * and the answer to signals.
 */
export async function runEntry(
  start: (config: Config, logger: Logger) => Promise<RunningBot>,
  o: { humanLogs?: boolean } = {},
): Promise<void> {
  // V8 lets a heap grow to four times what survived its last full collection on a machine with gigabytes
  // of memory; the acking thread's live heap is small and its garbage is short-lived, so most of that was
  // garbage left waiting (31 of 48 MB of old space at a 200-command burst). Told to favour size, V8 grows
  // it by a smaller factor: about 30 MB less at that peak, the acking thread's CPU per command still below a
  // bare Bolt app's (docs/performance.md).
  // Set here, not as a start flag, so it holds however the process is started; it is read at each collection.
  setFlagsFromString('--optimize-for-size');
  loadDotEnv();
  try {
    const config = loadConfig(process.env);
    const logger = createLogger({ level: config.logLevel, secrets: config.secrets, human: o.humanLogs });
    for (const notice of config.notices) logger.warn({ variable: notice.variable }, notice.message);
    // The signals are answered from before the start: a process manager may stop the bot while it is
    // still starting, and the default answer (die at once) would skip the stop. A signal then stops the
    // bot as soon as it is up.
    const starting = start(config, logger);
    exitOnSignals({ stop: async () => (await starting).stop(), logger, timeoutMs: config.shutdownTimeoutMs });
    const running = await starting;
    logMemoryOnSignal(logger, () => running.followUps.memory?.());
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`${e.message}\nSee .env.example for every variable.`);
      process.exit(2);
    }
    console.error('tsai-chatops failed to start:', e instanceof Error ? e.message : e);
    process.exit(1);
  }
}
