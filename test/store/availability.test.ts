import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../src/core/audit.js';
import { isStoreUnavailable, retryWhileUnavailable, SqliteStore } from '../../src/store/index.js';

const dir = mkdtempSync(join(tmpdir(), 'tsai-availability-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  const port = (s.address() as { port: number }).port;
  await new Promise((ok) => s.close(ok));
  return port;
}

async function errorOf(f: () => Promise<unknown>): Promise<unknown> {
  try {
    await f();
  } catch (e) {
    return e;
  }
  throw new Error('expected a failure');
}

describe('telling an unavailable store from a bug', () => {
  it('a PostgreSQL server that is not there is unavailable', async () => {
    const pool = new pg.Pool({ connectionString: `postgres://x@127.0.0.1:${await closedPort()}/x` });
    pool.on('error', () => {});
    try {
      expect(isStoreUnavailable(await errorOf(() => pool.query('SELECT 1')))).toBe(true);
    } finally {
      await pool.end();
    }
  });

  it('a SQLite file another connection holds locked is unavailable; a bad statement is not', async () => {
    const file = join(dir, 'locked.sqlite');
    const store = await SqliteStore.open(file, { busyTimeoutMs: 0 });
    const holder = new Database(file);
    holder.exec('BEGIN IMMEDIATE');
    try {
      const busy = await errorOf(() => store.setState('k', 1, Date.UTC(2026, 10, 22)));
      expect(isStoreUnavailable(busy)).toBe(true);
      const bug = await errorOf(async () => holder.prepare('SELECT nope FROM nowhere').all());
      expect(isStoreUnavailable(bug)).toBe(false);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
      await store.close();
    }
    expect(isStoreUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(isStoreUnavailable('ECONNREFUSED')).toBe(false);
  });
});

describe('retrying a write while the store is unavailable', () => {
  it('waits out a lock and writes once it is released', async () => {
    const file = join(dir, 'retry.sqlite');
    const store = await SqliteStore.open(file, { busyTimeoutMs: 0 });
    const holder = new Database(file);
    holder.exec('BEGIN IMMEDIATE');
    const retried: number[] = [];
    const release = setTimeout(() => holder.exec('COMMIT'), 300);
    try {
      await retryWhileUnavailable(() => store.setState('k', 'written', Date.UTC(2026, 10, 22)), {
        onRetry: (attempt) => retried.push(attempt),
      });
      expect(retried.length).toBeGreaterThan(0);
      expect(await store.getState('k')).toBe('written');
    } finally {
      clearTimeout(release);
      holder.close();
      await store.close();
    }
  });

  it('gives up at its deadline with the store error, and never retries a bug', async () => {
    const file = join(dir, 'deadline.sqlite');
    const store = await SqliteStore.open(file, { busyTimeoutMs: 0 });
    const holder = new Database(file);
    holder.exec('BEGIN IMMEDIATE');
    try {
      const e = await errorOf(() =>
        retryWhileUnavailable(() => store.setState('k', 1, 0), { deadlineMs: 250, firstDelayMs: 20 }),
      );
      expect((e as { code?: string }).code).toBe('SQLITE_BUSY');
      let attempts = 0;
      const bug = await errorOf(() =>
        retryWhileUnavailable(async () => {
          attempts++;
          throw new RangeError('a bug');
        }),
      );
      expect(bug).toBeInstanceOf(RangeError);
      expect(attempts).toBe(1);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
      await store.close();
    }
  });

  it('an audit entry whose first insert committed unheard is not appended twice', async () => {
    const store = await SqliteStore.open(join(dir, 'audit.sqlite'));
    const entry = {
      at: Date.UTC(2026, 10, 22, 10),
      userId: 'U0ALICE',
      channelId: 'C0OPS',
      operation: 'flow.ANOMALYLEARN',
      outcome: 'ok' as const,
      flowId: '1400000000000000001',
    };
    let calls = 0;
    // The first attempt commits, then its connection "breaks" before the answer (a real pg error class).
    const flaky = {
      listAudit: store.listAudit.bind(store),
      completeAudit: store.completeAudit.bind(store),
      appendAudit: async (e: typeof entry) => {
        const row = await store.appendAudit(e);
        if (++calls === 1) throw Object.assign(new Error('Connection terminated unexpectedly'), {});
        return row;
      },
    };
    try {
      await new AuditLog(flaky).writeSurely(entry, { firstDelayMs: 5 });
      const rows = await store.listAudit({ channelId: 'C0OPS' });
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ flowId: entry.flowId, outcome: 'ok' });
    } finally {
      await store.close();
    }
  });
});
