import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isStoreUnavailable,
  isStoreWriteRefused,
  SqliteStore,
  type Store,
  type WriteHealth,
} from '../../src/store/index.js';
import { PostgresStore } from '../../src/store/postgres.js';
import { describePg, type FreshDatabase, freshDatabase } from '../support/fixtures/store.js';
import { canMountSmallDisk, mountSmallDisk, type SmallDisk } from '../support/small-disk.js';

const AT = Date.UTC(2026, 10, 22, 10);
const entry = (n: number) => ({
  at: AT + n,
  userId: 'U0ALICE',
  channelId: 'C0OPS',
  operation: 'flow.ANOMALYLEARN',
  outcome: 'ok' as const,
});

async function errorOf(f: () => Promise<unknown>): Promise<unknown> {
  try {
    await f();
  } catch (e) {
    return e;
  }
  throw new Error('expected the write to fail');
}

/** Every change of write health the store reports. */
function watched(store: Store): WriteHealth[] {
  const seen: WriteHealth[] = [];
  store.watchWrites((h) => seen.push(h));
  return seen;
}

if (!canMountSmallDisk) console.warn('cannot mount a tmpfs here: skipping the full-disk SQLite test');

describe.skipIf(!canMountSmallDisk)('SQLite on a disk that fills up (a real tmpfs)', () => {
  let disk: SmallDisk;
  let store: Store;
  beforeAll(async () => {
    disk = mountSmallDisk()!;
    store = await SqliteStore.open(join(disk.dir, 'bot.sqlite'));
  });
  afterAll(async () => {
    await store?.close();
    disk?.close();
  });

  // The bot's connection was open before the disk filled, as in production. An insert that returns its
  // row (the audit log's) once answered with its row and lost the commit's SQLITE_FULL.
  it('a write refused for a full disk is told apart and reported; reads go on; freed, writes work again', async () => {
    await store.appendAudit(entry(0));
    const seen = watched(store);
    disk.fill();
    const full = await errorOf(() => store.appendAudit(entry(1)));
    expect((full as { code?: string }).code).toBe('SQLITE_FULL');
    expect(isStoreWriteRefused(full)).toBe(true);
    // Not a store that cannot be reached: retrying it for seconds would not help.
    expect(isStoreUnavailable(full)).toBe(false);
    expect(store.writeHealth).toMatchObject({ ok: false, problem: 'its disk is full' });
    expect(store.writeHealth).toMatchObject({ detail: expect.stringContaining('SQLITE_FULL') });
    expect(seen).toHaveLength(1);
    // Every refusal is heard (readiness on another thread must hear one after it probed), weighed by its
    // size: the largest refused write is what a write must match to say that writes work again.
    const refusedBytes = (store.writeHealth as { bytes: number }).bytes;
    expect(refusedBytes).toBeGreaterThan(0);
    await errorOf(() => store.setState('k', 'x'.repeat(4 * refusedBytes), AT));
    expect(seen).toHaveLength(2);
    expect((store.writeHealth as { bytes: number }).bytes).toBeGreaterThan(4 * refusedBytes);
    expect((await store.listAudit()).map((e) => e.at)).toEqual([AT]);

    disk.free();
    await store.appendAudit(entry(2));
    // A write smaller than the refused ones went through: that alone says nothing of theirs.
    expect(store.writeHealth).toMatchObject({ ok: false });
    await store.setState('k', 'x'.repeat(5 * refusedBytes), AT);
    expect(store.writeHealth).toEqual({ ok: true });
    expect(seen.at(-1)).toEqual({ ok: true });
    expect((await store.listAudit()).map((e) => e.at)).toEqual([AT + 2, AT]);
  });
});

describePg('PostgreSQL made read-only, then writable again', () => {
  let db: FreshDatabase;
  let store: Store;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  const name = () => new URL(db.url).pathname.slice(1);
  /** The bot's connections end; the pool opens new ones, which read the database's setting. */
  const dropConnections = () =>
    admin(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name()}' AND pid <> pg_backend_pid()`,
    );
  beforeAll(async () => {
    db = await freshDatabase();
    store = await PostgresStore.open(db.url, { max: 2 });
  });
  afterAll(async () => {
    await store?.close();
    await db?.drop();
  });

  it('a write refused by a read-only database is told apart and reported; reads go on; writable, it works', async () => {
    await store.appendAudit(entry(0));
    const seen = watched(store);
    await admin(`ALTER DATABASE ${name()} SET default_transaction_read_only = on`);
    await dropConnections();
    // The first query may meet a terminated connection; the store says so, and the next one reconnects.
    let refused: unknown;
    for (let i = 0; i < 3 && !isStoreWriteRefused(refused); i++)
      refused = await errorOf(() => store.appendAudit(entry(1)));
    expect((refused as { code?: string }).code).toBe('25006');
    expect(isStoreWriteRefused(refused)).toBe(true);
    expect(store.writeHealth).toMatchObject({ ok: false, problem: 'it is read-only' });
    expect(seen.some((h) => !h.ok)).toBe(true);
    expect((await store.listAudit()).map((e) => e.at)).toEqual([AT]);

    await admin(`ALTER DATABASE ${name()} RESET default_transaction_read_only`);
    await dropConnections();
    let wrote = false;
    for (let i = 0; i < 3 && !wrote; i++)
      wrote = await store.appendAudit(entry(2)).then(
        () => true,
        () => false,
      );
    expect(wrote).toBe(true);
    expect(store.writeHealth).toEqual({ ok: true });
    expect(seen.at(-1)).toEqual({ ok: true });
  });
});
