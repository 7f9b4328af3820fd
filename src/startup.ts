import { randomBytes } from 'node:crypto';
import type { ServiceClientOptions } from './api/index.js';
import type { Config } from './config.js';
import { type ClockSource, SYSTEM_CLOCK } from './core/clock.js';
import { type Logger, rawLogWriter } from './log.js';
import { createSlackApp, type SlackApp } from './slack/app.js';
import { type Bot, type BotSetup, composeBot } from './slack/bot.js';
import { inThreadFollowUps } from './slack/follow-up/in-thread.js';
import type { FollowUps } from './slack/follow-up/jobs.js';
import { audienceOf } from './slack/follow-up/notices.js';
import { Readiness } from './slack/readiness.js';
import { say } from './slack/reply.js';
import type { RunningEmulator } from './standins/emulator/index.js';
import type { LocalSlack } from './standins/localslack/index.js';
import type { SandboxServer } from './standins/sandbox/server.js';
import { resolveStoreTarget } from './store/index.js';

export interface Running {
  config: Config;
  /** The acking thread's bot: its store, service client, Slack client, approvals and operation runner. */
  bot: Bot;
  /** The Bolt app: listeners, HTTP port. */
  slack: SlackApp;
  /** Where follow-ups run: the follow-up worker thread, or this thread. */
  followUps: FollowUps;
  /** Present when TSAI_BASE_URL was not set. */
  emulator?: RunningEmulator;
  /** Present when no Slack was configured. */
  localSlack?: LocalSlack;
  /** What `GET /readyz` answers. */
  readiness: Readiness;
  /** The browser sandbox page, present with the local Slack. */
  sandbox?: SandboxServer;
  stop(): Promise<void>;
}

export interface StartOptions {
  config: Config;
  logger: Logger;
  /** The bot's clock; tests pass a settable one, which reaches the follow-up worker too. */
  clock?: ClockSource;
  /** Where the big human-readable notices go besides the log (main: stderr). */
  banner?: (text: string) => void;
  /** How often expired approval requests are swept (default 30 s). */
  sweepIntervalMs?: number;
  /** Port of the browser sandbox page (local Slack only); default any free port. */
  sandboxPort?: number;
}

const RULE = '='.repeat(78);

/**
 * Starts everything `npm start` runs: the emulator when no service is configured, a local Slack stand-in
 * when no Slack is configured, and the bot: its acking thread and its follow-up worker.
 */
export async function startAll(o: StartOptions): Promise<Running> {
  const { logger } = o;
  let config = o.config;
  const stops: (() => Promise<void>)[] = [];
  const notice = (headline: string, detail: string) => {
    logger.warn(`${headline}. ${detail}`);
    o.banner?.(`\n${RULE}\n  ${headline}\n  ${detail}\n${RULE}\n\n`);
  };
  let readiness: Readiness | undefined;
  const slackAuthFailed = (error: string) => readiness?.slackAuthFailed(error);
  const stopAll = async () => {
    readiness?.stopping();
    for (const stop of stops.reverse()) {
      try {
        await stop();
      } catch (e) {
        logger.warn({ err: e instanceof Error ? e.message : String(e) }, 'error while stopping');
      }
    }
    stops.length = 0;
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
      const { startEmulator } = await import('./standins/emulator/index.js');
      emulator = await startEmulator({ host: '127.0.0.1', port: 0 });
      stops.push(() => emulator!.close());
      serviceTarget = { baseUrl: emulator.url, accountId: emulator.accountId, token: emulator.token };
      notice(
        `TSAI_BASE_URL is not set: using the BUILT-IN EMULATOR at ${emulator.url}`,
        'Nothing reaches a real service. Set TSAI_BASE_URL, TSAI_TOKEN and TSAI_ACCOUNT_ID for that.',
      );
    }
    const service: ServiceClientOptions = {
      baseUrl: serviceTarget.baseUrl!,
      accountId: serviceTarget.accountId!,
      token: serviceTarget.token!,
      connectTimeoutMs: config.service.connectTimeoutMs,
      requestTimeoutMs: config.service.requestTimeoutMs,
      maxAttempts: config.service.maxAttempts,
      maxRetryTimeMs: config.service.maxRetryTimeMs,
      maxQueued: config.service.maxQueued,
    };

    let localSlack: LocalSlack | undefined;
    if (config.slack.mode === 'none') {
      const signingSecret = randomBytes(16).toString('hex');
      const botToken = `xoxb-local-${randomBytes(12).toString('hex')}`;
      const { startLocalSlack, DEFAULT_USERGROUPS } = await import('./standins/localslack/index.js');
      localSlack = await startLocalSlack({ signingSecret, botToken, shouldEscape: true });
      stops.push(() => localSlack!.close());
      config = {
        ...config,
        slack: { mode: 'http', botToken, signingSecret, apiUrl: localSlack.apiUrl },
        secrets: [...config.secrets, botToken, signingSecret],
      };
      notice(
        `No Slack app configured: using a LOCAL SLACK STAND-IN at ${localSlack.url}`,
        'For real Slack set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET (HTTP) or SLACK_APP_TOKEN (Socket Mode).',
      );
      if (config.approvals.approvers.length === 0) {
        // The stand-in's demo group (bob, carol), so live start/stop can be tried without configuration.
        const groups = DEFAULT_USERGROUPS.map((g) => g.id);
        config = { ...config, approvals: { ...config.approvals, approvers: groups } };
        logger.info({ approvers: groups }, 'local Slack: approvers are the stand-in demo user group');
      }
    }

    const setup: BotSetup = {
      config,
      service,
      clock: o.clock ?? SYSTEM_CLOCK,
      ...(o.sweepIntervalMs ? { sweepIntervalMs: o.sweepIntervalMs } : {}),
    };
    const bot = await composeBot(setup, logger, { onSlackAuthError: slackAuthFailed });
    stops.push(() => bot.close());
    if (emulator && localSlack) {
      // The sandbox's one team knows the demo data by name from the start, as if someone had looked it up.
      const { demoCatalog } = await import('./standins/sandbox/demo-catalog.js');
      await bot.store.upsertCatalog(localSlack.teamId, demoCatalog(), Date.now());
    }
    const followUps = await startFollowUps(setup, bot, logger, slackAuthFailed);
    stops.push(() => followUps.stop());
    readiness = new Readiness({ store: bot.store, authTest: () => bot.slack.auth.test(), logger });
    const slack = createSlackApp(bot, followUps, readiness);
    // Acks that need no follow-up (help) do not wait for the worker to be ready.
    await Promise.all([slack.start(config.port), followUps.ready]);
    stops.push(() => slack.stop());
    await readiness.start();

    let sandbox: SandboxServer | undefined;
    if (localSlack) {
      localSlack.setBotEndpoint(`http://127.0.0.1:${slack.port()}/slack/events`);
      const { startSandbox } = await import('./standins/sandbox/start.js');
      sandbox = await startSandbox({
        slack: localSlack,
        emulatorUrl: emulator?.url,
        port: o.sandboxPort,
        logger,
      });
      stops.push(() => sandbox!.close());
      notice(
        `SANDBOX: open ${sandbox.url} in your browser`,
        'Act as alice, bob or carol and type /tsai help.',
      );
    }
    logger.info(
      { mode: config.slack.mode, port: config.slack.mode === 'http' ? slack.port() : undefined },
      'tsai-chatops bot is running',
    );
    return { config, bot, slack, followUps, emulator, localSlack, sandbox, readiness, stop: stopAll };
  } catch (e) {
    await stopAll();
    throw e;
  }
}

/**
 * Follow-ups run on a worker thread, so that acks never queue behind them (docs/performance.md). An
 * in-memory SQLite database cannot be opened by a second thread, so with one they run on this thread.
 */
async function startFollowUps(
  setup: BotSetup,
  bot: Bot,
  logger: Logger,
  onSlackAuthError: (error: string) => void,
): Promise<FollowUps> {
  const target = resolveStoreTarget(setup.config.databaseUrl);
  if (target.kind === 'sqlite' && target.file === ':memory:') {
    logger.warn(
      'an in-memory SQLite store cannot be shared with a worker thread; follow-ups run on the main thread',
    );
    return inThreadFollowUps(bot);
  }
  const [{ startWorkerHost }, { startFollowUpHolds }] = await Promise.all([
    import('./slack/follow-up/worker-host.js'),
    import('./slack/follow-up/holds.js'),
  ]);
  return startWorkerHost({
    setup,
    logger,
    onSlackAuthError,
    holds: startFollowUpHolds({ store: bot.store, logger }),
    // What is left of the shutdown bound goes to stopping HTTP, telling whom the drain left, and closing.
    drainTimeoutMs: Math.max(1_000, setup.config.shutdownTimeoutMs - 3_000),
    writeLog: rawLogWriter(logger),
    tell: (n, text) => say(bot, audienceOf(n), text),
  });
}
