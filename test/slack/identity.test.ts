import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { settableClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/log.js';
import { APPROVAL_ACTION } from '../../src/slack/approvals/card.js';
import { IDENTITY_CONNECT_ACTION } from '../../src/slack/views/connect.js';
import { type RunningBot, startBot } from '../../src/startup.js';
import { type LoggedRequest, type RunningEmulator, SEED } from '../../standins/emulator/index.js';
import type { LocalMessage, LocalSlack } from '../../standins/localslack/index.js';
import { emulatorControl, eventually } from '../support/emulator.js';
import {
  BOT_TOKEN,
  commandAndReply,
  HARNESS_NOW,
  SIGNING_SECRET,
  startBackends,
} from '../support/harness.js';
import { captureLogs, registerSecrets } from '../support/logs.js';

const ALICE = 'U0ALICE';
const BOB = 'U0BOB';
const CAROL = 'U0CAROL';
const DAVE = 'U0DAVE';
const OPS = 'C0OPS';
const APPROVALS = 'C0APPROVALS';
const EXPIRED_TOKEN = 'carols-token-the-service-no-longer-accepts';

interface Rig {
  emulator: RunningEmulator;
  slack: LocalSlack;
  bot: RunningBot;
  /** Connects a person as the Connect form does once the token passed its check. */
  connect(userId: string, token: string, since: number): Promise<void>;
  logs: string[];
  serviceRequests(): Promise<LoggedRequest[]>;
  reply(text: string, user: string): Promise<LocalMessage>;
  close(): Promise<void>;
}

/**
 * The real bot over HTTP with real signatures, against the real emulator and the local Slack, its tokens
 * kept in its own store's vault. The store is in memory, so the follow-ups run on the acking thread and
 * this stays in the fast tier, which has no build for the follow-up worker to run; the worker reading
 * tokens the acking thread kept is test/e2e/identity.test.ts's.
 */
async function startRig(env: Record<string, string>): Promise<Rig> {
  const { emulator, slack } = await startBackends({
    users: [ALICE, BOB, CAROL, DAVE].map((id) => ({ id, name: id.slice(2).toLowerCase(), tz: 'UTC' })),
    channels: [
      { id: OPS, name: 'plant-ops' },
      { id: APPROVALS, name: 'approvals' },
    ],
  });
  const config = loadConfig({
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: slack.apiUrl,
    TSAI_BASE_URL: emulator.url,
    TSAI_ACCOUNT_ID: emulator.accountId,
    TSAI_APPROVERS: BOB,
    TSAI_APPROVALS_CHANNEL: APPROVALS,
    PORT: '0',
    DATABASE_URL: ':memory:',
    TSAI_SECRET_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'debug',
    ...env,
  });
  registerSecrets(...config.secrets, EXPIRED_TOKEN);
  const { lines: logs, destination } = captureLogs();
  const logger = createLogger({ level: config.logLevel, secrets: config.secrets, destination });
  if (!config.service.baseUrl || !config.service.accountId || config.slack.mode !== 'http')
    throw new Error('the rig needs a service and Slack over HTTP');
  const bot = await startBot({
    config: {
      ...config,
      service: { ...config.service, baseUrl: emulator.url, accountId: emulator.accountId },
      slack: config.slack,
    },
    logger,
    clock: settableClock(HARNESS_NOW).source,
  });
  slack.setBotEndpoint(`http://127.0.0.1:${bot.slack.port()}/slack/events`);
  const control = emulatorControl(emulator.url);
  return {
    emulator,
    slack,
    bot,
    connect: (userId, token, since) =>
      bot.bot.identity.save({ teamId: slack.teamId, userId }, token, {
        since,
        accountId: emulator.accountId,
      }),
    logs,
    async serviceRequests() {
      return ((await control('GET', 'requests')) as LoggedRequest[]).filter((r) =>
        r.path.startsWith('/api/'),
      );
    },
    reply: (text, user) => commandAndReply(slack, text, user, OPS),
    async close() {
      await bot.stop();
      await slack.close();
      await emulator.close();
    },
  };
}

const textOf = (m: LocalMessage) => JSON.stringify(m.blocks ?? m.text);
const connectButton = (m: LocalMessage) =>
  (m.blocks ?? [])
    .flatMap(
      (b) =>
        ((b as { elements?: unknown[] }).elements ?? []) as {
          action_id?: string;
          text?: { text: string };
          value?: string;
        }[],
    )
    .find((e) => e.action_id === IDENTITY_CONNECT_ACTION);

describe('each person acts with their own service identity (own tokens required, no shared token)', () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig({ TSAI_REQUIRE_USER_TOKEN: 'true', TSAI_TRACK_FIRST_POLL: '200ms' });
    await rig.connect(ALICE, SEED.token, 1);
    await rig.connect(CAROL, EXPIRED_TOKEN, 1);
  });
  afterAll(async () => {
    await rig?.close();
  });

  it("a connected person's operation reaches the service with their token, and the audit log says so", async () => {
    // The bot has no token of its own here: only Alice's can have created the workspace.
    const reply = await rig.reply('workspace create "Made by Alice"', ALICE);
    expect(textOf(reply)).toContain('Made by Alice');
    const created = (await rig.serviceRequests()).filter((r) => r.method === 'POST' && r.status === 201);
    expect(created.map((r) => (r.body as { name: string }).name)).toContain('Made by Alice');
    const audit = await rig.bot.bot.store.listAudit({ operationPrefixes: ['workspace.create'] });
    expect(audit[0]).toMatchObject({ userId: ALICE, outcome: 'ok', params: { actedAs: 'own token' } });
  });

  it('someone not connected is asked to connect, nothing reaches the service, and the command is kept', async () => {
    const before = (await rig.serviceRequests()).length;
    const reply = await rig.reply(
      `model move ${SEED.models.temperatureAnomaly} to ${SEED.workspaces.sandbox}`,
      DAVE,
    );
    expect(textOf(reply)).toContain('you have not connected it yet');
    const button = connectButton(reply);
    expect(button?.text?.text).toBe('Connect');
    expect(button?.value).toBe(
      `/tsai model move ${SEED.models.temperatureAnomaly} to ${SEED.workspaces.sandbox}`,
    );
    expect(textOf(reply)).toContain('Once connected, run it again');
    expect((await rig.serviceRequests()).length).toBe(before);
  });

  it('a token the service turns down (401) is told once with Reconnect; later commands are not sent with it', async () => {
    const first = await rig.reply(`workspace show ${SEED.workspaces.pumpStation}`, CAROL);
    expect(textOf(first)).toContain('no longer accepts your token');
    expect(connectButton(first)?.text?.text).toBe('Reconnect');
    expect(connectButton(first)?.value).toBe(`/tsai workspace show ${SEED.workspaces.pumpStation}`);
    const sent = (await rig.serviceRequests()).length;
    const second = await rig.reply(`workspace show ${SEED.workspaces.sandbox}`, CAROL);
    expect(textOf(second)).toContain('turned down your token earlier');
    expect(connectButton(second)).toBeUndefined();
    expect((await rig.serviceRequests()).length).toBe(sent);
    // Reconnecting with a good token makes the same command work.
    await rig.connect(CAROL, SEED.token, 2);
    const third = await rig.reply(`workspace show ${SEED.workspaces.sandbox}`, CAROL);
    expect(textOf(third)).not.toContain('token');
    expect(rig.logs.join('\n')).not.toContain(EXPIRED_TOKEN);
  });

  it('a 403 names the role the operation needs', async () => {
    const control = emulatorControl(rig.emulator.url);
    await control('POST', 'faults', {
      method: 'PUT',
      path: '/models/',
      status: 403,
      message: 'forbidden',
      count: 1,
    });
    const reply = await rig.reply(
      `model move ${SEED.models.temperatureAnomaly} to ${SEED.workspaces.sandbox}`,
      ALICE,
    );
    expect(textOf(reply)).toContain('needs the Manager or Owner role');
    await control('DELETE', 'faults');
  });

  it("an approver who has not connected is asked to first; the request stays pending and their click after connecting runs with the approver's token", async () => {
    const filed = await rig.reply(`live start ${SEED.models.pressureCommon} reason="new baseline"`, ALICE);
    expect(textOf(filed)).toContain('approv');
    const card = await rig.slack.waitFor(
      () => rig.slack.messages(APPROVALS).find((m) => m.user === rig.slack.botUserId && !m.threadTs),
      5_000,
      'the request card',
    );
    const click = () =>
      rig.slack.clickButton({
        user: BOB,
        channel: APPROVALS,
        messageTs: card.ts,
        actionId: APPROVAL_ACTION.approve,
      });
    const seen = new Set(rig.slack.messages(APPROVALS, { user: BOB }).map((m) => m.ts));
    await click();
    const asked = await rig.slack.waitFor(
      () =>
        rig.slack
          .messages(APPROVALS, { user: BOB })
          .find((m) => !seen.has(m.ts) && m.user !== BOB && textOf(m).includes('connect')),
      5_000,
      'the request to connect',
    );
    expect(textOf(asked)).toContain('stays pending');
    expect(connectButton(asked)?.text?.text).toBe('Connect');
    const requestId = (await rig.bot.bot.store.listAudit({ operationPrefixes: ['approval.request'] }))[0]!
      .requestId!;
    expect((await rig.bot.bot.store.getApproval(requestId))?.status).toBe('pending');
    const startsLive = (r: LoggedRequest) =>
      (r.body as { flowType?: string } | undefined)?.flowType === 'STARTLIVEMODEL';
    expect((await rig.serviceRequests()).some(startsLive)).toBe(false);

    // The bot has no shared token: only Bob's own can create the flow.
    await rig.connect(BOB, SEED.token, 3);
    await click();
    const created = await eventually(async () =>
      (await rig.serviceRequests()).find((r) => startsLive(r) && r.status === 201),
    );
    expect((created.body as { name: string }).name).toMatch(
      /^live start \d+ requested by @alice, approved by @bob /,
    );
    // The entry is written before the service call and completed with its answer: wait for the answer.
    const entry = await eventually(async () =>
      (await rig.bot.bot.store.listAudit({ operationPrefixes: ['flow.STARTLIVEMODEL'] })).find(
        (e) => e.outcome !== 'unknown',
      ),
    );
    expect(entry).toMatchObject({
      userId: BOB,
      outcome: 'ok',
      requestId,
      params: { actedAs: 'own token', requestedBy: ALICE },
    });
    const log = await rig.reply('audit', BOB);
    expect(textOf(log)).toContain(
      '<@U0BOB> (as themselves, with their own token) started a STARTLIVEMODEL flow',
    );
    expect(textOf(log)).toContain('requested by <@U0ALICE>');
  });
});

describe('without own tokens required, someone not connected falls back to the shared token', () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig({ TSAI_TOKEN: SEED.token });
  });
  afterAll(async () => {
    await rig?.close();
  });

  it("Dave, not connected, acts with the bot's shared identity, and the audit log says so", async () => {
    const reply = await rig.reply('workspace create "Made by the bot for Dave"', DAVE);
    expect(textOf(reply)).toContain('Made by the bot for Dave');
    const audit = await rig.bot.bot.store.listAudit({ operationPrefixes: ['workspace.create'] });
    expect(audit[0]).toMatchObject({
      userId: DAVE,
      outcome: 'ok',
      params: { actedAs: "the bot's shared identity" },
    });
  });

  it("a connected person's token is used even when a shared one exists: a token the service refuses fails for them alone", async () => {
    await rig.connect(CAROL, EXPIRED_TOKEN, 1);
    const mine = await rig.reply(`workspace show ${SEED.workspaces.pumpStation}`, CAROL);
    expect(textOf(mine)).toContain('no longer accepts your token');
    const theirs = await rig.reply(`workspace show ${SEED.workspaces.pumpStation}`, DAVE);
    expect(textOf(theirs)).not.toContain('token');
  });
});
