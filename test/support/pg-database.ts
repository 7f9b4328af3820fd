import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { TEST_DATABASE_URL } from './pg.js';

/**
 * A fresh database on the test server, as a separate deployment would have: its URL, and a drop that
 * runs once every pool on it is closed.
 */
export async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `tsai_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
