import { ConfigError, loadConfig, loadDotEnv } from './config.js';
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
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    running.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((e: unknown) => {
  console.error('tsai-chatops failed to start:', e instanceof Error ? e.message : e);
  process.exit(1);
});
