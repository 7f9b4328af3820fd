import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Config, loadConfig } from '../../src/config.js';
import { type SettableClock, settableClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/log.js';
import { openStore, type Store } from '../../src/store/index.js';
import { type RunningEmulator, startEmulator } from '../../standins/emulator/index.js';
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
  install(target: InstallTarget, user: string): Promise<InstallOutcome>;
  /** `/tsai <text>` from `user` in `channel`, and the bot's next message there that `user` sees. */
  commandAndReply(text: string, user: string, channel: string): Promise<LocalMessage>;
  /**
   * `/tsai setup` from `user` in `channel`, and the form it opens sent with `company`'s service account
   * (what is given in `over` instead): the submission's delivery, whose errors are the form's.
   */
  setUp(
    user: string,
    channel: string,
    company: Company,
    over?: Partial<Record<'baseUrl' | 'accountId' | 'token', string>>,
  ): Promise<Delivery>;
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
    const secretKey = randomBytes(32).toString('base64');
    const stateSecret = randomBytes(16).toString('hex');
    registerSecrets(CLIENT.clientSecret, secretKey, stateSecret);
    const databaseUrl = join(dir, 'tsai.sqlite');
    const config = loadConfig({
      SLACK_CLIENT_ID: CLIENT.clientId,
      SLACK_CLIENT_SECRET: CLIENT.clientSecret,
      SLACK_STATE_SECRET: stateSecret,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.apiUrl,
      TSAI_SECRET_KEY: secretKey,
      TSAI_BASE_URL: emulators.acme.url,
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
    });
    const { lines: logs, destination } = captureLogs();
    const logger = createLogger({ level: config.logLevel, secrets: config.secrets, destination });
    const clock = settableClock(o.now ?? new Date('2026-11-22T10:00:00.000Z'));
    const running = await startAll({ config, logger, clock: clock.source });
    cleanups.push(() => running.stop());
    const base = `http://127.0.0.1:${running.slack.port()}`;
    slack.setBotEndpoint(`${base}/slack/events`);
    // The app's redirect URL, as its OAuth settings list it (the manifest's `redirect_urls`).
    if (config.slack.mode === 'installs')
      slack.configureOAuth({ ...CLIENT, redirectUrl: `${base}${config.slack.redirectPath}` });
    const store = await openStore(databaseUrl);
    cleanups.push(() => store.close());
    const installUrl = `${base}${config.slack.mode === 'installs' ? config.slack.installPath : ''}`;
    return {
      slack,
      emulators,
      running,
      config,
      clock,
      logs,
      store,
      installUrl,
      async install(target, user) {
        const outcome = await slack.installApp({ installUrl, user, ...target });
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
        const before = slack.topView(user)?.id;
        await slack.sendCommand({ user, channel, text: 'setup' });
        const view = await slack.waitFor(
          () => {
            const v = slack.topView(user);
            return v && v.id !== before && v.view.callback_id === 'tenant_setup_form' ? v : undefined;
          },
          60_000,
          `the setup form for ${user}`,
        );
        const e = emulators[company];
        const value = (v: string) => v;
        return slack.submitView({
          user,
          viewId: view.id,
          values: {
            setup_base_url: { setup_base_url_input: value(over.baseUrl ?? e.url) },
            setup_account_id: { setup_account_id_input: value(over.accountId ?? e.accountId) },
            setup_token: { setup_token_input: value(over.token ?? e.token) },
          },
        });
      },
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}
