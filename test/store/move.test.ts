import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createVault, type SecretKeys } from '../../src/core/identity/index.js';
import { createTenantVault } from '../../src/core/tenancy/vault.js';
import { MIGRATIONS, SqliteStore } from '../../src/store/index.js';
import { moveStore } from '../../src/store/move/move.js';
import { PostgresStore } from '../../src/store/postgres.js';
import { migrate } from '../../src/store/sqlite.js';
import { describePg, type FreshDatabase, freshDatabase } from '../support/fixtures/store.js';
import { onPg, pgColumnTypes, pgCounts, seedEveryTable, sqliteDump } from '../support/store-dump.js';

/*
 * `npm run store:move` between real SQLite files and a real PostgreSQL server: every table of the schema
 * carried value for value and back, what the bot reads through its vaults still opened with the same key,
 * the schema versions of both sides, a target that holds rows, a move cut short, and a copy that does not
 * match.
 */

const T0 = Date.UTC(2026, 10, 22, 9);
let dir: string;
const dbs: FreshDatabase[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tsai-move-'));
});
afterEach(async () => {
  for (const db of dbs.splice(0)) await db.drop();
  await rm(dir, { recursive: true, force: true });
});

const file = (name: string) => join(dir, name);
async function postgres(): Promise<string> {
  const db = await freshDatabase();
  dbs.push(db);
  return db.url;
}
/** A migrated, empty SQLite store at `name`. */
async function sqliteStore(name: string): Promise<string> {
  await (await SqliteStore.open(file(name))).close();
  return file(name);
}

describePg('moving the store SQLite -> PostgreSQL -> SQLite', () => {
  it('carries every table of the schema, every value as it was, and back again', async () => {
    const target = await postgres();
    await (await PostgresStore.open(target)).close();
    const source = await sqliteStore('source.sqlite');
    const tables = seedEveryTable(source, await pgColumnTypes(target));
    expect(tables).toContain('person_tokens');

    const there = await moveStore({ from: source, to: target });
    // Every table of the schema is carried, derived from it: a table a migration adds is in this list.
    expect(there.tables.map((t) => t.name).sort()).toEqual(tables);
    expect(there.tables.every((t) => t.rows === 3)).toBe(true);
    expect(Object.keys(await pgCounts(target)).sort()).toEqual(tables);

    const back = await moveStore({ from: target, to: file('back.sqlite') });
    expect(back.tables.map((t) => [t.name, t.rows, t.checksum])).toEqual(
      there.tables.map((t) => [t.name, t.rows, t.checksum]),
    );
    expect(sqliteDump(file('back.sqlite'))).toEqual(sqliteDump(source));
  });

  it('carries tables longer than a batch and values larger than a statement takes', async () => {
    const source = file('big.sqlite');
    const store = await SqliteStore.open(source);
    const large = 'x'.repeat(3 << 20);
    for (let i = 0; i < 1_234; i++)
      await store.appendAudit({
        at: T0 + i,
        userId: `U${i}`,
        operation: 'learn',
        params: { note: i % 400 === 0 ? `${large}${i}` : `line ${i}` },
        outcome: 'ok',
      });
    await store.close();
    const target = await postgres();
    const there = await moveStore({ from: source, to: target });
    expect(there.tables.find((t) => t.name === 'audit_log')?.rows).toBe(1_234);
    await moveStore({ from: target, to: file('back.sqlite') });
    expect(sqliteDump(file('back.sqlite'))).toEqual(sqliteDump(source));
  });

  it("opens people's tokens and installations' secrets with the same key after the move, and new audit lines follow the copied ones", async () => {
    const keys: SecretKeys = { current: new Uint8Array(randomBytes(32)), previous: [] };
    const alice = { teamId: 'T0ACME', userId: 'U0ALICE' };
    const token = `tok-${randomBytes(12).toString('hex')}`;
    const sqlite = await SqliteStore.open(file('bot.sqlite'));
    await createVault(sqlite, keys).save(alice, token, { since: T0, accountId: '1000000000000000001' });
    await createTenantVault(sqlite, keys).keep('T0ACME', 'installation', { team: 'Acme' }, 'xoxb-acme', T0);
    for (let i = 0; i < 5; i++)
      await sqlite.appendAudit({
        at: T0 + i,
        userId: 'U0ALICE',
        operation: 'workspace.show',
        params: { i },
        outcome: 'ok',
      });
    await sqlite.close();
    // The two newest lines gone (pruned by hand): their ids are not handed out again.
    const raw = new Database(file('bot.sqlite'));
    raw.prepare('DELETE FROM audit_log WHERE id > 3').run();
    raw.close();
    const kept = await SqliteStore.open(file('bot.sqlite'));
    const pending = await kept.listAudit();
    await kept.close();

    const target = await postgres();
    await moveStore({ from: file('bot.sqlite'), to: target });
    const moved = await PostgresStore.open(target);
    try {
      expect(await createVault(moved, keys).tokenOf(alice)).toBe(token);
      expect((await createTenantVault(moved, keys).open('T0ACME', 'installation'))?.secret).toBe('xoxb-acme');
      expect(await moved.listAudit()).toEqual(pending);
      const next = await moved.appendAudit({
        at: T0 + 9,
        userId: 'U0BOB',
        operation: 'x',
        params: {},
        outcome: 'ok',
      });
      expect(pending.map((e) => e.id)).toEqual([3, 2, 1]);
      expect(next.id).toBe(6);
    } finally {
      await moved.close();
    }
  });

  it('carries booleans, bytes, JSON and reals between the engines, and the ids a sequence handed out', async () => {
    const source = await postgres();
    await (await PostgresStore.open(source)).close();
    await onPg(source, async (c) => {
      await c.query(`CREATE TABLE kinds (id BIGSERIAL PRIMARY KEY, flag BOOLEAN, data BYTEA, doc JSON, tags JSONB,
        ratio DOUBLE PRECISION, small INTEGER)`);
      await c.query(
        `INSERT INTO kinds (flag, data, doc, tags, ratio, small) VALUES
          (true, '\\x00ff0a'::bytea, '{"b": 1,  "a": [2]}', '{"b": 1, "a": [2]}', 0.1, -2147483648),
          (false, '\\x'::bytea, '[]', '{}', 1.7976931348623157e308, 2147483647),
          (NULL, NULL, NULL, NULL, 'Infinity', NULL)`,
      );
      await c.query("SELECT setval(pg_get_serial_sequence('kinds', 'id'), 40)");
    });
    const back = file('back.sqlite');
    const db = new Database(await sqliteStore('back.sqlite'));
    db.exec(`CREATE TABLE kinds (id INTEGER PRIMARY KEY AUTOINCREMENT, flag BOOLEAN, data BLOB, doc JSON, tags JSON,
      ratio REAL, small INTEGER)`);
    db.close();

    const report = await moveStore({ from: source, to: back });
    expect(report.tables.find((t) => t.name === 'kinds')?.rows).toBe(3);
    const rows = sqliteDump(back).kinds;
    expect(rows).toEqual([
      'int:1 | int:1 | blob:00ff0a | text:"{\\"b\\": 1,  \\"a\\": [2]}" | text:"{\\"a\\": [2], \\"b\\": 1}" | real:0.1 | int:-2147483648',
      'int:2 | int:0 | blob: | text:"[]" | text:"{}" | real:1.7976931348623157e+308 | int:2147483647',
      'int:3 | null | null | null | null | real:Infinity | null',
    ]);
    const again = new Database(back);
    expect(again.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'kinds'").pluck().get()).toBe(40);
    again.close();

    // And back to PostgreSQL: the same values, and the sequence past what it had handed out.
    const there = await postgres();
    await onPg(there, (c) =>
      c.query(`CREATE TABLE kinds (id BIGSERIAL PRIMARY KEY, flag BOOLEAN, data BYTEA, doc JSON, tags JSONB,
        ratio DOUBLE PRECISION, small INTEGER)`),
    );
    const returned = await moveStore({ from: back, to: there });
    expect(returned.tables.find((t) => t.name === 'kinds')).toEqual(
      report.tables.find((t) => t.name === 'kinds'),
    );
    const next = await onPg(there, (c) => c.query('INSERT INTO kinds (flag) VALUES (true) RETURNING id'));
    expect(Number(next.rows[0].id)).toBe(41);
  });
});

describePg('what the move refuses, and running it again', () => {
  async function sourceWithRows(): Promise<string> {
    const store = await SqliteStore.open(file('bot.sqlite'));
    await store.setState('seen', { n: 1 }, T0);
    await store.setChannelDefaults('C0OPS', { workspace: '1030000000000000001' }, 'U0ALICE', T0);
    await store.close();
    return file('bot.sqlite');
  }

  it('refuses a target that holds rows unless told to replace them; replacing and running again double nothing', async () => {
    const source = await sourceWithRows();
    const target = await postgres();
    const running = await PostgresStore.open(target);
    await running.setState('a replica started here', true, T0);
    await running.close();

    await expect(moveStore({ from: source, to: target })).rejects.toThrow(
      /already holds rows \(bot_state: 1\).*add --force to replace/,
    );
    expect((await pgCounts(target)).bot_state).toBe(1);

    const forced = await moveStore({ from: source, to: target, force: true });
    expect(forced.replaced).toBe(1);
    const again = await moveStore({ from: source, to: target, force: true });
    expect(again.tables).toEqual(forced.tables);
    expect(await pgCounts(target)).toMatchObject({ bot_state: 1, channel_defaults: 1 });
    await onPg(target, async (c) =>
      expect((await c.query('SELECT key FROM bot_state')).rows).toEqual([{ key: 'seen' }]),
    );
  });

  it("leaves alone another program's tables in the target's database, even when told to replace", async () => {
    const source = await sourceWithRows();
    const target = await postgres();
    await onPg(target, (c) =>
      c.query('CREATE TABLE invoices (id int PRIMARY KEY); INSERT INTO invoices VALUES (7)'),
    );
    const report = await moveStore({ from: source, to: target, force: true });
    expect(report.tables.map((t) => t.name)).not.toContain('invoices');
    expect(report.replaced).toBe(0);
    expect((await pgCounts(target)).invoices).toBe(1);
  });

  it('a move cut short leaves the target holding nothing; run again, it completes', async () => {
    const source = await sourceWithRows();
    const target = await postgres();
    const cut = moveStore({
      from: source,
      to: target,
      onTable: (name) => {
        if (name === 'bot_state') throw new Error('the machine went down');
      },
    });
    await expect(cut).rejects.toThrow('the machine went down');
    expect(Object.values(await pgCounts(target)).every((n) => n === 0)).toBe(true);

    const done = await moveStore({ from: source, to: target });
    expect(done.tables.filter((t) => t.rows > 0).map((t) => [t.name, t.rows])).toEqual([
      ['bot_state', 1],
      ['channel_defaults', 1],
    ]);
  });

  it('keeps nothing when the target does not hold what it was given', async () => {
    const source = await sourceWithRows();
    const target = await postgres();
    await (await PostgresStore.open(target)).close();
    await onPg(target, (c) =>
      c.query(`CREATE FUNCTION alter_row() RETURNS trigger AS $$ BEGIN NEW.updated_by := 'someone else';
        RETURN NEW; END $$ LANGUAGE plpgsql;
        CREATE TRIGGER alter_row BEFORE INSERT ON channel_defaults FOR EACH ROW EXECUTE FUNCTION alter_row();`),
    );
    await expect(moveStore({ from: source, to: target })).rejects.toThrow(
      /did not match the source in channel_defaults \(its rows read back with other values\), so the target keeps nothing/,
    );
    expect(Object.values(await pgCounts(target)).every((n) => n === 0)).toBe(true);
  });

  it("brings the target to the source's schema version, and refuses a target a newer bot set up", async () => {
    const older = file('older.sqlite');
    const db = new Database(older);
    migrate(db, 10);
    db.prepare("INSERT INTO bot_state (key, value, updated_at) VALUES ('k', '1', 0)").run();
    db.close();
    const target = await postgres();
    const report = await moveStore({ from: older, to: target });
    expect([report.version, report.targetWas]).toEqual([10, 0]);
    expect(
      await onPg(target, async (c) => (await c.query('SELECT version FROM schema_migrations')).rows.length),
    ).toBe(10);
    // The bot, started on it, applies the rest.
    const bot = await PostgresStore.open(target);
    expect(await bot.appliedMigrations()).toEqual(MIGRATIONS.map((m) => m.version));
    await bot.close();

    await expect(moveStore({ from: older, to: target, force: true })).rejects.toThrow(
      new RegExp(`is at schema version ${MIGRATIONS.at(-1)!.version}, and the source at 10: a newer bot`),
    );
  });
});
