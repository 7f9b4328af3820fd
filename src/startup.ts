import type { ServiceClientOptions } from './api/index.js';
import type { Config } from './config.js';
import { type ClockSource, SYSTEM_CLOCK } from './core/clock.js';
import type { WriteHealth } from './core/records.js';
import type { Logger } from './log.js';
import type { MetricsExposure } from './metrics/exposure.js';
import { startMetrics } from './metrics/start.js';
import { createSlackApp, type SlackApp } from './slack/app.js';
import { type Bot, type BotSetup, composeBot } from './slack/bot.js';
import { Readiness } from './slack/readiness.js';
import type { FollowUps } from './slack/runtime/jobs.js';
import { startFollowUps } from './slack/runtime/start.js';
import { startTracing } from './tracing/start.js';

export interface RunningBot {
  config: Config;
  /** The acking thread's bot: its store, service client, Slack client, approvals and operation runner. */
  bot: Bot;
  /** The Bolt app: listeners, HTTP port. */
  slack: SlackApp;
  /** Where follow-ups run: the follow-up worker thread, or this thread. */
  followUps: FollowUps;
  /** What `GET /readyz` answers. */
  readiness: Readiness;
  /** `GET /metrics` on its own port; absent when TSAI_METRICS_PORT is off or was taken. */
  metrics?: MetricsExposure;
  stop(): Promise<void>;
}

/**
 * A configuration with a service and a Slack to talk to: what the production bot needs. The shared token
 * may be absent only when everyone acts with their own (TSAI_REQUIRE_USER_TOKEN), which needs the key
 * their tokens are kept under. With "Add to Slack" each installation connects its own service account,
 * so none is configured (TSAI_BASE_URL, when set, is only what the setup form offers first).
 */
export type ConnectedConfig = Config & {
  slack: Exclude<Config['slack'], { mode: 'none' }>;
};

export interface StartBotOptions {
  config: ConnectedConfig;
  logger: Logger;
  /** The bot's clock; tests pass a settable one, which reaches the follow-up worker too. */
  clock?: ClockSource;
  /** How often expired approval requests are swept (default 30 s). */
  sweepIntervalMs?: number;
  /** Told when Slack refuses the bot's token; readiness is told anyway. */
  onSlackAuthError?: (error: string) => void;
  /** The follow-up worker's program, beside the entry that starts the bot (default: the one in dist/src). */
  workerScript?: URL;
  /** Operations the bot does not ship, by module URL (`BotSetup.operations`): a test's own. */
  operations?: readonly string[];
}

/** The variables the production bot cannot run without, missing from `config` (none: it can start). */
export function missingConnection(config: Config): string[] {
  const missing: string[] = [];
  if (config.slack.mode === 'installs') return missing;
  if (!config.service.baseUrl) missing.push('TSAI_BASE_URL');
  if (config.service.requireUserToken) {
    if (!config.secretKeys) missing.push('TSAI_SECRET_KEY (TSAI_REQUIRE_USER_TOKEN=true)');
  } else if (!config.service.token) missing.push('TSAI_TOKEN');
  if (!config.service.accountId) missing.push('TSAI_ACCOUNT_ID');
  if (config.slack.mode === 'none')
    missing.push('SLACK_BOT_TOKEN with SLACK_SIGNING_SECRET or SLACK_APP_TOKEN');
  return missing;
}

export function isConnected(config: Config): config is ConnectedConfig {
  return missingConnection(config).length === 0;
}

/**
 * Starts the bot: its store, its acking thread (the Bolt app) and its follow-up worker. It knows
 * nothing of stand-ins: whoever starts it says where the service and Slack are.
 */
export async function startBot(o: StartBotOptions): Promise<RunningBot> {
  const { config, logger } = o;
  const stops: (() => Promise<void>)[] = [];
  let readiness: Readiness | undefined;
  const slackAuthFailed = (error: string) => {
    readiness?.slackAuthFailed(error);
    o.onSlackAuthError?.(error);
  };
  const hooks = {
    onSlackAuthError: slackAuthFailed,
    onStoreWrites: (thread: string) => (health: WriteHealth) => readiness?.storeWrites(thread, health),
  };
  const stop = async () => {
    readiness?.stopping();
    for (const s of stops.reverse()) {
      try {
        await s();
      } catch (e) {
        logger.warn({ err: e instanceof Error ? e.message : String(e) }, 'error while stopping');
      }
    }
    stops.length = 0;
  };
  try {
    // First, so that the first request is traced; stopped last, so that every span is sent.
    stops.push(await startTracing(config.tracing, logger));
    // With "Add to Slack" there is no shared account: each installation's client is made from its own
    // (core/tenancy), with these same bounds.
    const service: ServiceClientOptions = {
      baseUrl: config.service.baseUrl ?? '',
      accountId: config.slack.mode === 'installs' ? '' : (config.service.accountId ?? ''),
      ...(config.service.token && config.slack.mode !== 'installs' ? { token: config.service.token } : {}),
      connectTimeoutMs: config.service.connectTimeoutMs,
      requestTimeoutMs: config.service.requestTimeoutMs,
      maxAttempts: config.service.maxAttempts,
      maxRetryTimeMs: config.service.maxRetryTimeMs,
      maxQueued: config.service.maxQueued,
    };
    const setup: BotSetup = {
      config,
      service,
      clock: o.clock ?? SYSTEM_CLOCK,
      ...(o.sweepIntervalMs ? { sweepIntervalMs: o.sweepIntervalMs } : {}),
      ...(o.operations?.length ? { operations: o.operations } : {}),
    };
    const bot = await composeBot(setup, logger, {
      onSlackAuthError: slackAuthFailed,
      onStoreWrites: hooks.onStoreWrites('acking'),
    });
    stops.push(() => bot.close());
    let listened!: () => void;
    const listening = new Promise<void>((ok) => {
      listened = ok;
    });
    const followUps = await startFollowUps(
      setup,
      bot,
      logger,
      { onSlackAuthError: slackAuthFailed, onStoreWrites: hooks.onStoreWrites('follow-ups') },
      { ...(o.workerScript ? { script: o.workerScript } : {}), startAfter: listening },
    );
    stops.push(() => followUps.stop());
    readiness = new Readiness({
      store: bot.store,
      // One bot token: Slack must accept it. "Add to Slack": no token is the bot's own, and one
      // installation's being refused (removed) leaves the others served.
      authTest: config.slack.mode === 'installs' ? async () => undefined : () => bot.slack.auth.test(),
      logger,
    });
    const slack = await createSlackApp(bot, followUps, readiness);
    // Acks that need no follow-up (help) do not wait for the worker to be ready.
    await slack.start(config.port);
    listened();
    await followUps.ready;
    stops.push(() => slack.stop());
    await readiness.start();
    const metrics = await startMetrics({
      settings: config.metrics,
      readStore: () => bot.store.operatorFigures(),
      otherThreads: () => followUps.metrics?.() ?? Promise.resolve([]),
      logger,
    });
    if (metrics) stops.push(() => metrics.stop());
    logger.info(
      { mode: config.slack.mode, port: config.slack.mode === 'socket' ? undefined : slack.port() },
      'tsai-chatops bot is running',
    );
    return { config, bot, slack, followUps, readiness, ...(metrics ? { metrics } : {}), stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
