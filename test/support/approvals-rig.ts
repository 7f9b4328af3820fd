import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { type SettableClock, settableClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/log.js';
import { APPROVAL_ACTION } from '../../src/slack/approvals/card.js';
import type { LoggedRequest, RunningEmulator } from '../../standins/emulator/index.js';
import type {
  LocalChannel,
  LocalMessage,
  LocalSlack,
  LocalUser,
  LocalUsergroup,
} from '../../standins/localslack/index.js';
import { type Running, startAll } from '../../standins/start-all.js';
import { sentMarkupProblems } from './block-kit-schema/mrkdwn.js';
import { emulatorControl } from './emulator.js';
import {
  type BackendOptions,
  BOT_TOKEN,
  commandAndReply,
  HARNESS_NOW,
  refuseMarkup,
  SIGNING_SECRET,
  startBackends,
} from './harness.js';
import { captureLogs, registerSecrets } from './logs.js';

export const REQUESTER = 'U0ALICE';
export const APPROVER = 'U0BOB';
export const GROUP_APPROVER = 'U0DAVE';
export const OUTSIDER = 'U0EVE';
export const OPS = 'C0OPS';
export const APPROVALS = 'C0APPROVALS';
export const CROWD = Array.from({ length: 20 }, (_, i) => `U0CROWD${String(i + 1).padStart(2, '0')}`);

export const USERS: LocalUser[] = [
  { id: REQUESTER, name: 'alice', tz: 'Europe/London' },
  { id: APPROVER, name: 'bob', tz: 'UTC' },
  { id: 'U0CAROL', name: 'carol', tz: 'America/New_York' },
  { id: GROUP_APPROVER, name: 'dave', tz: 'UTC' },
  { id: OUTSIDER, name: 'eve', tz: 'UTC' },
  ...CROWD.map((id) => ({ id, name: id.toLowerCase(), tz: 'UTC' })),
];
export const CHANNELS: LocalChannel[] = [
  { id: OPS, name: 'plant-ops' },
  { id: APPROVALS, name: 'approvals' },
  { id: 'C0GENERAL', name: 'general' },
  { id: 'C0ELSEWHERE', name: 'elsewhere' },
];
/** Dave is an approver only through S0LEADS; the crowd through S0CROWD. */
export const USERGROUPS: LocalUsergroup[] = [
  { id: 'S0LEADS', handle: 'leads', users: [GROUP_APPROVER] },
  { id: 'S0CROWD', handle: 'crowd', users: CROWD },
];

export const BASE_ENV: Record<string, string> = {
  TSAI_APPROVERS: `${APPROVER},U0CAROL,S0LEADS,S0CROWD`,
  TSAI_APPROVALS_CHANNEL: APPROVALS,
};

export interface RigOptions {
  /** Extra environment (TSAI_OPERATORS, TSAI_ALLOWED_CHANNELS, …), merged over BASE_ENV. */
  env?: Record<string, string>;
  /** Shared store; default: a SQLite file in the rig's temp dir. */
  databaseUrl?: string;
  flowDelays?: { runningAfterMs: number; completedAfterMs: number };
  /** Expiry sweep interval of each bot (default 50 ms, so moving the clock is enough). */
  sweepIntervalMs?: number;
  /** The local Slack's own options: its clock, the manifest's functions. */
  backends?: Pick<BackendOptions, 'slackNow' | 'functions'>;
}

export interface Rig {
  emulator: RunningEmulator;
  slack: LocalSlack;
  /** The bots' clock, shared by every bot and its follow-up worker; tests move it to expire requests. */
  clock: SettableClock;
  bots: Running[];
  logs: string[];
  databaseUrl: string;
  /** The environment every bot gets (also for bots in child processes). */
  env(): Record<string, string>;
  /** The balancer's URL, where the local Slack sends every request. */
  endpoint: string;
  /** Puts a bot listening on `port` (e.g. in a child process) behind the balancer, or takes it out. */
  addBackend(port: number): void;
  removeBackend(port: number): void;
  /** Starts one more bot process-in-process (startAll: store, recovery, sweeper) behind the balancer. */
  startBot(): Promise<Running>;
  stopBot(bot: Running): Promise<void>;
  command(text: string, o?: { user?: string; channel?: string }): Promise<LocalMessage>;
  /** The request message in the approvals channel whose context names `requestId` (or the newest). */
  requestMessage(requestId?: string): LocalMessage | undefined;
  click(
    user: string,
    message: LocalMessage,
    action: keyof typeof APPROVAL_ACTION,
  ): ReturnType<LocalSlack['clickButton']>;
  /** STARTLIVEMODEL / STOPLIVEMODEL flows the emulator created (2xx answers). */
  liveFlows(): Promise<{ flowType: string; model: string; name: string }[]>;
  serviceRequests(): Promise<LoggedRequest[]>;
  /** What `user` sees in `channel`, newest last. */
  seen(user: string, channel: string, threadTs?: string): LocalMessage[];
  close(): Promise<void>;
}

/**
 * The real start-up (`startAll`: store, recovery, sweeper, hooks, listeners) against the real emulator
 * and the local Slack stand-in. Bots sit behind a round-robin HTTP balancer, as replicas would, so
 * clicks spread over every running bot.
 */
export async function startRig(o: RigOptions = {}): Promise<Rig> {
  const dir = mkdtempSync(join(tmpdir(), 'tsai-approvals-'));
  const databaseUrl = o.databaseUrl ?? join(dir, 'bot.sqlite');
  const cleanups: (() => Promise<void> | void)[] = [() => rmSync(dir, { recursive: true, force: true })];
  const { emulator, slack } = await startBackends({
    users: USERS,
    channels: CHANNELS,
    usergroups: USERGROUPS,
    ...(o.flowDelays ? { flowDelays: o.flowDelays } : {}),
    ...o.backends,
  });
  cleanups.push(
    () => emulator.close(),
    () => slack.close(),
  );

  const backends: number[] = [];
  let turn = 0;
  const balancer: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const port = backends[turn++ % backends.length];
    if (port === undefined) {
      res.writeHead(503).end('no bot running');
      return;
    }
    const forward = request(
      { host: '127.0.0.1', port, method: req.method, path: req.url, headers: { ...req.headers } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', (e) => res.writeHead(502).end(`bot unreachable: ${e.message}`));
    forward.end(Buffer.concat(chunks));
  });
  await new Promise<void>((ok) => balancer.listen(0, '127.0.0.1', ok));
  cleanups.push(() => new Promise<void>((ok) => balancer.close(() => ok())));
  const endpoint = `http://127.0.0.1:${(balancer.address() as AddressInfo).port}/slack/events`;
  slack.setBotEndpoint(endpoint);

  const { lines: logs, destination } = captureLogs();
  const clock = settableClock(HARNESS_NOW);
  const bots: Running[] = [];
  const rig: Rig = {
    emulator,
    slack,
    clock,
    bots,
    logs,
    databaseUrl,
    endpoint,
    env: () => ({
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.apiUrl,
      TSAI_BASE_URL: emulator.url,
      TSAI_TOKEN: emulator.token,
      TSAI_ACCOUNT_ID: emulator.accountId,
      TSAI_REQUEST_TIMEOUT_MS: '1500',
      TSAI_MAX_ATTEMPTS: '1',
      DATABASE_URL: databaseUrl,
      PORT: '0',
      LOG_LEVEL: 'info',
      TSAI_METRICS_PORT: 'off',
      ...BASE_ENV,
      ...o.env,
    }),
    addBackend: (port) => void backends.push(port),
    removeBackend(port) {
      const i = backends.indexOf(port);
      if (i >= 0) backends.splice(i, 1);
    },
    async startBot() {
      const config = loadConfig(rig.env());
      registerSecrets(...config.secrets);
      const logger = createLogger({
        level: config.logLevel,
        secrets: config.secrets,
        destination,
      });
      const running = await startAll({
        config,
        logger,
        clock: clock.source,
        sweepIntervalMs: o.sweepIntervalMs ?? 50,
      });
      bots.push(running);
      rig.addBackend(running.slack.port()!);
      return running;
    },
    async stopBot(bot) {
      const i = bots.indexOf(bot);
      if (i >= 0) bots.splice(i, 1);
      rig.removeBackend(bot.slack.port()!);
      await bot.stop();
    },
    command: (text, c = {}) => commandAndReply(slack, text, c.user ?? REQUESTER, c.channel ?? OPS),
    requestMessage(requestId) {
      const all = slack
        .messages(APPROVALS)
        .filter(
          (m) =>
            m.user === slack.botUserId && !m.threadTs && JSON.stringify(m.blocks ?? []).includes('Request `'),
        );
      return requestId
        ? all.find((m) => JSON.stringify(m.blocks ?? []).includes(`Request \`${requestId}\``))
        : all.at(-1);
    },
    click(user, message, action) {
      return slack.clickButton({
        user,
        channel: message.channel,
        messageTs: message.ts,
        actionId: APPROVAL_ACTION[action],
      });
    },
    async liveFlows() {
      return (await rig.serviceRequests())
        .filter((r) => r.method === 'POST' && r.path.endsWith('/flows') && (r.status ?? 0) < 300)
        .map((r) => r.body as { flowType: string; name: string; spec: { model: string } })
        .filter((b) => b.flowType === 'STARTLIVEMODEL' || b.flowType === 'STOPLIVEMODEL')
        .map((b) => ({ flowType: b.flowType, model: b.spec.model, name: b.name }));
    },
    async serviceRequests() {
      const all = (await emulatorControl(emulator.url)('GET', 'requests')) as LoggedRequest[];
      return all.filter((r) => r.path.startsWith('/api/'));
    },
    seen(user, channel, threadTs) {
      return slack.messages(channel, { user, ...(threadTs ? { threadTs } : {}) });
    },
    async close() {
      for (const b of [...bots].reverse()) await rig.stopBot(b).catch(() => undefined);
      const markup = sentMarkupProblems(slack);
      for (const c of cleanups.reverse()) {
        try {
          await c();
        } catch {
          // keep closing the rest
        }
      }
      refuseMarkup(markup);
    },
  };
  return rig;
}

/** The request ID shown in a request message's context line. */
export function requestIdOf(message: LocalMessage): string {
  const m = /Request `([0-9a-f-]+)`/.exec(JSON.stringify(message.blocks));
  if (!m) throw new Error('not a request message');
  return m[1]!;
}

/** Every mrkdwn/plain text of a message, joined: what a person reads. */
export function textOf(message: LocalMessage | undefined): string {
  if (!message) return '';
  const out: string[] = [message.text];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o.text === 'string') out.push(o.text);
      Object.values(o).forEach(walk);
    }
  };
  walk(message.blocks);
  return out.join('\n');
}

export function buttonsOf(message: LocalMessage | undefined): string[] {
  const ids: string[] = [];
  for (const b of (message?.blocks ?? []) as { type: string; elements?: { action_id?: string }[] }[]) {
    if (b.type === 'actions') for (const e of b.elements ?? []) if (e.action_id) ids.push(e.action_id);
  }
  return ids;
}
