import { basename, dirname, extname, join } from 'node:path';
import type { Config } from '../src/config.js';
import type { ClockSource } from '../src/core/clock.js';
import type { Logger } from '../src/log.js';
import { isConnected, type RunningBot, startBot } from '../src/startup.js';
import { resolveStoreTarget } from '../src/store/index.js';
import type { RunningEmulator } from './emulator/index.js';
import type { LocalSlack } from './localslack/index.js';
import type { SandboxSlack } from './sandbox/installs.js';
import type { SandboxServer } from './sandbox/server.js';

export interface Running extends RunningBot {
  /** Present when TSAI_BASE_URL was not set. */
  emulator?: RunningEmulator;
  /** Present when no Slack was configured. */
  localSlack?: LocalSlack;
  /** The browser sandbox page, present with the local Slack. */
  sandbox?: SandboxServer;
}

export interface StartOptions {
  config: Config;
  logger: Logger;
  /** The bot's clock; tests pass a settable one, which reaches the follow-up worker too. */
  clock?: ClockSource;
  /** The follow-up worker's program, when not the bot's own (a test's stand-in worker). */
  workerScript?: URL;
  /** Where the big human-readable notices go (`npm start`: stderr). */
  banner?: (text: string) => void;
  /** Whether each notice is a log entry too (default yes); `npm start` logging for a terminal shows the banner only. */
  noticesInLog?: boolean;
  /** How often expired approval requests are swept (default 30 s). */
  sweepIntervalMs?: number;
  /** Port of the browser sandbox page (local Slack only); default any free port. */
  sandboxPort?: number;
  /** Operations the bot does not ship, by module URL: a test's own (`BotSetup.operations`). */
  operations?: readonly string[];
}

const RULE = '='.repeat(78);

/** Where the built-in emulators listen: this machine only. */
const EMULATOR_HOST = '127.0.0.1';

/**
 * Where the built-in emulator keeps its world: beside the bot's SQLite file, so the two remember the same
 * flows and models across restarts (and are deleted together). An in-memory SQLite store forgets as the
 * emulator does; PostgreSQL may be shared by replicas and outlive this checkout, which one local file cannot
 * follow, so it gets an in-memory emulator too.
 */
export function emulatorStateFile(databaseUrl: string): string | undefined {
  const target = resolveStoreTarget(databaseUrl);
  if (target.kind !== 'sqlite' || target.file === ':memory:') return undefined;
  return join(dirname(target.file), `${basename(target.file, extname(target.file))}.emulator-world.json`);
}

/**
 * What `npm start` runs: a stand-in for whatever is not configured (the emulator without TSAI_BASE_URL,
 * a local Slack and the sandbox page without Slack settings), then the bot itself, started exactly as
 * the production entry starts it. With everything configured no stand-in module is loaded.
 */
export async function startAll(o: StartOptions): Promise<Running> {
  const { logger } = o;
  let config = o.config;
  const stops: (() => Promise<void>)[] = [];
  const notice = (headline: string, detail: string) => {
    if (o.noticesInLog !== false || !o.banner) logger.warn(`${headline}. ${detail}`);
    o.banner?.(`\n${RULE}\n  ${headline}\n  ${detail}\n${RULE}\n\n`);
  };
  let bot: RunningBot | undefined;
  const stopAll = async () => {
    bot?.readiness.stopping();
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
    if (!config.service.baseUrl) {
      const { startEmulator } = await import('./emulator/index.js');
      const stateFile = emulatorStateFile(config.databaseUrl);
      emulator = await startEmulator({
        host: EMULATOR_HOST,
        port: 0,
        ...(stateFile ? { stateFile, onStateProblem: (problem) => logger.warn(problem) } : {}),
      });
      stops.push(() => emulator!.close());
      config = {
        ...config,
        service: {
          ...config.service,
          baseUrl: emulator.url,
          accountId: emulator.accountId,
          token: emulator.token,
          // Workspaces' admins connect the emulators on this machine in `/tsai setup`: its loopback
          // address is allowed as TSAI_SERVICE_ALLOWED_ADDRESSES allows an on-premises service.
          allowedAddresses: [...config.service.allowedAddresses, EMULATOR_HOST],
        },
      };
      notice(
        `TSAI_BASE_URL is not set: using the BUILT-IN EMULATOR at ${emulator.url}`,
        `Nothing reaches a real service. Set TSAI_BASE_URL, TSAI_TOKEN and TSAI_ACCOUNT_ID for that. Service URLs given in /tsai setup may lead to ${EMULATOR_HOST} (TSAI_SERVICE_ALLOWED_ADDRESSES).`,
      );
      // The limit protects a real service; against the emulator, "every minute" shows a schedule firing
      // while one watches. Set explicitly, the variable still holds.
      if (process.env.TSAI_SCHEDULE_MIN_INTERVAL === undefined)
        config = { ...config, schedules: { ...config.schedules, minIntervalMs: 60_000 } };
    }

    let localSlack: LocalSlack | undefined;
    refuseSandboxBesideService(config, emulator !== undefined);
    let sandboxSlackOf: SandboxSlack | undefined;
    if (config.slack.mode === 'none') {
      const { sandboxSlack } = await import('./sandbox/installs.js');
      sandboxSlackOf = await sandboxSlack(config, logger, { builtInService: emulator !== undefined });
      const local = sandboxSlackOf;
      localSlack = local.slack;
      stops.push(() => local.stop());
      config = local.config;
      notice(
        `No Slack app configured: using a LOCAL SLACK STAND-IN at ${localSlack.url}`,
        'For real Slack set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET (HTTP), SLACK_APP_TOKEN (Socket Mode), or SLACK_CLIENT_ID and its settings ("Add to Slack", docs/install.md).',
      );
    }

    if (!config.secretKeys) {
      // People can connect their own tokens in the sandbox too; the key is kept beside its data.
      const { sandboxKey } = await import('./secret-key-file.js');
      const key = sandboxKey(config.databaseUrl);
      config.secrets.push(key.text);
      config = { ...config, secretKeys: key.keys };
      logger.info(
        { file: key.file ?? 'none: this run only', made: key.made },
        'TSAI_SECRET_KEY is not set: the sandbox keeps its own key for the tokens people connect',
      );
    }

    if (!isConnected(config))
      throw new Error('the service has no token or account ID (TSAI_TOKEN, TSAI_ACCOUNT_ID)');
    const { clock, sweepIntervalMs, operations, workerScript } = o;
    const running = await startBot({ config, logger, clock, sweepIntervalMs, operations, workerScript });
    bot = running;
    stops.push(() => running.stop());

    let sandbox: SandboxServer | undefined;
    if (localSlack && sandboxSlackOf) {
      localSlack.setBotEndpoint(`http://127.0.0.1:${running.slack.port()}/slack/events`);
      await sandboxSlackOf.installFirst(running);
      if (emulator) {
        // The sandbox's one team knows the demo data by name from the start, as if someone had looked it up.
        const { demoCatalog } = await import('./sandbox/demo-catalog.js');
        await running.bot.store.upsertCatalog(localSlack.teamId, demoCatalog(), Date.now());
      }
      const { startSandbox } = await import('./sandbox/start.js');
      sandbox = await startSandbox({
        slack: localSlack,
        emulatorUrl: emulator?.url,
        port: o.sandboxPort,
        logger,
        installUrl: `http://127.0.0.1:${running.slack.port()}/slack/install`,
        workspaceServices: sandboxSlackOf.workspaceServices,
      });
      stops.push(() => sandbox!.close());
      notice(
        `SANDBOX: open ${sandbox.url} in your browser`,
        'Act as alice, bob or carol and type /tsai help; greg and gina are another company, where the app is not installed yet.',
      );
    }
    return { ...running, emulator, localSlack, sandbox, stop: stopAll };
  } catch (e) {
    await stopAll();
    throw e;
  }
}

/** The page acts as any persona, with the service tokens it shows: beside a real service, only on purpose. */
function refuseSandboxBesideService(config: Config, withEmulator: boolean): void {
  if (config.slack.mode !== 'none' || withEmulator || config.sandboxWithService) return;
  throw new Error(
    'Slack is not configured (SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET, or SLACK_APP_TOKEN) while TSAI_BASE_URL points at a real service, so the sandbox page would let whoever opens it act on that service. Configure Slack, or set SANDBOX_WITH_SERVICE=true to try the sandbox against that service on purpose.',
  );
}
