import type { PostgresStoreOptions } from './postgres.js';
import { SqliteStore } from './sqlite.js';
import type { Store } from './types.js';

export {
  isStoreUnavailable,
  retryWhileUnavailable,
  WRITE_RETRY_DEADLINE_MS,
  type WriteRetryOptions,
} from './availability.js';
export { CATALOG_LIMIT_MAX, catalogKey } from './catalog.js';
export {
  describeStoreFault,
  isStoreFault,
  isStoreWriteRefused,
  type WriteHealth,
} from './health.js';
export { MIGRATIONS } from './migrations.js';
// PostgresStore is imported from './postgres.js' directly: re-exporting it here would load `pg` on every
// start, also when DATABASE_URL selects SQLite.
export type { PostgresStoreOptions } from './postgres.js';
export * from './schedules.js';
export { SqliteStore } from './sqlite.js';
export * from './types.js';

export const DEFAULT_SQLITE_FILE = './data/tsai-chatops.sqlite';

export type StoreTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/**
 * What `DATABASE_URL` selects: empty -> the default SQLite file; `postgres://` / `postgresql://` ->
 * PostgreSQL; `sqlite:<path>` (also `sqlite://<path>`, `sqlite:///<abs path>`) or a plain path -> SQLite.
 */
export function resolveStoreTarget(databaseUrl?: string): StoreTarget {
  const v = databaseUrl?.trim() ?? '';
  if (v === '') return { kind: 'sqlite', file: DEFAULT_SQLITE_FILE };
  if (/^postgres(ql)?:\/\//i.test(v)) return { kind: 'postgres', url: v };
  if (/^sqlite:/i.test(v)) {
    const rest = v.slice('sqlite:'.length).replace(/^\/\//, '');
    if (rest === '')
      throw new Error('DATABASE_URL "sqlite:" names no file; example: sqlite:./data/bot.sqlite');
    return { kind: 'sqlite', file: rest };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(v)) {
    throw new Error(
      'DATABASE_URL must be a file path, a sqlite: URL or a postgres:// URL; ' +
        'examples: ./data/tsai-chatops.sqlite, postgres://bot@127.0.0.1:5432/tsai',
    );
  }
  return { kind: 'sqlite', file: v };
}

/** Opens the store `DATABASE_URL` selects and applies pending migrations. */
export async function openStore(databaseUrl?: string, options: PostgresStoreOptions = {}): Promise<Store> {
  const target = resolveStoreTarget(databaseUrl);
  if (target.kind === 'sqlite') return SqliteStore.open(target.file);
  const { PostgresStore } = await import('./postgres.js');
  return PostgresStore.open(target.url, options);
}
