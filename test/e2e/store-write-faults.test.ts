import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_REFUSED_MESSAGE } from '../../src/core/durable.js';
import { PostgresStore } from '../../src/store/postgres.js';
import { SEED } from '../../standins/emulator/index.js';
import type { Running } from '../../standins/start-all.js';
import { APPROVALS, APPROVER, type Rig, startRig, textOf } from '../support/approvals-rig.js';
import { waitUntil } from '../support/patience.js';
import { describeWithPgCluster, type PgCluster, startPgCluster } from '../support/pg-cluster.js';
import { canMountSmallDisk, mountSmallDisk, type SmallDisk } from '../support/small-disk.js';

const W = SEED.workspaces.pumpStation;
const T = SEED.signals.temperature;
const MODEL = SEED.models.temperatureCommon;
const learn = (name: string) =>
  `learn workspace=${W} signals=${T}:temperature range="last 2 days" name="${name}"`;

async function readyz(bot: Running): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`http://127.0.0.1:${bot.slack.port()}/readyz`);
  return { status: res.status, body: (await res.json()) as unknown };
}

const readyzBecomes = (bot: Running, status: number) =>
  waitUntil(
    async () => {
      const r = await readyz(bot);
      expect(r.status).toBe(status);
      return r.body;
    },
    { timeout: 30_000, interval: 100 },
  );

const flowsNamed = async (rig: Rig, name: string) =>
  (await rig.serviceRequests()).filter(
    (r) => r.method === 'POST' && r.path.endsWith('/flows') && (r.body as { name?: string }).name === name,
  );

/**
 * What a person meets while the store refuses writes, the same on both engines: a command and an approval
 * request are each told nothing was done, with what they typed, and nothing reaches the service; no card
 * is posted for a request that was not stored; /readyz is 503 naming the refusal until a write works.
 */
async function refusedWhileFaulty(rig: Rig, bot: Running, problem: string): Promise<void> {
  const reply = await rig.command(learn('while refused'));
  expect(textOf(reply)).toContain(STORE_REFUSED_MESSAGE);
  expect(textOf(reply)).toContain(`/tsai ${learn('while refused')}`);
  expect(await flowsNamed(rig, 'while refused')).toHaveLength(0);

  const cardBefore = rig.requestMessage()?.ts;
  const note = await rig.command(`live start ${MODEL} reason="while refused"`);
  expect(textOf(note)).toContain(STORE_REFUSED_MESSAGE);
  expect(textOf(note)).toContain(`live start ${MODEL}`);
  expect(rig.requestMessage()?.ts).toBe(cardBefore);

  const body = (await readyzBecomes(bot, 503)) as { problems: { part: string; problem: string }[] };
  expect(body.problems).toContainEqual({ part: 'store', problem });
}

/**
 * While the fault lasts, /readyz stays 503 however many times the readiness tries a write of its own: the
 * small writes that still fit (a row updated in place) do not make it ready while real ones are refused.
 * Each round a command is refused too, so real writes keep failing beside the probes.
 */
async function staysUnready(rig: Rig, bot: Running, probes: number): Promise<number> {
  const since = Date.now();
  const answers = new Set<number>();
  for (let round = 0; round < probes; round++) {
    const reply = await rig.command(learn(`still refused ${round}`));
    expect(textOf(reply)).toContain(STORE_REFUSED_MESSAGE);
    const before = bot.readiness.refusedProbes;
    // Probes run when /readyz is asked (at most every 2 s): ask until one more has been refused.
    await waitUntil(
      async () => {
        answers.add((await readyz(bot)).status);
        expect(bot.readiness.refusedProbes).toBeGreaterThan(before);
      },
      { timeout: 30_000, interval: 200 },
    );
  }
  answers.add((await readyz(bot)).status);
  expect([...answers]).toEqual([503]);
  expect(await flowsNamed(rig, 'still refused 0')).toHaveLength(0);
  return Date.now() - since;
}

/** Once the store takes writes again: ready (without traffic), and the same command and request work. */
async function worksAgain(rig: Rig, bot: Running, engine: string): Promise<void> {
  const fixedAt = Date.now();
  expect(await readyzBecomes(bot, 200)).toEqual({ ready: true });
  // The figure docs/reliability.md quotes: how long /readyz stayed 503 after the fault ended.
  console.log(`${engine}: /readyz ready again ${Date.now() - fixedAt} ms after the fault ended`);
  const reply = await rig.command(learn('after the fault'));
  expect(textOf(reply)).not.toContain(STORE_REFUSED_MESSAGE);
  expect(await flowsNamed(rig, 'after the fault')).toHaveLength(1);
  const cardBefore = rig.requestMessage()?.ts;
  await rig.command(`live start ${MODEL} reason="after the fault"`);
  await waitUntil(() => expect(rig.requestMessage()?.ts).not.toBe(cardBefore), { timeout: 30_000 });
}

describe.skipIf(!canMountSmallDisk)('SQLite on a disk that fills up (a real tmpfs), through the bot', () => {
  let disk: SmallDisk;
  let rig: Rig;
  let bot: Running;
  beforeAll(async () => {
    disk = mountSmallDisk(4)!;
    rig = await startRig({ databaseUrl: join(disk.dir, 'bot.sqlite') });
    bot = await rig.startBot();
  });
  afterAll(async () => {
    await rig?.close();
    disk?.close();
  });

  it('told nothing was done, no card, unready; freed, ready and working again', async () => {
    expect(await readyz(bot)).toEqual({ status: 200, body: { ready: true } });
    disk.fill();
    try {
      await refusedWhileFaulty(rig, bot, 'the store refuses writes: its disk is full');
      const ms = await staysUnready(rig, bot, 4);
      // The figure docs/reliability.md quotes: how long it stayed unready while the disk was full.
      console.log(`SQLite: /readyz stayed 503 for ${ms} ms of refused probes and commands on a full disk`);
    } finally {
      disk.free();
    }
    await worksAgain(rig, bot, 'SQLite');
  });
});

describeWithPgCluster('PostgreSQL made read-only, through the bot', () => {
  let cluster: PgCluster;
  let rig: Rig;
  let bot: Running;
  let store: PostgresStore;
  const admin = async (sql: string) => {
    // From the maintenance database: a session on `tsai` would be read-only too.
    const url = new URL(cluster.url);
    url.pathname = '/postgres';
    const c = new pg.Client({ connectionString: url.toString() });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  /** As a failover to a standby does: the database refuses writes, and the bot's connections are new. */
  const readOnly = async (on: boolean) => {
    await admin(
      on
        ? 'ALTER DATABASE tsai SET default_transaction_read_only = on'
        : 'ALTER DATABASE tsai RESET default_transaction_read_only',
    );
    await admin(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'tsai' AND pid <> pg_backend_pid()",
    );
  };
  beforeAll(async () => {
    cluster = await startPgCluster();
    rig = await startRig({ databaseUrl: cluster.url });
    bot = await rig.startBot();
    store = await PostgresStore.open(cluster.url);
  });
  afterAll(async () => {
    await store?.close();
    await rig?.close();
    await cluster?.close();
  });

  it('told nothing was done, no card, unready; writable, ready and working again', async () => {
    expect(await readyz(bot)).toEqual({ status: 200, body: { ready: true } });
    await readOnly(true);
    try {
      await refusedWhileFaulty(rig, bot, 'the store refuses writes: it is read-only');
      await staysUnready(rig, bot, 2);
    } finally {
      await readOnly(false);
    }
    await worksAgain(rig, bot, 'PostgreSQL');
  });

  it('an Approve while the database is read-only: the approver is told nothing was decided; clicked again once writable, it runs once', async () => {
    await rig.command(`live start ${MODEL} reason="approve while refused"`);
    const card = await waitUntil(
      () => {
        const m = rig.requestMessage();
        expect(textOf(m)).toContain('approve while refused');
        return m!;
      },
      { timeout: 30_000 },
    );
    const liveBefore = (await rig.liveFlows()).length;
    await readOnly(true);
    try {
      await rig.click(APPROVER, card, 'approve');
      const told = await rig.slack.waitFor(
        () =>
          rig
            .seen(APPROVER, APPROVALS)
            .find(
              (m) => m.ephemeralTo === APPROVER && textOf(m).includes("The bot's database would not save it"),
            ),
        30_000,
        'the approver told the click was not saved',
      );
      expect(textOf(told)).toContain('nothing was decided: click again in a minute');
      expect(textOf(told)).not.toMatch(/25006|read-only transaction|U0[A-Z]+/);
    } finally {
      await readOnly(false);
    }
    expect(await rig.liveFlows()).toHaveLength(liveBefore);
    await readyzBecomes(bot, 200);
    await rig.click(APPROVER, rig.requestMessage()!, 'approve');
    await waitUntil(async () => expect(await rig.liveFlows()).toHaveLength(liveBefore + 1), {
      timeout: 30_000,
    });
  });

  it('read-only after the service created the flow: the entry written before the call stays, outcome unknown, and the reply says so', async () => {
    await fetch(`${rig.emulator.url}/_emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'POST', path: '/flows$', latencyMs: 1000, count: 1 }),
    });
    const answer = rig.command(learn('answer unrecorded'));
    await waitUntil(async () => expect(await flowsNamed(rig, 'answer unrecorded')).toHaveLength(1), {
      timeout: 30_000,
    });
    await readOnly(true);
    let text: string;
    try {
      text = textOf(await answer);
    } finally {
      await readOnly(false);
    }
    expect(text).toMatch(/\b14\d{17}\b/);
    expect(text).toContain('its audit log shows this as outcome unknown');
    const entries = (await store.listAudit({ limit: 100 })).filter(
      (e) => e.params.name === 'answer unrecorded',
    );
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ operation: 'flow.ANOMALYLEARN', outcome: 'unknown', flowId: null });
  });
});
