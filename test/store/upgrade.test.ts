import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, SqliteStore, type Store } from '../../src/store/index.js';
import { PostgresStore } from '../../src/store/postgres.js';
import { describePg, TEST_DATABASE_URL } from '../support/fixtures/store.js';

/**
 * A store kept by the release before followed flows were the tenant's opens with its rows as they were:
 * each flow under the team it was started in (one without a team under none), found by its tenant and ID,
 * the trace it was asked in kept, and a second tenant's flow of the same ID kept beside it.
 */

const BEFORE = 19;
const T0 = Date.UTC(2026, 10, 22, 9, 0, 0);
const FLOW = '1400000000000000001';
const columns =
  '(flow_id, flow_type, team_id, channel_id, requester_id, origin, asked, request, status, status_changed_at, created_at, next_poll_at, trace_parent)';
const TRACE = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
const rows = [
  `('${FLOW}', 'ANOMALYLEARN', 'T0ACME', 'C0A', 'U0A', 'command', '/tsai learn', '{}', 'CREATED', ${T0}, ${T0}, ${T0}, '${TRACE}')`,
  `('1400000000000000002', 'EVAL', NULL, 'C0B', 'U0B', 'command', '/tsai eval', '{}', 'RUNNING', ${T0}, ${T0}, ${T0}, NULL)`,
];
const older = MIGRATIONS.filter((m) => m.version <= BEFORE);

async function expectUpgraded(store: Store): Promise<void> {
  expect(await store.appliedMigrations()).toEqual(MIGRATIONS.map((m) => m.version));
  expect(await store.getTrackedFlow({ teamId: 'T0ACME', flowId: FLOW })).toMatchObject({
    teamId: 'T0ACME',
    asked: '/tsai learn',
    traceParent: TRACE,
  });
  expect(await store.getTrackedFlow({ flowId: '1400000000000000002' })).toMatchObject({
    teamId: null,
    status: 'RUNNING',
  });
  const globex = await store.trackFlow({
    flowId: FLOW,
    flowType: 'EVAL',
    teamId: 'T0GLOBEX',
    channelId: 'C0G',
    requesterId: 'U0G',
    origin: 'command',
    asked: '/tsai eval',
    request: {},
    status: 'CREATED',
    createdAt: T0,
    nextPollAt: T0,
  });
  expect(globex.teamId).toBe('T0GLOBEX');
  expect((await store.listTrackedFlows({ flowId: FLOW })).map((f) => f.teamId).sort()).toEqual([
    'T0ACME',
    'T0GLOBEX',
  ]);
}

describe('SQLite: a store of the release before', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('keeps its followed flows, each under its team', async () => {
    dir = await mkdtemp(join(tmpdir(), 'tsai-upgrade-'));
    mkdirSync(join(dir, 'db'));
    const file = join(dir, 'db', 'bot.sqlite');
    const db = new Database(file);
    db.exec(
      'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
    );
    for (const m of older) {
      db.exec(m.sqlite);
      db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(m.version, m.name, T0);
    }
    db.exec(`INSERT INTO tracked_flows ${columns} VALUES ${rows.join(', ')}`);
    db.close();
    const store = await SqliteStore.open(file);
    try {
      await expectUpgraded(store);
    } finally {
      await store.close();
    }
  });
});

describePg('PostgreSQL: a store of the release before', () => {
  it('keeps its followed flows, each under its team', async () => {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query(`CREATE SCHEMA ${schema}; SET search_path = ${schema}`);
      await client.query(
        'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)',
      );
      for (const m of older) {
        await client.query(m.postgres);
        await client.query('INSERT INTO schema_migrations VALUES ($1, $2, $3)', [m.version, m.name, T0]);
      }
      await client.query(`INSERT INTO tracked_flows ${columns} VALUES ${rows.join(', ')}`);
      const store = await PostgresStore.open(TEST_DATABASE_URL!, { schema, max: 2 });
      try {
        await expectUpgraded(store);
      } finally {
        await store.close();
      }
    } finally {
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
      await client.end();
    }
  });
});
