import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Config, loadConfig } from '../../src/config.js';
import { type SettableClock, settableClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/log.js';
import { CONNECT_CALLBACK, TOKEN_BLOCK, TOKEN_INPUT } from '../../src/slack/identity/ids.js';
import { SETUP_CALLBACK, SETUP_FIELDS } from '../../src/slack/setup/ids.js';
import { openStore, type Store } from '../../src/store/index.js';
import { type LoggedRequest, type RunningEmulator, startEmulator } from '../../standins/emulator/index.js';
import {
  type Delivery,
  type InstallOutcome,
  type InstallTarget,
  type LocalChannel,
  type LocalMessage,
  type LocalSlack,
  type LocalUser,
  startLocalSlack,
} from '../../standins/localslack/index.js';
import { type Running, startAll } from '../../standins/start-all.js';
import { emulatorControl } from './emulator.js';
import { BOT_TOKEN, SIGNING_SECRET } from './harness-secrets.js';
import { captureLogs, registerSecrets } from './logs.js';
import { manifestFunctionsOnDisk } from './manifest-functions.js';
import { patient } from './patience.js';

/** The app's own credentials, as its Basic Information page holds them. */
export const CLIENT = { clientId: '4242.4343', clientSecret: 'installs-rig-client-secret-0123' };

/**
 * Two companies that each install the app in their workspace (Acme, Globex), and an Enterprise Grid
 * organisation (Initech) with two workspaces and a channel they share, for an org-wide install.
 */
export const WORLD = {
  teams: [
    { id: 'T0ACME', name: 'Acme', domain: 'acme' },
    { id: 'T0GLOBEX', name: 'Globex', domain: 'globex' },
    { id: 'T0NORTH', name: 'Initech North', domain: 'initech-north', enterpriseId: 'E0INITECH' },
    { id: 'T0SOUTH', name: 'Initech South', domain: 'initech-south', enterpriseId: 'E0INITECH' },
  ],
  enterprises: [{ id: 'E0INITECH', name: 'Initech' }],
  users: [
    { id: 'U0ANNA', name: 'anna', realName: 'Anna Acme', tz: 'Europe/Berlin', teamId: 'T0ACME' },
    { id: 'U0ARNE', name: 'arne', realName: 'Arne Acme', tz: 'Europe/Berlin', teamId: 'T0ACME' },
    { id: 'U0GREG', name: 'greg', realName: 'Greg Globex', tz: 'America/Chicago', teamId: 'T0GLOBEX' },
    {
      id: 'U0GINA',
      name: 'gina',
      realName: 'Gina Globex',
      tz: 'America/Chicago',
      teamId: 'T0GLOBEX',
      isAdmin: true,
    },
    { id: 'W0NINA', name: 'nina', realName: 'Nina North', tz: 'UTC', teamId: 'T0NORTH' },
    { id: 'W0SAM', name: 'sam', realName: 'Sam South', tz: 'UTC', teamId: 'T0SOUTH' },
  ] satisfies LocalUser[],
  channels: [
    { id: 'C0ACME', name: 'acme-ops', teams: ['T0ACME'] },
    { id: 'C0GLOBEX', name: 'globex-ops', teams: ['T0GLOBEX'] },
    { id: 'C0NORTH', name: 'north-ops', teams: ['T0NORTH'] },
    { id: 'C0SOUTH', name: 'south-ops', teams: ['T0SOUTH'] },
    { id: 'C0SHARED', name: 'initech-shared', teams: ['T0NORTH', 'T0SOUTH'] },
  ] satisfies LocalChannel[],
};

/** Each tenant's own service account: an emulator of its own, with its own account ID and token. */
const ACCOUNTS = {
  acme: '1000000000000000101',
  globex: '1000000000000000202',
  initech: '1000000000000000303',
} as const;

export type Company = keyof typeof ACCOUNTS;

/** Where every company's service starts its IDs when they hand out the same ones (`sameIds`). */
const SAME_FIRST_ID = '1400000000000000001';

export interface InstallsRig {
  slack: LocalSlack;
  emulators: Record<Company, RunningEmulator>;
  running: Running;
  config: Config;
  clock: SettableClock;
  logs: string[];
  /** A second connection onto the bot's store, for tests to read. */
  store: Store;
  /** The bot's "Add to Slack" page. */
  installUrl: string;
  /** What `company`'s service was asked, its emulator's control requests left out. */
  serviceLog(company: Company): Promise<LoggedRequest[]>;
  /** The flows `company`'s service was asked to create. */
  flowPosts(company: Company): Promise<LoggedRequest[]>;
  /**
   * Stops the bot and starts it again as `npm start` would, with `env` over the environment it had (another
   * DATABASE_URL, say), against the same local Slack, emulators and clock; its keys and secrets the same.
   */
  restartBot(env: Record<string, string>): Promise<void>;
  install(target: InstallTarget, user: string): Promise<InstallOutcome>;
  /** `/tsai <text>` from `user` in `channel`, and the bot's next message there that `user` sees. */
  commandAndReply(text: string, user: string, channel: string): Promise<LocalMessage>;
  /**
   * `/tsai setup` from `user` in `channel`, and the form it opens sent with `company`'s service account
   * (what is given in `over` instead): the submission's delivery, whose errors are the form's.
   */
  setUp(user: string, channel: string, company: Company, over?: AccountFields): Promise<Delivery>;
  /** `/tsai connect` from `user` in `channel`, and the form it opens sent with `token`: its delivery. */
  connectToken(user: string, channel: string, token: string): Promise<Delivery>;
  close(): Promise<void>;
}

/**
 * The real bot in "Add to Slack" mode (SLACK_CLIENT_ID and its settings, no bot token of its own), started
 * as `npm start` starts it, against the local Slack playing every workspace, the organisation, the
 * authorize page and `oauth.v2.access`, and one emulator per company as its service account.
 */
export async function startInstallsRig(
  o: {
    env?: Record<string, string>;
    now?: Date;
    /** The companies' services hand out the same IDs (each its own flows, models, workspaces). */
    sameIds?: boolean;
    flowDelays?: { runningAfterMs: number; completedAfterMs: number };
    /** People and channels besides WORLD's. */
    extra?: { users?: LocalUser[]; channels?: LocalChannel[] };
  } = {},
): Promise<InstallsRig> {
  const dir = mkdtempSync(join(tmpdir(), 'tsai-installs-'));
  const cleanups: (() => Promise<unknown> | unknown)[] = [
    () => rmSync(dir, { recursive: true, force: true }),
  ];
  const close = async () => {
    for (const c of cleanups.reverse()) await Promise.resolve(c()).catch(() => undefined);
  };
  try {
    const emulators = {} as Record<Company, RunningEmulator>;
    for (const [company, accountId] of Object.entries(ACCOUNTS) as [Company, string][]) {
      const token = `svc-${company}-${randomBytes(8).toString('hex')}`;
      emulators[company] = await startEmulator({
        host: '127.0.0.1',
        port: 0,
        accountId,
        token,
        flowDelays: o.flowDelays ?? { runningAfterMs: 60_000, completedAfterMs: 120_000 },
        ...(o.sameIds ? { firstId: SAME_FIRST_ID } : {}),
      });
      registerSecrets(token);
      cleanups.push(() => emulators[company].close());
    }
    const slack = patient(
      await startLocalSlack({
        signingSecret: SIGNING_SECRET,
        botToken: BOT_TOKEN,
        shouldEscape: true,
        oauth: CLIENT,
        functions: manifestFunctionsOnDisk(),
        ...WORLD,
        users: [...WORLD.users, ...(o.extra?.users ?? [])],
        channels: [...WORLD.channels, ...(o.extra?.channels ?? [])],
      }),
    );
    cleanups.push(() => slack.close());
    const bot = await startInstallsBot({
      slack,
      serviceUrl: emulators.acme.url,
      dir,
      ...(o.env ? { env: o.env } : {}),
      now: o.now ?? new Date('2026-11-22T10:00:00.000Z'),
    });
    cleanups.push(...bot.cleanups);
    const { logs, clock, store } = bot;
    const serviceLog = async (c: Company) =>
      ((await emulatorControl(emulators[c].url)('GET', 'requests')) as LoggedRequest[]).filter((r) =>
        r.path.startsWith('/api/'),
      );
    const rig: InstallsRig = {
      slack,
      emulators,
      running: bot.running,
      config: bot.config,
      clock,
      logs,
      store,
      installUrl: bot.installUrl,
      serviceLog,
      async flowPosts(c) {
        return (await serviceLog(c)).filter((r) => r.method === 'POST' && r.path.endsWith('/flows'));
      },
      async restartBot(over) {
        const again = await bot.restart(over);
        Object.assign(rig, { running: again.running, config: again.config, installUrl: again.installUrl });
      },
      async install(target, user) {
        const outcome = await slack.installApp({ installUrl: rig.installUrl, user, ...target });
        if (outcome.install) registerSecrets(outcome.install.token);
        return outcome;
      },
      async commandAndReply(text, user, channel) {
        const before = new Set(slack.messages(channel, { user }).map((m) => m.ts));
        const d = await slack.sendCommand({ user, channel, text });
        if (d.status !== 200) throw new Error(`bot answered ${d.status}: ${d.body}`);
        return slack.waitFor(
          () =>
            slack
              .messages(channel, { user })
              .find((m) => !before.has(m.ts) && m.kind !== 'command' && m.user !== user),
          60_000,
          `a reply to /tsai ${text} from ${user}`,
        );
      },
      async setUp(user, channel, company, over = {}) {
        const { viewId, said } = await openSetupForm(slack, user, channel);
        if (!viewId) throw new Error(`the setup form did not open for ${user}: ${said}`);
        return sendSetupForm(slack, user, viewId, emulators[company], over);
      },
      async connectToken(user, channel, token) {
        const before = slack.topView(user)?.id;
        await slack.sendCommand({ user, channel, text: 'connect' });
        const form = await slack.waitFor(
          () => {
            const v = slack.topView(user);
            return v && v.id !== before && v.view.callback_id === CONNECT_CALLBACK ? v : undefined;
          },
          60_000,
          `the Connect form for ${user}`,
        );
        return slack.submitView({
          user,
          viewId: form.id,
          values: { [TOKEN_BLOCK]: { [TOKEN_INPUT]: token } },
        });
      },
      close,
    };
    return rig;
  } catch (e) {
    await close();
    throw e;
  }
}

/** What the setup form takes instead of an emulator's own account. */
export type AccountFields = Partial<Record<'baseUrl' | 'accountId' | 'token', string>>;

/**
 * The bot in "Add to Slack" mode, configured as a deployment is (its own client ID and secrets, the
 * emulators on this machine allowed as an on-premises service is), started as `npm start` starts it against
 * `slack`, with its store in `dir`: what rigs drive it with, and what to close.
 */
export async function startInstallsBot(o: {
  slack: LocalSlack;
  serviceUrl: string;
  dir: string;
  env?: Record<string, string>;
  now: Date;
}) {
  const { slack } = o;
  const cleanups: (() => Promise<unknown> | unknown)[] = [];
  const secretKey = randomBytes(32).toString('base64');
  const stateSecret = randomBytes(16).toString('hex');
  registerSecrets(CLIENT.clientSecret, secretKey, stateSecret);
  const databaseUrl = join(o.dir, 'tsai.sqlite');
  const env = {
    SLACK_CLIENT_ID: CLIENT.clientId,
    SLACK_CLIENT_SECRET: CLIENT.clientSecret,
    SLACK_STATE_SECRET: stateSecret,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: slack.apiUrl,
    TSAI_SECRET_KEY: secretKey,
    TSAI_BASE_URL: o.serviceUrl,
    // The emulators run on this machine: allowed as a deployment allows an on-premises service.
    TSAI_SERVICE_ALLOWED_ADDRESSES: '127.0.0.1',
    PORT: '0',
    TSAI_REQUEST_TIMEOUT: '1500ms',
    TSAI_MAX_ATTEMPTS: '2',
    TSAI_MAX_RETRY_TIME: '2s',
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'debug',
    TSAI_METRICS_PORT: 'off',
    ...o.env,
  };
  const { lines: logs, destination } = captureLogs();
  const clock = settableClock(o.now);
  const start = async (over: Record<string, string> = {}) => {
    const config = loadConfig({ ...env, ...over });
    registerSecrets(...config.secrets);
    const logger = createLogger({ level: config.logLevel, secrets: config.secrets, destination });
    const running = await startAll({ config, logger, clock: clock.source });
    const base = `http://127.0.0.1:${running.slack.port()}`;
    slack.setBotEndpoint(`${base}/slack/events`);
    // The app's redirect URL, as its OAuth settings list it (the manifest's `redirect_urls`).
    if (config.slack.mode === 'installs')
      slack.configureOAuth({ ...CLIENT, redirectUrl: `${base}${config.slack.redirectPath}` });
    const installUrl = `${base}${config.slack.mode === 'installs' ? config.slack.installPath : ''}`;
    return { config, logger, running, installUrl };
  };
  let now = await start();
  cleanups.push(() => now.running.stop());
  const store = await openStore(databaseUrl);
  cleanups.push(() => store.close());
  /**
   * Stops the bot and starts it again as `npm start` would, with `over` over the environment it had,
   * against the same local Slack and clock; its keys and secrets the same.
   */
  const restart = async (over: Record<string, string>) => {
    await now.running.stop();
    now = await start(over);
    return now;
  };
  return { ...now, logs, clock, store, databaseUrl, cleanups, restart };
}

/**
 * `/tsai setup` from `user` in `channel` (as of `teamId`'s workspace, when given): the form it opens, or
 * what the bot said of the workspace's account instead (a slower answer to something else is passed over).
 */
export async function openSetupForm(
  slack: LocalSlack,
  user: string,
  channel: string,
  teamId?: string,
): Promise<{ viewId?: string; said?: string }> {
  const before = slack.topView(user)?.id;
  const seen = new Set(slack.messages(channel, { user }).map((m) => m.ts));
  await slack.sendCommand({ user, channel, text: 'setup', ...(teamId ? { teamId } : {}) });
  const said = (m: LocalMessage) => `${m.text} ${JSON.stringify(m.blocks ?? [])}`;
  return slack.waitFor(
    () => {
      const v = slack.topView(user);
      if (v && v.id !== before && v.view.callback_id === SETUP_CALLBACK) return { viewId: v.id };
      const told = slack
        .messages(channel, { user })
        .find(
          (m) =>
            !seen.has(m.ts) &&
            m.user !== user &&
            /This workspace (works with|is not connected)/.test(said(m)),
        );
      return told ? { said: said(told) } : undefined;
    },
    60_000,
    `the setup form for ${user}, or why not`,
  );
}

/** The setup form `viewId` of `user` sent with `service`'s account (what `over` gives instead). */
export function sendSetupForm(
  slack: LocalSlack,
  user: string,
  viewId: string,
  service: { url: string; accountId: string; token: string },
  over: AccountFields = {},
): Promise<Delivery> {
  const field = (f: keyof typeof SETUP_FIELDS, v: string) => ({
    [SETUP_FIELDS[f].block]: { [SETUP_FIELDS[f].input]: v },
  });
  return slack.submitView({
    user,
    viewId,
    values: {
      ...field('baseUrl', over.baseUrl ?? service.url),
      ...field('accountId', over.accountId ?? service.accountId),
      ...field('token', over.token ?? service.token),
    },
  });
}
