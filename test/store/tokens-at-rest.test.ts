import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createVault, keyIdOf, type SecretKeys } from '../../src/core/identity/index.js';
import { SqliteStore, type Store } from '../../src/store/index.js';
import { PostgresStore } from '../../src/store/postgres.js';
import { findPgBin } from '../global-postgres.js';
import { describePg, TEST_DATABASE_URL } from '../support/fixtures/store.js';

/**
 * A person's own token never reaches the store in clear: after connecting, the bytes of the SQLite file
 * (and its journal) and a dump of the PostgreSQL schema hold neither the token nor its base64.
 */
const ALICE = { teamId: 'T0TEAM', userId: 'U0ALICE' };
const TOKEN = `tok-${randomBytes(18).toString('hex')}`;
const KEYS: SecretKeys = { current: new Uint8Array(randomBytes(32)), previous: [] };
const CONNECTION = { since: Date.UTC(2026, 10, 22, 9), accountId: '1000000000000000001', role: 'Manager' };

function expectNoToken(bytes: Buffer, where: string): void {
  for (const form of [TOKEN, Buffer.from(TOKEN).toString('base64'), Buffer.from(TOKEN).toString('hex')])
    expect(bytes.includes(Buffer.from(form)), `${where} holds the token`).toBe(false);
  // The key itself is never stored either; only its ID.
  expect(bytes.includes(Buffer.from(KEYS.current)), `${where} holds the key`).toBe(false);
  expect(
    bytes.includes(Buffer.from(Buffer.from(KEYS.current).toString('base64'))),
    `${where} holds the key`,
  ).toBe(false);
}

describe('tokens at rest: SQLite', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tsai-at-rest-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('the file and its journal hold the ciphertext and the key ID, never the token', async () => {
    const file = join(dir, 'bot.sqlite');
    const store = await SqliteStore.open(file);
    const vault = createVault(store, KEYS);
    await vault.save(ALICE, TOKEN, CONNECTION);
    expect(await vault.tokenOf(ALICE)).toBe(TOKEN);
    // Scanned while open (the write-ahead log holds the newest pages) and after closing.
    for (const f of [file, `${file}-wal`]) if (existsSync(f)) expectNoToken(readFileSync(f), f);
    const row = await store.getPersonToken(ALICE.teamId, ALICE.userId);
    await store.close();
    const bytes = readFileSync(file);
    expectNoToken(bytes, file);
    expect(bytes.includes(Buffer.from(row!.sealed.ciphertext))).toBe(true);
    expect(bytes.includes(Buffer.from(keyIdOf(KEYS.current)))).toBe(true);
  });
});

describePg('tokens at rest: PostgreSQL', () => {
  let store: Store | undefined;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  afterEach(async () => {
    await store?.close();
  });

  it.skipIf(!findPgBin())('a dump of the schema holds the ciphertext, never the token', async () => {
    store = await PostgresStore.open(TEST_DATABASE_URL!, { schema, max: 2 });
    const vault = createVault(store, KEYS);
    await vault.save(ALICE, TOKEN, CONNECTION);
    expect(await vault.tokenOf(ALICE)).toBe(TOKEN);
    const { stdout } = await promisify(execFile)(
      join(findPgBin()!, 'pg_dump'),
      [
        '--dbname',
        TEST_DATABASE_URL!,
        '--schema',
        schema,
        '--data-only',
        '--table',
        `${schema}.person_tokens`,
      ],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    const dump = Buffer.from(stdout);
    expectNoToken(dump, 'the dump');
    const row = await store.getPersonToken(ALICE.teamId, ALICE.userId);
    expect(stdout).toContain(row!.sealed.ciphertext);
    expect(stdout).toContain(keyIdOf(KEYS.current));
  });
});
