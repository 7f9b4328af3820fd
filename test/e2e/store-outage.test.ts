import { afterAll, beforeAll, expect, it } from 'vitest';
import { PostgresStore } from '../../src/store/postgres.js';
import { SEED } from '../../standins/emulator/index.js';
import type { LocalMessage } from '../../standins/localslack/index.js';
import { textOf } from '../support/approvals-rig.js';
import { DEFAULT_CHANNEL, DEFAULT_USER, type Harness, startHarness } from '../support/harness.js';
import { waitUntil } from '../support/patience.js';
import { describeWithPgCluster, type PgCluster, startPgCluster } from '../support/pg-cluster.js';

const W = SEED.workspaces.pumpStation;
const T = SEED.signals.temperature;
const learn = (name: string) =>
  `learn workspace=${W} signals=${T}:temperature range="last 2 days" name="${name}"`;
const NOTHING_DONE =
  "The bot's database is not answering right now, so nothing was done. Try again in a minute.";

// The bot on a PostgreSQL cluster of its own, which these tests stop and restart under it: the store
// blips before a command is run, after its service call, and while commands keep coming.
describeWithPgCluster('the store goes away and comes back', () => {
  let pg: PgCluster;
  let h: Harness;
  let store: PostgresStore;
  beforeAll(async () => {
    pg = await startPgCluster();
    h = await startHarness({
      env: { DATABASE_URL: pg.url, TSAI_REQUEST_TIMEOUT_MS: '5000', LOG_LEVEL: 'info' },
    });
    store = await PostgresStore.open(pg.url);
  });
  afterAll(async () => {
    await store?.close();
    await h?.close();
    await pg?.close();
  });

  /** Sends a command and waits for the one message that answers it (it names `name`). */
  const send = async (text: string, name: string): Promise<LocalMessage> => {
    const delivery = await h.command(text);
    expect(delivery.status).toBe(200);
    return reply(name);
  };
  const reply = (name: string, timeoutMs = 20_000) =>
    h.slack.waitFor(
      () =>
        h.slack
          .messages(DEFAULT_CHANNEL, { user: DEFAULT_USER })
          .find((m) => m.kind !== 'command' && m.user !== DEFAULT_USER && textOf(m).includes(name)),
      timeoutMs,
      `the reply naming ${name}`,
    );
  const flowsNamed = async (name: string) =>
    (await h.serviceRequests()).filter(
      (r) => r.method === 'POST' && r.path.endsWith('/flows') && (r.body as { name?: string }).name === name,
    );
  /** The bot's warnings and errors so far, one line each. */
  const warnings = () =>
    h.logs
      .filter((l) => (JSON.parse(l) as { level: number }).level >= 40)
      .map((l) => l.slice(0, 400))
      .join('\n');
  const flowIdIn = (m: LocalMessage) => /\b(14\d{17})\b/.exec(textOf(m))?.[1];

  it('a command while the store is down is told nothing was done, and works once it is back', async () => {
    await pg.stop();
    try {
      const answer = await send(learn('while down'), 'while down');
      // On failure, what the bot warned of: under load it once answered "interrupted" instead.
      expect(textOf(answer), warnings()).toContain(NOTHING_DONE);
      expect(await flowsNamed('while down')).toHaveLength(0);
    } finally {
      await pg.start();
    }
    // The pool reconnects by itself: the same command now runs.
    const again = await send(learn('after restart'), 'after restart');
    expect(textOf(again)).not.toContain(NOTHING_DONE);
    expect(await flowsNamed('after restart')).toHaveLength(1);
  });

  it('the store going down after the service created a flow loses neither its audit entry nor its tracking', async () => {
    await h.addFault({ method: 'POST', path: '/flows$', latencyMs: 1500, count: 1 });
    const delivery = await h.command(learn('blip after create'));
    expect(delivery.status).toBe(200);
    // The service holds the request; the store goes down before it answers.
    await waitUntil(async () => expect(await flowsNamed('blip after create')).toHaveLength(1), {
      timeout: 5000,
    });
    await pg.stop();
    try {
      await waitUntil(
        () => expect(h.logs.some((l) => l.includes('the store did not answer; writing again'))).toBe(true),
        { timeout: 10_000 },
      );
    } finally {
      await pg.start();
    }
    const answer = await reply('blip after create');
    const flowId = flowIdIn(answer);
    expect(flowId).toBeDefined();
    expect(textOf(answer)).not.toContain('missing from its audit log');
    const [created] = await flowsNamed('blip after create');
    expect(created!.status).toBe(201);
    const audit = (await store.listAudit({ limit: 1000 })).filter((e) => e.flowId === flowId);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ operation: 'flow.ANOMALYLEARN', outcome: 'ok' });
    expect(await store.getTrackedFlow({ teamId: 'T0LOCAL', flowId: flowId! })).toMatchObject({
      flowId,
      requesterId: DEFAULT_USER,
    });
  });

  it('a restart during steady traffic: every command is answered once, as done or as not done, never half', async () => {
    // Two digits each, so that no name is the start of another ("steady 1" of "steady 12").
    const names = Array.from({ length: 24 }, (_, i) => `steady ${String(i).padStart(2, '0')}`);
    const sent: Promise<unknown>[] = [];
    for (const [i, name] of names.entries()) {
      sent.push(h.command(learn(name)));
      if (i === 6) sent.push(pg.restart());
      await new Promise((r) => setTimeout(r, 120));
    }
    await Promise.all(sent);
    const answers = await Promise.all(names.map((n) => reply(n, 30_000)));
    const requests = (await h.serviceRequests()).filter(
      (r) => r.method === 'POST' && r.path.endsWith('/flows'),
    );
    const audit = await store.listAudit({ limit: 1000 });
    let done = 0;
    for (const [i, name] of names.entries()) {
      const text = textOf(answers[i]);
      expect(text).not.toContain('inside the bot');
      const posted = requests.filter((r) => (r.body as { name?: string }).name === name);
      if (text.includes(NOTHING_DONE)) {
        expect(posted, `${name} was said not done`).toHaveLength(0);
        continue;
      }
      done++;
      expect(text).not.toContain('missing from its audit log');
      expect(text).not.toContain('will not tell you when this flow ends');
      const flowId = flowIdIn(answers[i]!);
      expect(flowId, `${name}: ${text}`).toBeDefined();
      expect(posted, `${name} was created once`).toHaveLength(1);
      expect(
        audit.filter((e) => e.flowId === flowId),
        `${name} audited once`,
      ).toHaveLength(1);
      expect(
        await store.getTrackedFlow({ teamId: 'T0LOCAL', flowId: flowId! }),
        `${name} is followed`,
      ).not.toBeNull();
      // Exactly one answer per command.
      const all = h.slack
        .messages(DEFAULT_CHANNEL, { user: DEFAULT_USER })
        .filter((m) => m.kind !== 'command' && m.user !== DEFAULT_USER && textOf(m).includes(`"${name}"`));
      expect(all.length, `${name} answered once`).toBeLessThanOrEqual(1);
    }
    expect(done).toBeGreaterThan(0);
    // Every flow the service created during the traffic was answered as done.
    for (const r of requests.filter((x) => names.includes((x.body as { name: string }).name)))
      expect(r.status).toBe(201);
  });
});
