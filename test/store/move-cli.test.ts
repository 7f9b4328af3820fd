import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/index.js';
import { runStoreMove } from '../../src/store/move/cli.js';
import { freePort } from '../global-postgres.js';
import {
  describePg,
  type FreshDatabase,
  freshDatabase,
  TEST_DATABASE_URL,
} from '../support/fixtures/store.js';

/** `npm run store:move` as a person runs it: what it prints, and its exit code. */
async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runStoreMove(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** Nothing raw: no stack trace, no error class, no JSON. */
function expectWords(text: string): void {
  expect(text).not.toMatch(/\n\s+at |Error:|\{"/);
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tsai-move-cli-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function botStore(): Promise<string> {
  const file = join(dir, 'bot.sqlite');
  const store = await SqliteStore.open(file);
  await store.setChannelDefaults('C0OPS', { workspace: '1030000000000000001' }, 'U0ALICE', 0);
  await store.appendAudit({ at: 1, userId: 'U0ALICE', operation: 'use.set', params: {}, outcome: 'ok' });
  await store.close();
  return file;
}

describe('npm run store:move: how it is asked', () => {
  it('shows how to use it, and says what is missing or unknown with the usage (exit 2)', async () => {
    const help = await run('--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('npm run store:move -- --from <store> --to <store> [--force]');
    expect(await run()).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^Say which store to move with --from\./),
    });
    expect(await run('--from', 'a.sqlite')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^Say where to move it with --to\./),
    });
    expect(await run('--from', '--to', 'b.sqlite')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^--from needs a store after it\./),
    });
    const positional = await run('a.sqlite', 'postgres://tsai:Sup3rSecretPw@db/tsai');
    expect(positional).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^Name each store after --from or --to\./),
    });
    expect(positional.err).not.toContain('Sup3r');
    const unknown = await run('--from=a.sqlite', '--to', 'b.sqlite', '--dry-run');
    expect(unknown).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^--dry-run is not an option of store:move\./),
    });
    expect(unknown.err).toContain('Example:');
    expect(await run('--from', 'x.sqlite', '--to', 'mysql://root:pw@db/x')).toMatchObject({
      code: 1,
      err: expect.stringMatching(/^--to names no store the bot can use\./),
    });
  });

  it('refuses a source file that is not there, before creating any target', async () => {
    const target = join(dir, 'new.sqlite');
    const r = await run('--from', join(dir, 'typo.sqlite'), '--to', target);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `There is no SQLite file at ${join(dir, 'typo.sqlite')}.\n` +
        'Give --from the path the bot’s DATABASE_URL names (by default ./data/tsai-chatops.sqlite).',
    );
    expect(existsSync(target)).toBe(false);
    expect(
      (await run('--from', join(dir, 'a.sqlite'), '--to', `sqlite:${join(dir, 'a.sqlite')}`)).err,
    ).toMatch(/^--from and --to both name the SQLite file/);
  });

  it('moves a SQLite file into another, reporting each table and the verification, and refuses to do it twice', async () => {
    const source = await botStore();
    const target = join(dir, 'copy', 'bot.sqlite');
    const moved = await run('--from', source, '--to', target);
    expect(moved.code).toBe(0);
    expect(moved.out).toContain(`Moved from the SQLite file ${source}`);
    expect(moved.out).toMatch(/\n {2}audit_log +1 {2}[0-9a-f]{16}\n/);
    expect(moved.out).toMatch(/\n {2}channel_defaults +1 {2}[0-9a-f]{16}\n/);
    expect(moved.out).toMatch(/\n {2}\d+ tables +2\n/);
    expect(moved.out).toContain('Verified: every table holds the same rows on both sides');
    expect(moved.out).toContain('Next: set DATABASE_URL to the new store');
    expectWords(moved.out);

    const twice = await run('--from', source, '--to', target);
    expect(twice.code).toBe(1);
    expect(twice.err).toMatch(/already holds rows \(audit_log: 1, channel_defaults: 1\)/);
    expect(twice.err).toContain('add --force');
    const forced = await run('--from', source, '--to', target, '--force');
    expect(forced.code).toBe(0);
    expect(forced.out).toContain('The 2 rows the target held before were replaced (--force).');
  });

  it('refuses a source a newer bot wrote, and a file that is no bot store', async () => {
    const source = await botStore();
    const db = new Database(source);
    db.prepare(
      "INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'from the future', 0)",
    ).run();
    db.close();
    const newer = await run('--from', source, '--to', join(dir, 'new.sqlite'));
    expect(newer.code).toBe(1);
    expect(newer.err).toMatch(
      /^The SQLite file .* was written by a newer version of the bot \(schema version 999; this one knows up to \d+\)\./,
    );
    expect(newer.err).toContain('Run the store:move of the bot version that wrote it.');

    const empty = join(dir, 'empty.sqlite');
    new Database(empty).close();
    expect((await run('--from', empty, '--to', join(dir, 'new.sqlite'))).err).toMatch(/holds no bot store/);
    await writeFile(join(dir, 'notes.txt'), 'not a database at all, just some words '.repeat(40));
    expect((await run('--from', join(dir, 'notes.txt'), '--to', join(dir, 'new.sqlite'))).err).toMatch(
      /^The SQLite file .*notes\.txt is not a SQLite database\.\nCheck the path\.$/,
    );
  });

  it('says that nothing answers at a PostgreSQL address, never its password', async () => {
    const source = await botStore();
    const port = await freePort();
    const r = await run('--from', source, '--to', `postgres://tsai:Sup3r%2FSecretPw@127.0.0.1:${port}/tsai`);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `Nothing answers at the PostgreSQL database tsai on 127.0.0.1:${port} (user tsai): the connection was refused.\n` +
        'Check the host and port, and that PostgreSQL runs and takes connections from this machine.',
    );
    expect(r.err).not.toMatch(/Sup3r/);
  });
});

describePg('npm run store:move to PostgreSQL', () => {
  let db: FreshDatabase;
  beforeEach(async () => {
    db = await freshDatabase();
  });
  afterEach(async () => {
    await db.drop();
  });

  it('says when the database is not there', async () => {
    const url = new URL(TEST_DATABASE_URL!);
    url.pathname = '/no_such_database';
    const r = await run('--from', await botStore(), '--to', url.toString());
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /^There is no PostgreSQL database no_such_database on 127\.0\.0\.1:\d+ \(user postgres\)\./,
    );
    expect(r.err).toContain('Create it first');
  });

  it('moves into it with a password in the URL, and prints the password nowhere', async () => {
    const url = new URL(db.url);
    url.password = 'pw-Sup3rSecret';
    const r = await run('--from', await botStore(), '--to', url.toString());
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/to the PostgreSQL database tsai_\w+ on 127\.0\.0\.1:\d+ \(user postgres\)/);
    expect(`${r.out}${r.err}`).not.toContain('Sup3rSecret');
    expectWords(r.out);
  });
});
