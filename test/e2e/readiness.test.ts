import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { Readiness } from '../../src/slack/readiness.js';
import { stackForThisSuite } from '../support/fixtures/stack.js';
import { BOT_TOKEN, type Harness, startHarness } from '../support/harness.js';
import { captureLogs } from '../support/logs.js';
import { waitUntil } from '../support/patience.js';
import { describeWithPgCluster, type PgCluster, startPgCluster } from '../support/pg-cluster.js';

async function probe(h: Harness, path: '/readyz' | '/healthz') {
  const res = await fetch(`http://127.0.0.1:${h.bot.port()}${path}`);
  const text = await res.text();
  return { status: res.status, body: path === '/readyz' ? (JSON.parse(text) as unknown) : text };
}

/** Waits until /readyz answers `status`, and returns its body. */
async function readyzBecomes(h: Harness, status: number) {
  return waitUntil(
    async () => {
      const r = await probe(h, '/readyz');
      expect(r.status).toBe(status);
      return r.body;
    },
    { timeout: 10_000, interval: 100 },
  );
}

describe('/readyz and Slack auth (the local Slack revokes and restores the token)', () => {
  let h: Harness;
  stackForThisSuite((started) => {
    h = started;
  });

  it('is ready when the store answers and Slack accepts the token; /healthz says ok', async () => {
    expect(await probe(h, '/readyz')).toEqual({ status: 200, body: { ready: true } });
    expect(await probe(h, '/healthz')).toEqual({ status: 200, body: 'ok' });
  });

  it('a Web API call answered token_revoked makes it 503 at once; restored, it is ready again', async () => {
    h.slack.setTokenStatus('revoked');
    try {
      // The follow-up worker's first Web API call (the user's zone, then the reply) is answered token_revoked.
      expect((await h.command('flows')).status).toBe(200);
      const body = await readyzBecomes(h, 503);
      expect(body).toEqual({
        ready: false,
        problems: [{ part: 'slack', problem: 'Slack rejects the bot token (token_revoked)' }],
      });
      // Liveness is not readiness: the process is fine.
      expect((await probe(h, '/healthz')).status).toBe(200);
    } finally {
      h.slack.setTokenStatus('active');
    }
    expect(await readyzBecomes(h, 200)).toEqual({ ready: true });
  });

  it('the periodic auth.test finds a deactivated account without any other call', async () => {
    const { destination } = captureLogs();
    const readiness = new Readiness({
      store: h.store,
      authTest: () => new WebClient(BOT_TOKEN, { slackApiUrl: h.slack.apiUrl }).auth.test(),
      logger: createLogger({ destination }),
      recheckMs: 50,
    });
    await readiness.start();
    try {
      expect(await readiness.report()).toEqual({ ready: true });
      const calls = h.slack.calls.length;
      h.slack.setTokenStatus('inactive');
      await waitUntil(() => expect(h.slack.calls.length).toBeGreaterThan(calls + 1), { timeout: 5000 });
      expect(await readiness.report()).toEqual({
        ready: false,
        problems: [{ part: 'slack', problem: 'Slack rejects the bot token (account_inactive)' }],
      });
    } finally {
      h.slack.setTokenStatus('active');
      readiness.stopping();
    }
  });
});

describeWithPgCluster('/readyz and the store (a PostgreSQL cluster stopped and started)', () => {
  let pg: PgCluster;
  let h: Harness;
  beforeAll(async () => {
    pg = await startPgCluster();
    h = await startHarness({ env: { DATABASE_URL: pg.url } });
  });
  afterAll(async () => {
    await h?.close();
    await pg?.close();
  });

  it('503 naming the store while it is unreachable, ready again once it is back', async () => {
    expect(await probe(h, '/readyz')).toEqual({ status: 200, body: { ready: true } });
    await pg.stop();
    try {
      const body = (await readyzBecomes(h, 503)) as {
        ready: boolean;
        problems: { part: string; problem: string }[];
      };
      expect(body.ready).toBe(false);
      expect(body.problems).toHaveLength(1);
      expect(body.problems[0]!.part).toBe('store');
      // In words: the store's own message (its host, port and user) goes to the log only.
      expect(body.problems[0]!.problem).toBe('the store does not answer');
      expect(JSON.stringify(body)).not.toMatch(/127\.0\.0\.1|localhost|ECONNREFUSED|postgres|:\d{2,5}\b/i);
      expect((await probe(h, '/healthz')).status).toBe(200);
    } finally {
      await pg.start();
    }
    expect(await readyzBecomes(h, 200)).toEqual({ ready: true });
  });

  it('a store that stops answering (frozen, connections open) is unready within the probe timeout', async () => {
    pg.freeze();
    try {
      const body = (await readyzBecomes(h, 503)) as { problems: { part: string; problem: string }[] };
      expect(body.problems[0]).toMatchObject({ part: 'store' });
      expect(body.problems[0]!.problem).toMatch(/^the store (did not answer within 2 s|does not answer)$/);
    } finally {
      pg.thaw();
    }
    expect(await readyzBecomes(h, 200)).toEqual({ ready: true });
  });
});
