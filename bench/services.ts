// Child-process entry: the local Slack stand-in and the service emulator (2 s added latency on every API
// call), kept out of the load driver's process so their work does not skew the measured ack times.
// The parent talks to it over IPC (see ServicesClient in services-client.ts).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { SETUP_CALLBACK, SETUP_FIELDS } from '../src/slack/setup/ids.js';
import { manifestFunctions } from '../src/slack/workflows/manifest.js';
import { startEmulator } from '../standins/emulator/index.js';
import { DEFAULT_CHANNELS, DEFAULT_USERS, startLocalSlack } from '../standins/localslack/index.js';
import type { ServicesReady, ServicesRequest } from './services-client.js';
import {
  installAdminId,
  installChannelId,
  installMemberId,
  installTeamId,
  oneTeamMemberId,
} from './tenants.js';

const env = process.env;
const signingSecret = env.BENCH_SIGNING_SECRET ?? '';
const botToken = env.BENCH_BOT_TOKEN ?? '';
let latencyMs = Number(env.BENCH_SERVICE_LATENCY_MS ?? 2000);

// Slack's 3 s trigger lifetime: the views.open phase asks for its triggers just before it sends.
// The app's Workflow Builder steps as its manifest declares them, so that the bot's completions are checked.
/** "Add to Slack": workspaces the app can be installed in, one per tenant of the installations phase. */
const installTeams = Number(env.BENCH_INSTALL_TEAMS ?? 0);
const tenants = Array.from({ length: installTeams }, (_, i) => i);
const slack = await startLocalSlack({
  signingSecret,
  botToken,
  port: 0,
  triggerTtlMs: 3000,
  functions: manifestFunctions(),
  teams: tenants.map((i) => ({ id: installTeamId(i), name: `Tenant ${i}`, domain: `tenant-${i}` })),
  // Each tenant: its admin, its channel, and who types its commands (tenant 0: as many as there are
  // other tenants), so that both bots of the phase act for as many distinct people (tenants.ts).
  users: [
    ...DEFAULT_USERS,
    ...tenants.flatMap((i) => [
      { id: installAdminId(i), name: `admin-${i}`, teamId: installTeamId(i), tz: 'UTC', isAdmin: true },
      ...(i > 0
        ? [{ id: installMemberId(i), name: `member-${i}`, teamId: installTeamId(i), tz: 'UTC' }]
        : []),
    ]),
    ...tenants
      .slice(1)
      .map((j) => ({ id: oneTeamMemberId(j), name: `person-${j}`, teamId: installTeamId(0), tz: 'UTC' })),
  ],
  channels: [
    ...DEFAULT_CHANNELS,
    ...tenants.map((i) => ({ id: installChannelId(i), name: `ops-${i}`, teams: [installTeamId(i)] })),
  ],
  ...(env.BENCH_CLIENT_ID
    ? { oauth: { clientId: env.BENCH_CLIENT_ID, clientSecret: env.BENCH_CLIENT_SECRET ?? '' } }
    : {}),
});
const emulator = await startEmulator({ port: 0 });
const control = (path: string, init?: RequestInit) => fetch(`${emulator.url}/_emulator/${path}`, init);

async function addLatency(): Promise<void> {
  if (latencyMs <= 0) return;
  const r = await control('faults', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ latencyMs }),
  });
  if (r.status !== 201) throw new Error(`emulator refused the latency fault: ${r.status} ${await r.text()}`);
}
await addLatency();

/**
 * The stand-in delivers each `function_executed` here, not to an app: the driver sends the very bodies it
 * built, signed, and times the acks itself. Each is kept by its execution ID until handed over.
 */
const captured = new Map<string, string>();
const capture = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks).toString('utf8');
    const id = (JSON.parse(raw) as { event?: { function_execution_id?: string } }).event
      ?.function_execution_id;
    if (id) captured.set(id, raw);
    res.end();
  });
});
await new Promise<void>((r) => capture.listen(0, '127.0.0.1', r));
slack.setBotEndpoint(`http://127.0.0.1:${(capture.address() as AddressInfo).port}/slack/events`);

/** New executions of one step, as the stand-in delivers them (Events API envelope, JSON), in order. */
async function functionEvents(m: { callbackId: string; users: string[]; inputs: Record<string, unknown>[] }) {
  const out: string[] = [];
  for (let from = 0; from < m.inputs.length; from += 50) {
    const batch = m.inputs.slice(from, from + 50).map(async (inputs, j) => {
      const user = m.users[(from + j) % m.users.length]!;
      const ex = await slack.runFunction({ callbackId: m.callbackId, user, inputs });
      const raw = captured.get(ex.id);
      captured.delete(ex.id);
      if (!raw) throw new Error(`the stand-in delivered no function_executed for ${ex.id}`);
      return raw;
    });
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

let lastChange = performance.now();
slack.on('change', () => {
  lastChange = performance.now();
});

/** Lowest emulator request seq that may still be in flight (answered entries get a status). */
let pendingFrom = 0;
async function emulatorBusy(): Promise<{ pending: number; newest: number }> {
  const r = await control(`requests?since=${pendingFrom}`);
  const list = (await r.json()) as { seq: number; status?: number }[];
  const open = list.filter((e) => e.status === undefined);
  const newest = list.length ? list[list.length - 1]!.seq : pendingFrom;
  pendingFrom = open.length ? open[0]!.seq - 1 : newest;
  return { pending: open.length, newest };
}

/** Resolves when neither Slack nor the service has seen anything for `quietMs` (bot's follow-ups done). */
async function settle(quietMs: number, maxMs: number): Promise<{ settled: boolean; ms: number }> {
  const start = performance.now();
  let lastSeq = -1;
  let lastEmu = performance.now();
  while (performance.now() - start < maxMs) {
    const { pending, newest } = await emulatorBusy();
    if (pending > 0 || newest !== lastSeq) {
      lastEmu = performance.now();
      lastSeq = newest;
    }
    const now = performance.now();
    if (now - lastChange >= quietMs && now - lastEmu >= quietMs) return { settled: true, ms: now - start };
    await new Promise((r) => setTimeout(r, 100));
  }
  return { settled: false, ms: performance.now() - start };
}

/**
 * Each tenant's admin connects its service account as an admin does: `/tsai setup` in its channel, then
 * the form sent, delivered to the bot at `botUrl` (only meanwhile: the stand-in's events otherwise come
 * here), with the service answering at once. How many were connected.
 */
async function setUp(botUrl: string, list: number[]): Promise<number> {
  const was = latencyMs;
  latencyMs = 0;
  await control('faults', { method: 'DELETE' });
  slack.setBotEndpoint(`${botUrl}/slack/events`);
  const one = async (i: number): Promise<boolean> => {
    const user = installAdminId(i);
    const before = slack.topView(user)?.id;
    await slack.sendCommand({ user, channel: installChannelId(i), text: 'setup' });
    const form = await slack.waitFor(
      () => {
        const v = slack.topView(user);
        return v && v.id !== before && v.view.callback_id === SETUP_CALLBACK ? v : undefined;
      },
      20_000,
      `the setup form of tenant ${i}`,
    );
    const sent = await slack.submitView({
      user,
      viewId: form.id,
      values: {
        [SETUP_FIELDS.baseUrl.block]: { [SETUP_FIELDS.baseUrl.input]: emulator.url },
        [SETUP_FIELDS.accountId.block]: { [SETUP_FIELDS.accountId.input]: emulator.accountId },
        [SETUP_FIELDS.token.block]: { [SETUP_FIELDS.token.input]: emulator.token },
      },
    });
    return sent.status === 200 && !sent.errors;
  };
  try {
    let made = 0;
    for (let from = 0; from < list.length; from += 8)
      made += (await Promise.all(list.slice(from, from + 8).map(one))).filter(Boolean).length;
    return made;
  } finally {
    slack.setBotEndpoint(`http://127.0.0.1:${(capture.address() as AddressInfo).port}/slack/events`);
    latencyMs = was;
    await addLatency();
  }
}

async function handle(m: ServicesRequest): Promise<unknown> {
  switch (m.op) {
    case 'issue': {
      const out: { triggerId: string; responseUrl: string }[] = [];
      for (let i = 0; i < m.n; i++) {
        const user = m.users[i % m.users.length]!;
        out.push({
          triggerId: slack.state.issueTrigger(user),
          responseUrl: `${slack.url}/response/${slack.state.issueResponseUrl({ user, channel: m.channel })}`,
        });
      }
      return out;
    }
    case 'settle':
      return settle(m.quietMs, m.maxMs);
    case 'install': {
      const app = { clientId: env.BENCH_CLIENT_ID ?? '', clientSecret: env.BENCH_CLIENT_SECRET ?? '' };
      slack.configureOAuth({ ...app, redirectUrl: m.redirectUrl });
      let made = 0;
      // A few browsers at once, as people installing it would.
      for (let from = 0; from < m.teams.length; from += 8) {
        const outcomes = await Promise.all(
          m.teams
            .slice(from, from + 8)
            .map((teamId, k) =>
              slack.installApp({ installUrl: m.installUrl, user: m.users[from + k]!, teamId }),
            ),
        );
        made += outcomes.filter((o) => o.status === 200 && o.install).length;
      }
      return made;
    }
    case 'setUp':
      return setUp(m.botUrl, m.tenants);
    case 'functionEvents':
      return functionEvents(m);
    case 'calls':
      return {
        calls: slack.calls
          .filter((c) => !m.method || c.method === m.method)
          .map((c) => ({
            method: c.method,
            at: c.at,
            triggerId: typeof c.args.trigger_id === 'string' ? c.args.trigger_id : undefined,
            ok: c.response.ok === true,
            error: typeof c.response.error === 'string' ? c.response.error : undefined,
          })),
        responses: slack.responses.length,
      };
    case 'serviceRequests': {
      const r = await control('requests');
      const list = (await r.json()) as {
        seq: number;
        method: string;
        path: string;
        status?: number;
        receivedAt: number;
        body?: { name?: unknown };
      }[];
      return list.map((e) => ({
        seq: e.seq,
        method: e.method,
        path: e.path,
        status: e.status,
        receivedAt: e.receivedAt,
        ...(typeof e.body?.name === 'string' ? { name: e.body.name } : {}),
      }));
    }
    case 'configure': {
      if (m.latencyMs !== undefined) {
        latencyMs = m.latencyMs;
        await control('faults', { method: 'DELETE' });
        await addLatency();
      }
      if (m.flowDelays) {
        await control('flow-delays', {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(m.flowDelays),
        });
      }
      return null;
    }
    case 'reset':
      slack.reset();
      await control('reset', { method: 'POST' });
      pendingFrom = 0;
      await addLatency();
      return null;
  }
}

process.on('message', (raw) => {
  const m = raw as ServicesRequest;
  handle(m).then(
    (result) => process.send?.({ id: m.id, result }),
    (err: unknown) => process.send?.({ id: m.id, error: String((err as Error)?.stack ?? err) }),
  );
});
process.on('disconnect', () => {
  capture.close();
  void Promise.allSettled([slack.close(), emulator.close()]).then(() => process.exit(0));
});

const ready: ServicesReady = {
  ready: true,
  slackUrl: slack.url,
  slackApiUrl: slack.apiUrl,
  emulatorUrl: emulator.url,
  accountId: emulator.accountId,
  serviceToken: emulator.token,
};
process.send?.(ready);
