import { randomBytes } from 'node:crypto';
import { createServiceClient, type ServiceClient } from './api/index.js';
import type { Config } from './config.js';
import type { RunningEmulator } from './emulator/index.js';
import type { LocalSlack } from './localslack/index.js';
import type { Logger } from './log.js';
import { type Bot, createBot } from './slack/app.js';
import type { BotHooks } from './slack/deps.js';
import { openStore, type Store } from './store/index.js';

export interface Running {
  config: Config;
  service: ServiceClient;
  store: Store;
  /** Present when TSAI_BASE_URL was not set. */
  emulator?: RunningEmulator;
  /** Present when no Slack was configured. */
  localSlack?: LocalSlack;
  bot?: Bot;
  stop(): Promise<void>;
}

export interface StartOptions {
  config: Config;
  logger: Logger;
  now?: () => Date;
  hooks?: BotHooks;
  /** Where the big human-readable notices go besides the log (main: stderr). */
  banner?: (text: string) => void;
}

const RULE = '='.repeat(78);

/**
 * Starts everything `npm start` runs: the emulator when no service is configured, the service client,
 * a local Slack stand-in when no Slack is configured, and the bot.
 */
export async function startAll(o: StartOptions): Promise<Running> {
  const { logger } = o;
  let config = o.config;
  const stops: (() => Promise<void>)[] = [];
  const notice = (headline: string, detail: string) => {
    logger.warn(`${headline}. ${detail}`);
    o.banner?.(`\n${RULE}\n  ${headline}\n  ${detail}\n${RULE}\n\n`);
  };
  const stopAll = async () => {
    for (const stop of stops.reverse()) {
      try {
        await stop();
      } catch (e) {
        logger.warn({ err: e instanceof Error ? e.message : String(e) }, 'error while stopping');
      }
    }
  };

  try {
    let emulator: RunningEmulator | undefined;
    let serviceTarget = {
      baseUrl: config.service.baseUrl,
      accountId: config.service.accountId,
      token: config.service.token,
    };
    if (!config.service.baseUrl) {
      // Loaded only when used: a configured bot starts faster without the emulator's modules.
      const { startEmulator } = await import('./emulator/index.js');
      emulator = await startEmulator({ host: '127.0.0.1', port: 0 });
      stops.push(() => emulator!.close());
      serviceTarget = { baseUrl: emulator.url, accountId: emulator.accountId, token: emulator.token };
      notice(
        `TSAI_BASE_URL is not set: using the BUILT-IN EMULATOR at ${emulator.url}`,
        'Nothing reaches a real service. Set TSAI_BASE_URL, TSAI_TOKEN and TSAI_ACCOUNT_ID for that.',
      );
    }
    const service = createServiceClient({
      baseUrl: serviceTarget.baseUrl!,
      accountId: serviceTarget.accountId!,
      token: serviceTarget.token!,
      connectTimeoutMs: config.service.connectTimeoutMs,
      requestTimeoutMs: config.service.requestTimeoutMs,
      maxAttempts: config.service.maxAttempts,
      maxRetryTimeMs: config.service.maxRetryTimeMs,
    });
    stops.push(() => service.close());

    const store = await openStore(config.databaseUrl);
    stops.push(() => store.close());

    let localSlack: LocalSlack | undefined;
    if (config.slack.mode === 'none') {
      const signingSecret = randomBytes(16).toString('hex');
      const botToken = `xoxb-local-${randomBytes(12).toString('hex')}`;
      const { startLocalSlack } = await import('./localslack/index.js');
      localSlack = await startLocalSlack({ signingSecret, botToken, shouldEscape: true });
      stops.push(() => localSlack!.close());
      config = { ...config, slack: { mode: 'http', botToken, signingSecret, apiUrl: localSlack.apiUrl } };
      notice(
        `No Slack app configured: using a LOCAL SLACK STAND-IN at ${localSlack.url}`,
        'For real Slack set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET (HTTP) or SLACK_APP_TOKEN (Socket Mode).',
      );
    }

    const bot = createBot({
      config,
      logger,
      service,
      store,
      now: o.now ?? (() => new Date()),
      ...(o.hooks ? { hooks: o.hooks } : {}),
    });
    await bot.start(config.port);
    stops.push(() => bot.stop());
    if (localSlack) localSlack.setBotEndpoint(`http://127.0.0.1:${bot.port()}/slack/events`);
    logger.info(
      { mode: config.slack.mode, port: config.slack.mode === 'http' ? bot.port() : undefined },
      'tsai-chatops bot is running',
    );
    return { config, service, store, emulator, localSlack, bot, stop: stopAll };
  } catch (e) {
    await stopAll();
    throw e;
  }
}
