import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../../src/api/index.js';
import { loadConfig } from '../../../src/config.js';
import { createLogger } from '../../../src/log.js';
import { SEED } from '../../../standins/emulator/index.js';
import { startLocalSlack } from '../../../standins/localslack/index.js';
import { emulatorStateFile, type Running, startAll } from '../../../standins/start-all.js';
import { emulatorControl, eventually } from '../../support/emulator.js';
import { patient } from '../../support/patience.js';
import { named } from '../../support/service-calls.js';

/** `npm start` decides: the sandbox page only without Slack configuration. */
describe('sandbox at start-up', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  const logger = createLogger({
    level: 'silent',
    destination: new Writable({ write: (_c, _e, cb) => cb() }),
  });
  const tempDb = () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsai-sandbox-start-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return join(dir, 'bot.sqlite');
  };
  const start = async (env: Record<string, string>): Promise<Running> => {
    const banners: string[] = [];
    const running = await startAll({
      // In-process under vitest: the worker's TypeScript cannot load in a worker thread here.
      config: loadConfig({ PORT: '0', DATABASE_URL: tempDb(), TSAI_COMMAND_WORKER: 'false', ...env }),
      logger,
      banner: (t) => banners.push(t),
      sandboxPort: 0,
    });
    cleanups.push(() => running.stop());
    return Object.assign(running, { banners });
  };

  it('without Slack settings serves the page, wired to the stand-in and the emulator, and prints its URL', async () => {
    const running = (await start({})) as Running & { banners: string[] };
    const url = running.sandbox?.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(running.banners.join('')).toContain(`SANDBOX: open ${url} in your browser`);
    const page = await fetch(url!);
    expect(page.status).toBe(200);
    const cfg = (await (await fetch(new URL('/_sandbox/config', url))).json()) as { serviceLog: boolean };
    expect(cfg.serviceLog).toBe(true);
    // A command through the page's control API reaches the bot and, through it, the emulator.
    const ack = await fetch(new URL('/_local/command', url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'U0ALICE', channel: 'C0OPS', text: 'workspace show 1030000000000000001' }),
    });
    expect(((await ack.json()) as { status: number }).status).toBe(200);
    await patient(running.localSlack!).waitFor(
      (s) => s.messages('C0OPS', { user: 'U0ALICE' }).length >= 2,
      10_000,
    );
    const log = (await (await fetch(new URL('/_sandbox/service-requests', url))).json()) as {
      path: string;
    }[];
    expect(log.some((r) => r.path.endsWith('/workspace/1030000000000000001'))).toBe(true);
  });

  it('with Slack settings runs against that Slack and starts no sandbox', async () => {
    const slack = await startLocalSlack({
      signingSecret: 'real-slack-secret-123',
      botToken: 'xoxb-real-slack-token',
    });
    cleanups.push(() => slack.close());
    const running = await start({
      SLACK_BOT_TOKEN: 'xoxb-real-slack-token',
      SLACK_SIGNING_SECRET: 'real-slack-secret-123',
      SLACK_API_URL: slack.apiUrl,
    });
    expect(running.localSlack).toBeUndefined();
    expect(running.sandbox).toBeUndefined();
    expect(slack.calls.some((c) => c.method === 'auth.test')).toBe(true);
  });

  const flows = async (running: Running) =>
    (
      (await emulatorControl(running.emulator!.url)('GET', 'state')) as {
        flows: { id: string; status: string }[];
      }
    ).flows;

  it('after a restart on the same data a flow the bot started is still known and ends; new flows get new IDs', async () => {
    const db = tempDb();
    const first = await start({ DATABASE_URL: db });
    await first.localSlack!.sendCommand({
      user: 'U0ALICE',
      channel: 'C0OPS',
      text: `learn workspace=${SEED.workspaces.pumpStation} signals=${SEED.signals.temperature}:temp range="last week"`,
    });
    // The demo data's own finished flow is not the one this learn started.
    const started = async (r: Running) => (await flows(r)).filter((f) => f.id !== SEED.flows.baselineLearn);
    const [flow] = await eventually(async () =>
      (await started(first)).length > 0 ? started(first) : undefined,
    );
    const identities = (await (await fetch(new URL('/_sandbox/config', first.sandbox!.url))).json()) as {
      serviceIdentities: Record<string, { token: string }>;
    };
    const carolsFirstToken = identities.serviceIdentities.U0CAROL!.token;
    await first.stop();
    expect(readdirSync(dirname(db))).toContain('bot.emulator-world.json');

    const second = await start({ DATABASE_URL: db });
    await eventually(async () =>
      (await flows(second)).find((f) => f.id === flow!.id)?.status === 'COMPLETED' ? true : undefined,
    );
    const emu = second.emulator!;
    const client = named(
      createServiceClient({ baseUrl: emu.url, accountId: emu.accountId, token: emu.token }),
    );
    cleanups.push(() => client.close());
    const next = await client.anomalyLearn({
      name: 'after the restart',
      spec: { workspace: SEED.workspaces.pumpStation, dataspec: { id: SEED.dataspec } },
    });
    expect(BigInt(next.id)).toBeGreaterThan(BigInt(flow!.id));
    // A token the page showed before the restart still acts as its person after it.
    const read = await fetch(`${emu.url}/api/1.3/accounts/${emu.accountId}/workspace?limit=1`, {
      headers: { authorization: `Bearer ${carolsFirstToken}` },
    });
    expect(read.status).toBe(200);
    const log = (await emulatorControl(emu.url)('GET', 'requests')) as {
      user: string | null;
      status: number;
    }[];
    expect(log.filter((r) => r.user === 'carol').map((r) => r.status)).toEqual([200]);
  });

  it('the world file sits beside a SQLite file; PostgreSQL and an in-memory store keep none', async () => {
    expect(emulatorStateFile('./data/tsai-chatops.sqlite')).toBe(
      join('data', 'tsai-chatops.emulator-world.json'),
    );
    expect(emulatorStateFile('sqlite:/var/lib/bot/bot.db')).toBe('/var/lib/bot/bot.emulator-world.json');
    expect(emulatorStateFile('postgres://bot@127.0.0.1:5432/tsai')).toBeUndefined();
    expect(emulatorStateFile(':memory:')).toBeUndefined();
    const cwdFiles = readdirSync(process.cwd());
    const running = await start({ DATABASE_URL: ':memory:' });
    expect(running.emulator).toBeDefined();
    await running.stop();
    expect(readdirSync(process.cwd())).toEqual(cwdFiles);
  });
});
