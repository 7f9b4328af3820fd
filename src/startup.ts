import { randomBytes } from 'node:crypto';
import type { ServiceClient, ServiceClientOptions } from './api/index.js';
import { createLazyServiceClient } from './api/lazy.js';
import type { Config } from './config.js';
import type { Logger } from './log.js';
import { type Bot, createBot } from './slack/app.js';
import type { CommandWorker } from './slack/command-worker/start.js';
import type { BotHooks } from './slack/deps.js';
import { createGovernance, type Governance } from './slack/governance/index.js';
import type { RunningEmulator } from './standins/emulator/index.js';
import type { LocalSlack } from './standins/localslack/index.js';
import type { SandboxServer } from './standins/sandbox/server.js';
import { openStore, resolveStoreTarget, type Store } from './store/index.js';

export interface Running {
  config: Config;
  service: ServiceClient;
  store: Store;
  /** Approvals, access policy, channel defaults and audit on the Slack side. */
  governance: Governance;
  /** Present when TSAI_BASE_URL was not set. */
  emulator?: RunningEmulator;
  /** Present when no Slack was configured. */
  localSlack?: LocalSlack;
  bot?: Bot;
  /** The browser sandbox page, present with the local Slack. */
  sandbox?: SandboxServer;
  stop(): Promise<void>;
}

export interface StartOptions {
  config: Config;
  logger: Logger;
  now?: () => Date;
  hooks?: BotHooks;
  /** Where the big human-readable notices go besides the log (main: stderr). */
  banner?: (text: string) => void;
  /** How often expired approval requests are swept (default 30 s). */
  sweepIntervalMs?: number;
  /** Port of the browser sandbox page (local Slack only); default any free port. */
  sandboxPort?: number;
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
      const { startEmulator } = await import('./standins/emulator/index.js');
      emulator = await startEmulator({ host: '127.0.0.1', port: 0 });
      stops.push(() => emulator!.close());
      serviceTarget = { baseUrl: emulator.url, accountId: emulator.accountId, token: emulator.token };
      notice(
        `TSAI_BASE_URL is not set: using the BUILT-IN EMULATOR at ${emulator.url}`,
        'Nothing reaches a real service. Set TSAI_BASE_URL, TSAI_TOKEN and TSAI_ACCOUNT_ID for that.',
      );
    }
    const serviceOptions: ServiceClientOptions = {
      baseUrl: serviceTarget.baseUrl!,
      accountId: serviceTarget.accountId!,
      token: serviceTarget.token!,
      connectTimeoutMs: config.service.connectTimeoutMs,
      requestTimeoutMs: config.service.requestTimeoutMs,
      maxAttempts: config.service.maxAttempts,
      maxRetryTimeMs: config.service.maxRetryTimeMs,
      maxQueued: config.service.maxQueued,
    };
    const service = createLazyServiceClient(serviceOptions);
    stops.push(() => service.close());

    const store = await openStore(config.databaseUrl);
    stops.push(() => store.close());

    let localSlack: LocalSlack | undefined;
    if (config.slack.mode === 'none') {
      const signingSecret = randomBytes(16).toString('hex');
      const botToken = `xoxb-local-${randomBytes(12).toString('hex')}`;
      const { startLocalSlack, DEFAULT_USERGROUPS } = await import('./standins/localslack/index.js');
      localSlack = await startLocalSlack({ signingSecret, botToken, shouldEscape: true });
      stops.push(() => localSlack!.close());
      config = { ...config, slack: { mode: 'http', botToken, signingSecret, apiUrl: localSlack.apiUrl } };
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

    const commandWorker = await startCommandWorkerIfWanted(o, config, serviceOptions);
    if (commandWorker) stops.push(() => commandWorker.stop());

    const now = o.now ?? (() => new Date());
    let bot: Bot | undefined;
    const governance = createGovernance({
      config,
      logger,
      service,
      store,
      now,
      slack: () => {
        if (!bot) throw new Error('the Slack client is used before the bot exists');
        return bot.app.client;
      },
      sweepIntervalMs: o.sweepIntervalMs,
    });
    bot = createBot({
      config,
      logger,
      service,
      store,
      now,
      hooks: { ...governance.hooks, ...o.hooks },
      governance,
      ...(commandWorker ? { runCommand: commandWorker.run } : {}),
    });
    const started = bot;
    // The worker starts alongside: acks that need no follow-up work (help) do not wait for it.
    await Promise.all([started.start(config.port), commandWorker?.ready]);
    stops.push(() => started.stop());
    // After the bot is up (it updates messages): expiry missed while down, interrupted executions, sweeping.
    await governance.start();
    stops.push(() => governance.stop());
    if (localSlack) localSlack.setBotEndpoint(`http://127.0.0.1:${started.port()}/slack/events`);
    let sandbox: SandboxServer | undefined;
    if (localSlack) {
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
      { mode: config.slack.mode, port: config.slack.mode === 'http' ? started.port() : undefined },
      'tsai-chatops bot is running',
    );
    return { config, service, store, governance, emulator, localSlack, bot: started, sandbox, stop: stopAll };
  } catch (e) {
    await stopAll();
    throw e;
  }
}

/**
 * The command worker (config.commandWorker, default on). A test clock or hooks are functions and cannot
 * reach another thread, so asking for them with the worker is a mistake, not a silent fallback. An
 * in-memory SQLite database cannot be shared with a second connection, so it keeps commands in-thread.
 */
async function startCommandWorkerIfWanted(
  o: StartOptions,
  config: Config,
  service: ServiceClientOptions,
): Promise<CommandWorker | undefined> {
  if (!config.commandWorker) return undefined;
  if (o.now || o.hooks) {
    throw new Error(
      'startAll: `now` and `hooks` cannot reach the command worker; set TSAI_COMMAND_WORKER=false to run commands on the main thread',
    );
  }
  const target = resolveStoreTarget(config.databaseUrl);
  if (target.kind === 'sqlite' && target.file === ':memory:') {
    o.logger.warn(
      'an in-memory SQLite store cannot be shared with the command worker; commands run on the main thread',
    );
    return undefined;
  }
  const { startCommandWorker } = await import('./slack/command-worker/start.js');
  return startCommandWorker({ setup: { config, service }, logger: o.logger });
}
