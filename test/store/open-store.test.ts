import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SQLITE_FILE, openStore, resolveStoreTarget, type Store } from '../../src/store/index.js';
import { describePg, TEST_DATABASE_URL } from '../support/fixtures/store.js';

describe('resolveStoreTarget (DATABASE_URL)', () => {
  it.each([
    [undefined, { kind: 'sqlite', file: DEFAULT_SQLITE_FILE }],
    ['', { kind: 'sqlite', file: DEFAULT_SQLITE_FILE }],
    ['  ', { kind: 'sqlite', file: DEFAULT_SQLITE_FILE }],
    ['./data/x.sqlite', { kind: 'sqlite', file: './data/x.sqlite' }],
    ['/var/lib/bot/db.sqlite', { kind: 'sqlite', file: '/var/lib/bot/db.sqlite' }],
    ['sqlite:./data/x.sqlite', { kind: 'sqlite', file: './data/x.sqlite' }],
    ['sqlite://data/x.sqlite', { kind: 'sqlite', file: 'data/x.sqlite' }],
    ['sqlite:///var/lib/x.sqlite', { kind: 'sqlite', file: '/var/lib/x.sqlite' }],
    ['postgres://u:p@127.0.0.1:5432/db', { kind: 'postgres', url: 'postgres://u:p@127.0.0.1:5432/db' }],
    ['postgresql://127.0.0.1/db', { kind: 'postgres', url: 'postgresql://127.0.0.1/db' }],
  ])('%j', (input, expected) => {
    expect(resolveStoreTarget(input)).toEqual(expected);
  });

  it('refuses other URL schemes and an empty sqlite: URL without echoing the value', () => {
    expect(() => resolveStoreTarget('mysql://root:hunter2secret@db/x')).toThrow(/postgres:\/\//);
    expect(() => resolveStoreTarget('mysql://root:hunter2secret@db/x')).not.toThrow(/hunter2secret/);
    expect(() => resolveStoreTarget('sqlite:')).toThrow(/names no file/);
  });
});

describe('openStore', () => {
  let dir: string | undefined;
  let store: Store | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('opens SQLite from a sqlite: URL, creating the directory, in WAL mode', async () => {
    dir = await mkdtemp(join(tmpdir(), 'tsai-open-'));
    const file = join(dir, 'a', 'b', 'bot.sqlite');
    store = await openStore(`sqlite:${file}`);
    expect(store.kind).toBe('sqlite');
    await store.setState('k', 1, 0);
    expect(existsSync(file)).toBe(true);
    expect(existsSync(`${file}-wal`)).toBe(true);
  });

  it('opens SQLite from a plain path', async () => {
    dir = await mkdtemp(join(tmpdir(), 'tsai-open-'));
    store = await openStore(join(dir, 'plain.sqlite'));
    expect(store.kind).toBe('sqlite');
    expect(existsSync(join(dir, 'plain.sqlite'))).toBe(true);
  });
});

describePg('openStore on PostgreSQL', () => {
  it('opens PostgreSQL from a postgres:// URL', async () => {
    const schema = `t_open_${process.pid}`;
    const s = await openStore(TEST_DATABASE_URL, { schema });
    try {
      expect(s.kind).toBe('postgres');
      expect((await s.appliedMigrations()).length).toBeGreaterThan(0);
    } finally {
      await s.close();
      const { default: pg } = await import('pg');
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    }
  });
});
