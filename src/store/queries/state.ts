import { all, one, run, statements } from '../sql.js';

export const getState = <T>(key: string) =>
  statements(function* () {
    const row = yield* one('SELECT value FROM bot_state WHERE key = ?', [key]);
    return row ? (JSON.parse(String(row.value)) as T) : null;
  });

export const setState = (key: string, value: unknown, at: number) =>
  statements(function* () {
    yield* run(
      `INSERT INTO bot_state (key, value, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      [key, JSON.stringify(value), at],
    );
  });

export const appliedMigrations = () =>
  statements(function* () {
    const rows = yield* all('SELECT version FROM schema_migrations ORDER BY version');
    return rows.map((r) => Number(r.version));
  });
