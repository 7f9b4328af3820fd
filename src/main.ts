import { ConfigError, loadConfig, loadDotEnv } from './config.js';
import { exitOnSignals, logMemoryOnSignal } from './lifecycle.js';
import { createLogger } from './log.js';
import { startAll } from './startup.js';

async function main(): Promise<void> {
  loadDotEnv();
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`${e.message}\nSee .env.example for every variable.`);
      process.exit(2);
    }
    throw e;
  }
  const logger = createLogger({ level: config.logLevel, secrets: config.secrets });
  const running = await startAll({
    config,
    logger,
    banner: (text) => process.stderr.write(text),
    // The browser sandbox runs only without Slack settings, so only then does SANDBOX_PORT matter.
    // Loaded only then: the sandbox's modules (page server, manifest parser) cost a configured bot's start.
    sandboxPort:
      config.slack.mode === 'none'
        ? (await import('./standins/sandbox/start.js')).sandboxPortFromEnv(process.env)
        : undefined,
  });
  exitOnSignals({ stop: running.stop, logger, timeoutMs: running.config.shutdownTimeoutMs });
  logMemoryOnSignal(logger, () => running.followUps.memory?.());
}

main().catch((e: unknown) => {
  console.error('tsai-chatops failed to start:', e instanceof Error ? e.message : e);
  process.exit(1);
});
