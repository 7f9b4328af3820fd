import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import type { LoggedRequest } from '../../standins/emulator/index.js';
import { SEED } from '../../standins/emulator/index.js';
import { OPS, REQUESTER, type Rig, startRig, textOf } from '../support/approvals-rig.js';
import { type MainProcess, prepareBotProgram, startMainProcess } from '../support/bot-process.js';
import { emulatorControl } from '../support/emulator.js';
import { waitUntil } from '../support/patience.js';

const W = SEED.workspaces.pumpStation;
const T = SEED.signals.temperature;
const learn = (name: string) =>
  `learn workspace=${W} signals=${T}:temperature range="last 2 days" name="${name}"`;
/** The deadline the bot promises: from SIGTERM to exit. */
const EXIT_DEADLINE_MS = 10_000;

let program: Awaited<ReturnType<typeof prepareBotProgram>>;
beforeAll(async () => {
  program = await prepareBotProgram();
});
afterAll(async () => {
  await program?.cleanup();
});

/** The bot as `npm start` runs it, behind the rig's balancer. */
async function startBot(rig: Rig, env: Record<string, string> = {}): Promise<MainProcess> {
  const proc = await startMainProcess(program.dir, { ...rig.env(), ...env });
  rig.addBackend(proc.port);
  return proc;
}

const inFlight = async (rig: Rig, name: string): Promise<LoggedRequest> =>
  waitUntil(
    async () => {
      const r = (await rig.serviceRequests()).find(
        (x) => (x.body as { name?: string } | undefined)?.name === name,
      );
      if (!r) throw new Error(`the service has not received ${name} yet`);
      return r;
    },
    { timeout: 5000 },
  );

/**
 * Sends `/tsai learn` as a person would, its flow's creation held by the service for `latencyMs`, and
 * waits until that request is at the service: work in hand. The command's ack, and the request.
 */
async function learnHeldAtTheService(rig: Rig, name: string, latencyMs: number) {
  await emulatorControl(rig.emulator.url)('POST', 'faults', {
    method: 'POST',
    path: '/flows$',
    latencyMs,
    count: 1,
  });
  const ack = await rig.slack.sendCommand({
    user: REQUESTER,
    channel: OPS,
    text: learn(name),
    command: '/tsai',
  });
  return { ack, request: await inFlight(rig, name) };
}

const replyNaming = (rig: Rig, name: string) =>
  rig.slack
    .messages(OPS, { user: REQUESTER })
    .filter((m) => m.kind !== 'command' && m.user !== REQUESTER && textOf(m).includes(name));

/** Sends `signal` and waits for the log line that says shutting down started. */
async function signal(proc: MainProcess, sig: NodeJS.Signals): Promise<number> {
  const at = Date.now();
  proc.child.kill(sig);
  await waitUntil(() => expect(proc.logs().some((l) => l.msg === 'shutting down')).toBe(true), {
    timeout: 5000,
  });
  return at;
}

describe('SIGTERM with work in flight (the bot in its own process, a SQLite store)', () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig({
      env: { TSAI_REQUEST_TIMEOUT_MS: '10000', TSAI_TRACK_FIRST_POLL: '100ms' },
    });
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('finishes the reply in hand, gives back its leases, ignores more signals, cuts a stalled client and exits 0 in time', async () => {
    const proc = await startBot(rig);
    const fault = emulatorControl(rig.emulator.url);
    const store = await openStore(rig.databaseUrl);
    try {
      // Every read of a flow is held, so the tracker holds a lease on the first flow while it waits.
      await fault('POST', 'faults', { method: 'GET', path: '/flows/\\d+$', latencyMs: 4000 });
      const first = await rig.command(learn('tracked before stop'));
      const flowId = /\b(14\d{17})\b/.exec(textOf(first))?.[1];
      expect(flowId).toBeDefined();
      await waitUntil(
        async () =>
          expect(
            (await store.getTrackedFlow({ teamId: 'T0LOCAL', flowId: flowId! }))?.leaseOwner,
          ).toBeTruthy(),
        {
          timeout: 10_000,
        },
      );

      // A second command whose service call is held while the stop begins.
      const { ack, request } = await learnHeldAtTheService(rig, 'in hand at SIGTERM', 2000);
      expect(ack.status).toBe(200);
      expect(request.status).toBeUndefined();

      // A client that sent half a request and went quiet.
      const stalled = connect(proc.port, '127.0.0.1');
      await new Promise<void>((ok) => stalled.once('connect', () => ok()));
      // Its headers pass the checks made before the body (a fresh timestamp, a well-formed signature), so the
      // bot is reading its body, which never comes, when the stop begins.
      const stamp = Math.floor(Date.now() / 1000);
      stalled.write(
        `POST /slack/events HTTP/1.1\r\nHost: x\r\nX-Slack-Request-Timestamp: ${stamp}\r\n` +
          `X-Slack-Signature: v0=${'0'.repeat(64)}\r\nContent-Length: 1000\r\n\r\npartial`,
      );
      const stalledClosed = new Promise<void>((ok) => stalled.once('close', () => ok()));
      stalled.on('error', () => {});

      const sent = await signal(proc, 'SIGTERM');
      proc.child.kill('SIGINT');
      proc.child.kill('SIGTERM');

      // No new requests are taken: the listening socket is closed.
      await expect(fetch(`http://127.0.0.1:${proc.port}/healthz`)).rejects.toThrow();

      const { code } = await proc.exited;
      expect(code).toBe(0);
      expect(Date.now() - sent).toBeLessThan(EXIT_DEADLINE_MS);
      await stalledClosed;

      const reply = replyNaming(rig, 'in hand at SIGTERM');
      expect(reply).toHaveLength(1);
      expect(textOf(reply[0])).toMatch(/\b14\d{17}\b/);
      const flows = await store.listTrackedFlows({ limit: 100 });
      expect(flows.map((f) => f.asked).some((a) => a.includes('in hand at SIGTERM'))).toBe(true);
      for (const f of flows) expect(f.leaseOwner, `lease of ${f.flowId}`).toBeNull();

      const messages = proc.logs().map((l) => l.msg);
      expect(messages.filter((m) => m === 'already shutting down; the signal changes nothing')).toHaveLength(
        2,
      );
      expect(messages).toContain('stopped');
    } finally {
      await fault('DELETE', 'faults');
      await store.close();
      if (proc.child.exitCode === null) proc.child.kill('SIGKILL');
      rig.removeBackend(proc.port);
    }
  });

  it('a reply that cannot finish within the bound: its person is told it may or may not have happened', async () => {
    const proc = await startBot(rig, { TSAI_SHUTDOWN_TIMEOUT: '4s' });
    const fault = emulatorControl(rig.emulator.url);
    try {
      await learnHeldAtTheService(rig, 'held past the bound', 6000);
      const sent = await signal(proc, 'SIGTERM');
      const { code } = await proc.exited;
      expect(code).toBe(0);
      expect(Date.now() - sent).toBeLessThan(EXIT_DEADLINE_MS);
      const told = replyNaming(rig, 'held past the bound');
      expect(told).toHaveLength(1);
      expect(textOf(told[0])).toContain('The bot was stopping and could not finish');
      expect(textOf(told[0])).toContain('It may or may not have reached the service');
    } finally {
      await fault('DELETE', 'faults');
      if (proc.child.exitCode === null) proc.child.kill('SIGKILL');
      rig.removeBackend(proc.port);
    }
  });

  it('a drain that hangs is cut by the hard bound, with a log line saying so', async () => {
    // With an in-memory store follow-ups run on the main thread, whose drain has no bound of its own.
    const proc = await startBot(rig, {
      DATABASE_URL: ':memory:',
      TSAI_SHUTDOWN_TIMEOUT: '2s',
      TSAI_REQUEST_TIMEOUT_MS: '30000',
    });
    const fault = emulatorControl(rig.emulator.url);
    try {
      await learnHeldAtTheService(rig, 'hangs the drain', 20_000);
      const sent = await signal(proc, 'SIGTERM');
      const { code } = await proc.exited;
      expect(code).toBe(1);
      expect(Date.now() - sent).toBeLessThan(EXIT_DEADLINE_MS);
      expect(proc.logs().map((l) => l.msg)).toContain(
        'shutdown did not finish within 2000 ms; exiting without waiting for the rest',
      );
    } finally {
      await fault('DELETE', 'faults');
      if (proc.child.exitCode === null) proc.child.kill('SIGKILL');
      rig.removeBackend(proc.port);
    }
  });
});
