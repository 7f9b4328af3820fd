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
  loadDotEnv();
  try {
    const config = loadConfig(process.env);
    const logger = createLogger({ level: config.logLevel, secrets: config.secrets, human: o.humanLogs });
    for (const notice of config.notices) logger.warn({ variable: notice.variable }, notice.message);
    const running = await start(config, logger);
    exitOnSignals({ stop: running.stop, logger, timeoutMs: running.config.shutdownTimeoutMs });
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
