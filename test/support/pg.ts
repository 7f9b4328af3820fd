import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe } from 'vitest';
import { PostgresStore } from '../../src/store/postgres.js';
import type { StoreLocation } from './store-conformance.js';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL?.trim() || undefined;

/**
 * PostgreSQL suites run against the real server at TEST_DATABASE_URL. Locally they are skipped with a
 * notice; in CI (CI=true) a missing URL fails the run instead, so CI never silently skips them.
 */
export const describePg = (() => {
  if (!TEST_DATABASE_URL) {
    if (process.env.CI === 'true') {
      throw new Error('TEST_DATABASE_URL is not set but CI=true: the PostgreSQL suite must run in CI');
    }
    console.warn('TEST_DATABASE_URL is not set: skipping the PostgreSQL store tests');
  }
  return describe.skipIf(!TEST_DATABASE_URL);
})();

/** A fresh schema on the test database, dropped afterwards; every open() is a separate pool. */
export async function pgLocation(): Promise<StoreLocation> {
  const url = TEST_DATABASE_URL!;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  return {
    open: () => PostgresStore.open(url, { schema, max: 8 }),
    async cleanup() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
