import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServiceClient } from '../../src/api/index.js';
import { type Config, loadConfig } from '../../src/config.js';
import { type SettableClock, settableClock } from '../../src/core/clock.js';
import { createLogger, type Logger } from '../../src/log.js';
import type { SlackApp } from '../../src/slack/app.js';
import { openStore, type Store } from '../../src/store/index.js';
import {
  type FaultSpec,
  type LoggedRequest,
  type RunningEmulator,
  startEmulator,
} from '../../standins/emulator/index.js';
import {
  type Delivery,
  type LocalChannel,
  type LocalMessage,
  type LocalSlack,
  type LocalSlackOptions,
  type LocalUser,
  type LocalUsergroup,
  startLocalSlack,
} from '../../standins/localslack/index.js';
import { type Running, startAll } from '../../standins/start-all.js';
import { type Sent, sentMarkupProblems } from './block-kit-schema/mrkdwn.js';
import { emulatorControl } from './emulator.js';
import { BOT_TOKEN, SIGNING_SECRET } from './harness-secrets.js';
import { captureLogs, registerSecrets } from './logs.js';
import { patient } from './patience.js';
import { type NamedClient, named } from './service-calls.js';

/** The fixed "now" of the harness: Sunday 22 Nov 2026, 10:00 UTC. Time ranges in tests are read against it. */
export const HARNESS_NOW = new Date('2026-11-22T10:00:00.000Z');

export { BOT_TOKEN, SIGNING_SECRET };

export interface BackendOptions {
  users?: LocalUser[];
  channels?: LocalChannel[];
  usergroups?: LocalUsergroup[];
  flowDelays?: { runningAfterMs: number; completedAfterMs: number };
  /** The local Slack's clock (triggers, response_urls, execution tokens); default the machine's. */
  slackNow?: () => number;
  /** The manifest's functions the local Slack offers as Workflow Builder steps. */
  functions?: LocalSlackOptions['functions'];
}

/**
 * The two real servers every end-to-end rig drives the bot against: the service emulator (flows stay
 * CREATED for a minute unless told otherwise, so tests see what they created) and the local Slack
 * stand-in, escaping command text as Slack does with should_escape.
 */
export async function startBackends(
  o: BackendOptions = {},
): Promise<{ emulator: RunningEmulator; slack: LocalSlack }> {
  const emulator = await startEmulator({
    host: '127.0.0.1',
    port: 0,
    flowDelays: o.flowDelays ?? { runningAfterMs: 60_000, completedAfterMs: 120_000 },
  });
  try {
    const slack = await startLocalSlack({
      signingSecret: SIGNING_SECRET,
      botToken: BOT_TOKEN,
      shouldEscape: true,
      ...(o.users ? { users: o.users } : {}),
      ...(o.channels ? { channels: o.channels } : {}),
      ...(o.usergroups ? { usergroups: o.usergroups } : {}),
      ...(o.slackNow ? { now: o.slackNow } : {}),
      ...(o.functions ? { functions: o.functions } : {}),
    });
    return { emulator, slack: patient(slack) };
  } catch (e) {
    await emulator.close();
    throw e;
  }
}

export interface HarnessOptions {
  /** Extra environment for `loadConfig` (TSAI_APPROVERS, TSAI_OPERATORS, …). */
  env?: Record<string, string>;
  /** The follow-up worker's program, when not the bot's own (a stand-in that never runs a job, say). */
  workerScript?: URL;
  /** Where the bot's clock starts (default HARNESS_NOW); it stands still unless the test moves it. */
  now?: Date;
  users?: LocalUser[];
  channels?: LocalChannel[];
  usergroups?: LocalUsergroup[];
  flowDelays?: { runningAfterMs: number; completedAfterMs: number };
  /** Operations the bot does not ship, by module URL, registered on both of its threads. */
  operations?: readonly string[];
  /** The manifest's functions the local Slack offers as Workflow Builder steps. */
  functions?: BackendOptions['functions'];
}

export interface Harness {
  emulator: RunningEmulator;
  slack: LocalSlack;
  /** The running bot, started exactly as `npm start` starts it (follow-up worker included). */
  running: Running;
  /** The bot's Bolt app (its port). */
  bot: SlackApp;
  /** The bot's clock, shared with its follow-up worker: tests may move it. */
  clock: SettableClock;
  /** A second client onto the emulator, for tests to read or prepare state. */
  service: NamedClient;
  config: Config;
  logger: Logger;
  /** Every log line the bot wrote (JSON strings). */
  logs: string[];
  /** Temp dir for this harness; the bot's SQLite store is the file `databaseUrl` in it. */
  dir: string;
  databaseUrl: string;
  /** A second connection onto the bot's store, for tests to read. */
  store: Store;
  /** Sends `/tsai <text>` as `user` in `channel`, signed as Slack does; resolves with the bot's ack. */
  command(text: string, o?: { user?: string; channel?: string }): Promise<Delivery>;
  /** Sends a command and waits for the first reply (ephemeral to the user or in channel) after it. */
  commandAndReply(text: string, o?: { user?: string; channel?: string }): Promise<LocalMessage>;
  /** Service API requests the emulator received (control requests excluded). */
  serviceRequests(): Promise<LoggedRequest[]>;
  /**
   * What was asked of the service for people's requests: its requests less the flow tracker's reads of
   * flows created earlier, which come whenever the tracker's schedule (and a busy machine) lets them.
   */
  askedOfService(): Promise<LoggedRequest[]>;
  clearServiceRequests(): Promise<void>;
  addFault(spec: FaultSpec): Promise<void>;
  clearFaults(): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_USER = 'U0ALICE';
export const DEFAULT_CHANNEL = 'C0OPS';

/**
 * Starts the real emulator, the local Slack stand-in and the real bot in HTTP mode (real signatures) on
 * ephemeral loopback ports, with a temp dir for a SQLite store. The bot starts through `startAll`, as
 * `npm start` starts it; only its clock is the test's.
 */
export async function startHarness(o: HarnessOptions = {}): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'tsai-harness-'));
  const databaseUrl = join(dir, 'tsai.sqlite');
  const cleanups: (() => Promise<void> | void)[] = [() => rmSync(dir, { recursive: true, force: true })];
  let sent: Sent | undefined;
  const close = async () => {
    const markup = sent ? sentMarkupProblems(sent) : [];
    for (const c of cleanups.reverse()) {
      try {
        await c();
      } catch {
        // keep closing the rest
      }
    }
    refuseMarkup(markup);
  };
  try {
    const { emulator, slack } = await startBackends(o);
    cleanups.push(
      () => emulator.close(),
      () => slack.close(),
    );
    sent = slack;

    const config = loadConfig({
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.apiUrl,
      TSAI_BASE_URL: emulator.url,
      TSAI_TOKEN: emulator.token,
      TSAI_ACCOUNT_ID: emulator.accountId,
      PORT: '0',
      TSAI_REQUEST_TIMEOUT_MS: '1500',
      TSAI_MAX_ATTEMPTS: '2',
      TSAI_MAX_RETRY_TIME_MS: '2000',
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'debug',
      // Many bots run at once in a test run: each test that scrapes metrics asks for a free port.
      TSAI_METRICS_PORT: 'off',
      ...o.env,
    });
    registerSecrets(...config.secrets);
    const { lines: logs, destination } = captureLogs();
    const logger = createLogger({
      level: config.logLevel,
      secrets: config.secrets,
      destination,
    });
    const service = named(
      createServiceClient({
        baseUrl: emulator.url,
        accountId: emulator.accountId,
        token: emulator.token,
      }),
    );
    cleanups.push(() => service.close());
    const store = await openStore(databaseUrl);
    cleanups.push(() => store.close());

    const control = emulatorControl(emulator.url);

    const clock = settableClock(o.now ?? HARNESS_NOW);
    const running = await startAll({
      config,
      logger,
      clock: clock.source,
      ...(o.workerScript ? { workerScript: o.workerScript } : {}),
      ...(o.operations ? { operations: o.operations } : {}),
    });
    cleanups.push(() => running.stop());
    slack.setBotEndpoint(`http://127.0.0.1:${running.slack.port()}/slack/events`);

    const harness: Omit<Harness, 'close'> = {
      running,
      bot: running.slack,
      clock,
      emulator,
      slack,
      service,
      config,
      logger,
      logs,
      dir,
      databaseUrl,
      store,
      command: (text, c = {}) =>
        slack.sendCommand({
          user: c.user ?? DEFAULT_USER,
          channel: c.channel ?? DEFAULT_CHANNEL,
          text,
          command: '/tsai',
        }),
      commandAndReply: (text, c = {}) =>
        commandAndReply(slack, text, c.user ?? DEFAULT_USER, c.channel ?? DEFAULT_CHANNEL),
      ...emulatorDriving(control),
    };
    return { ...harness, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/**
 * Whatever a test drove the bot through, nothing it sent a Slack may be misread as markup: the harness
 * and the approvals rig check every message and view when they close, so every test that runs the bot
 * checks its replies.
 */
export function refuseMarkup(problems: readonly string[]): void {
  if (problems.length > 0)
    throw new Error(
      `the bot sent text Slack reads as markup:\n${[...new Set(problems)].slice(0, 20).join('\n')}`,
    );
}

/** How long a reply may take before a test calls it lost. */
export const REPLY_BOUND_MS = 60_000;

/** `/tsai <text>` from `user` in `channel`, and the bot's next message there that this user can see. */
export async function commandAndReply(
  slack: LocalSlack,
  text: string,
  user: string,
  channel: string,
): Promise<LocalMessage> {
  const before = new Set(slack.messages(channel, { user }).map((m) => m.ts));
  const delivery = await slack.sendCommand({ user, channel, text, command: '/tsai' });
  if (delivery.status !== 200) throw new Error(`bot answered ${delivery.status}: ${delivery.body}`);
  return slack.waitFor(
    () =>
      slack
        .messages(channel, { user })
        .find((m) => !before.has(m.ts) && m.kind !== 'command' && m.user !== user),
    // A bound for a hang, not a measure: the follow-up worker runs at a lower priority, and on a machine
    // whose cores are busy it can wait seconds for one.
    REPLY_BOUND_MS,
    `a reply to /tsai ${text}`,
  );
}

/** What a harness does with its emulator: the requests it got (service calls only), and its faults. */
export function emulatorDriving(
  control: ReturnType<typeof emulatorControl>,
): Pick<Harness, 'serviceRequests' | 'askedOfService' | 'clearServiceRequests' | 'addFault' | 'clearFaults'> {
  const serviceRequests = async () =>
    ((await control('GET', 'requests')) as LoggedRequest[]).filter((r) => r.path.startsWith('/api/'));
  return {
    serviceRequests,
    async askedOfService() {
      return (await serviceRequests()).filter((r) => !(r.method === 'GET' && /\/flows\/\d+$/.test(r.path)));
    },
    clearServiceRequests: async () => {
      await control('DELETE', 'requests');
    },
    addFault: async (spec) => {
      await control('POST', 'faults', spec);
    },
    clearFaults: async () => {
      await control('DELETE', 'faults');
    },
  };
}
