import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServiceClient } from '../../src/api/index.js';
import { type RunningEmulator, startEmulator } from '../../standins/emulator/index.js';
import {
  type Delivery,
  type LocalChannel,
  type LocalUser,
  startLocalSlack,
} from '../../standins/localslack/index.js';
import { type Sent, sentMarkupProblems } from './block-kit-schema/mrkdwn.js';
import { emulatorControl } from './emulator.js';
import {
  BOT_TOKEN,
  commandAndReply,
  DEFAULT_CHANNEL,
  DEFAULT_USER,
  emulatorDriving,
  HARNESS_NOW,
  type Harness,
  type HarnessOptions,
  refuseMarkup,
  SIGNING_SECRET,
} from './harness.js';
import {
  type AccountFields,
  CLIENT,
  openSetupForm,
  sendSetupForm,
  startInstallsBot,
} from './installs-rig.js';
import { registerSecrets } from './logs.js';
import { manifestFunctionsOnDisk } from './manifest-functions.js';
import { patient } from './patience.js';
import { named } from './service-calls.js';

/**
 * The people and places of the "Add to Slack" harness besides the test's own (who are of the stand-in's
 * workspace, T0LOCAL): that workspace's installer (no admin), its admins, and an Enterprise Grid
 * organisation installed org-wide, whose North workspace shares a channel with T0LOCAL (Slack Connect).
 */
export const TENANTS = {
  local: {
    tenant: 'T0LOCAL',
    installer: 'U0IVAN',
    admin: 'U0ADAM',
    /** Admins the matrix takes rights from, or deactivates, between opening the form and sending it. */
    spareAdmins: ['U0ADMA', 'U0ADMB'],
  },
  org: {
    tenant: 'E0ORG',
    workspace: 'T0NORTH',
    installer: 'W0NINA',
    orgAdmin: 'W0OLGA',
    /** An admin of the North workspace, who is no organisation admin. */
    workspaceAdmin: 'W0NORA',
    channel: 'C0NORTH',
  },
} as const;

const PEOPLE: LocalUser[] = [
  { id: TENANTS.local.installer, name: 'ivan', tz: 'UTC' },
  { id: TENANTS.local.admin, name: 'adam', tz: 'UTC', isAdmin: true },
  ...TENANTS.local.spareAdmins.map((id) => ({
    id,
    name: id.slice(3).toLowerCase(),
    tz: 'UTC',
    isAdmin: true,
  })),
  { id: TENANTS.org.installer, name: 'nina', tz: 'UTC', teamId: TENANTS.org.workspace },
  { id: TENANTS.org.orgAdmin, name: 'olga', tz: 'UTC', teamId: TENANTS.org.workspace, orgAdmin: true },
  { id: TENANTS.org.workspaceAdmin, name: 'nora', tz: 'UTC', teamId: TENANTS.org.workspace, isAdmin: true },
];

/** The other tenant, as the matrix drives it: the organisation, through its North workspace. */
export interface OtherTenant {
  emulator: RunningEmulator;
  /** The workspace its people act from, and the tenant the bot keeps its records under. */
  workspace: string;
  tenant: string;
}

export interface InstallsHarness extends Harness {
  other: OtherTenant;
  /** `/tsai setup` from `user` in `channel`: the form, or what the bot said instead. */
  openSetup(user: string, channel: string, teamId?: string): Promise<{ viewId?: string; said?: string }>;
  /** The setup form `viewId` of `user` sent with `emulator`'s account (what `over` gives instead). */
  sendSetup(user: string, viewId: string, emulator: RunningEmulator, over?: AccountFields): Promise<Delivery>;
}

/**
 * The real bot in "Add to Slack" mode, started as `npm start` starts it, against the local Slack and one
 * emulator per tenant: the stand-in's workspace (T0LOCAL, a workspace install, installed by someone who is
 * no admin and connected by one of its admins to the harness's own emulator), and an organisation installed
 * org-wide (connected by an organisation admin to an emulator of its own). The harness speaks for the first
 * as the one-token harness does, so that what is driven through it is driven the same in both.
 */
export async function startInstallsHarness(o: HarnessOptions = {}): Promise<InstallsHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'tsai-installs-harness-'));
  const cleanups: (() => Promise<unknown> | unknown)[] = [
    () => rmSync(dir, { recursive: true, force: true }),
  ];
  let sent: Sent | undefined;
  const close = async () => {
    const markup = sent ? sentMarkupProblems(sent) : [];
    for (const c of cleanups.reverse()) await Promise.resolve(c()).catch(() => undefined);
    refuseMarkup(markup);
  };
  try {
    const flowDelays = o.flowDelays ?? { runningAfterMs: 60_000, completedAfterMs: 120_000 };
    const emulator = await startEmulator({ host: '127.0.0.1', port: 0, flowDelays });
    cleanups.push(() => emulator.close());
    const orgToken = `svc-org-${randomBytes(8).toString('hex')}`;
    const orgEmulator = await startEmulator({
      host: '127.0.0.1',
      port: 0,
      accountId: '1000000000000000303',
      token: orgToken,
      flowDelays,
    });
    cleanups.push(() => orgEmulator.close());
    registerSecrets(emulator.token, orgToken);
    const channels: LocalChannel[] = (o.channels ?? []).map((c) =>
      // The test's main channel is shared with the organisation's North workspace (Slack Connect).
      c.id === DEFAULT_CHANNEL ? { ...c, teams: ['T0LOCAL', TENANTS.org.workspace] } : c,
    );
    const slack = patient(
      await startLocalSlack({
        signingSecret: SIGNING_SECRET,
        botToken: BOT_TOKEN,
        shouldEscape: true,
        oauth: CLIENT,
        functions: o.functions ?? manifestFunctionsOnDisk(),
        teams: [
          {
            id: TENANTS.org.workspace,
            name: 'Org North',
            domain: 'org-north',
            enterpriseId: TENANTS.org.tenant,
          },
          { id: 'T0SOUTH', name: 'Org South', domain: 'org-south', enterpriseId: TENANTS.org.tenant },
        ],
        enterprises: [{ id: TENANTS.org.tenant, name: 'The Organisation' }],
        users: [...(o.users ?? []), ...PEOPLE],
        channels: [
          ...channels,
          { id: TENANTS.org.channel, name: 'north-ops', teams: [TENANTS.org.workspace] },
        ],
        ...(o.usergroups ? { usergroups: o.usergroups } : {}),
      }),
    );
    cleanups.push(() => slack.close());
    sent = slack;
    const bot = await startInstallsBot({
      slack,
      serviceUrl: emulator.url,
      dir,
      ...(o.env ? { env: o.env } : {}),
      now: o.now ?? HARNESS_NOW,
    });
    cleanups.push(...bot.cleanups);
    const { config, logger, logs, clock, running, store, installUrl, databaseUrl } = bot;
    const service = named(
      createServiceClient({ baseUrl: emulator.url, accountId: emulator.accountId, token: emulator.token }),
    );
    cleanups.push(() => service.close());
    const control = emulatorControl(emulator.url);
    const openSetup: InstallsHarness['openSetup'] = (user, channel, teamId) =>
      openSetupForm(slack, user, channel, teamId);
    const sendSetup: InstallsHarness['sendSetup'] = (user, viewId, e, over) =>
      sendSetupForm(slack, user, viewId, e, over);
    const connect = async (user: string, channel: string, e: RunningEmulator) => {
      const { viewId, said } = await openSetup(user, channel);
      if (!viewId) throw new Error(`the setup form did not open for ${user}: ${said}`);
      const d = await sendSetup(user, viewId, e);
      if (d.errors) throw new Error(`the setup of ${user} was refused: ${JSON.stringify(d.errors)}`);
    };
    for (const [target, user] of [
      [{ teamId: TENANTS.local.tenant }, TENANTS.local.installer],
      [{ enterpriseId: TENANTS.org.tenant }, TENANTS.org.installer],
    ] as const) {
      const made = await slack.installApp({ installUrl, user, ...target });
      if (!made.install) throw new Error(`could not install the app for ${user}: ${made.status}`);
      registerSecrets(made.install.token);
    }
    await connect(TENANTS.local.admin, DEFAULT_CHANNEL, emulator);
    await connect(TENANTS.org.orgAdmin, TENANTS.org.channel, orgEmulator);

    const harness: Omit<InstallsHarness, 'close'> = {
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
      other: { emulator: orgEmulator, workspace: TENANTS.org.workspace, tenant: TENANTS.org.tenant },
      openSetup,
      sendSetup,
      command: (text, c = {}) =>
        slack.sendCommand({ user: c.user ?? DEFAULT_USER, channel: c.channel ?? DEFAULT_CHANNEL, text }),
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
