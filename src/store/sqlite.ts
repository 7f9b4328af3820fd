import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { noteStoreError } from './availability.js';
import { paramBytes, WriteHealthSignal } from './health.js';
import { MIGRATIONS } from './migrations.js';
import type { Dialect, Query, Row, SqlEngine, Step, Steps } from './sql.js';
import { SqlStore } from './sql-store.js';

export interface SqliteStoreOptions {
  /** How long a writer waits for another connection's lock before failing (ms). */
  busyTimeoutMs?: number;
}

export const SQLITE_DIALECT: Dialect = {
  least: 'min',
  greatest: 'max',
  position: 'instr',
  // One writer at a time already: queries that claim rows run in an IMMEDIATE transaction.
  skipLocked: '',
  forUpdate: '',
  textList: (values) => ({ sql: '(SELECT value FROM json_each(?))', param: JSON.stringify(values) }),
};

/**
 * better-sqlite3 is synchronous, so a query runs start to end in one step within this process; queries
 * that must not see another connection's (another process's) write in between run in an IMMEDIATE
 * transaction.
 */
class SqliteEngine implements SqlEngine {
  readonly kind = 'sqlite' as const;

  /** Prepared statements by SQL text: preparing costs more than running these small queries. */
  private readonly statements = new Map<string, Database.Statement>();
  private readonly inTransaction: Database.Transaction<(steps: Steps<unknown>) => unknown>;
  readonly health = new WriteHealthSignal();
  /** Whether the query being run has written, or meant to (synchronous: one query at a time). */
  private writing = false;
  /** The bytes the query being run has written, to weigh it against writes the store refused. */
  private bytes = 0;

  constructor(private readonly db: Database.Database) {
    this.inTransaction = db.transaction((steps: Steps<unknown>) => this.drive(steps));
  }

  exec<T>(query: Query<T>): Promise<T> {
    this.writing = query.mode !== 'statements';
    this.bytes = 0;
    try {
      const steps = query.body(SQLITE_DIALECT);
      const result =
        query.mode === 'statements' ? this.drive(steps) : (this.inTransaction.immediate(steps) as T);
      if (this.writing) this.health.wrote(this.bytes);
      return Promise.resolve(result);
    } catch (err) {
      if (this.writing) this.health.failed(err, this.bytes);
      noteStoreError(err);
      return Promise.reject(err);
    }
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  private drive<T>(steps: Steps<T>): T {
    let next = steps.next();
    while (!next.done) next = steps.next(this.step(next.value));
    return next.value;
  }

  private step(s: Step): unknown {
    if (s.kind === 'insert') {
      this.writing = true;
      const { into, tuple, onConflict, rows } = s.insert;
      const st = this.prepare(`${into} VALUES ${tuple} ${onConflict}`);
      for (const row of rows) this.bytes += paramBytes(row);
      for (const row of rows) st.run(...row);
      return undefined;
    }
    const st = this.prepare(s.text);
    if (!st.readonly) {
      this.writing = true;
      this.bytes += paramBytes(s.params);
    }
    if (s.kind === 'all') return st.all(...s.params);
    // A write's `RETURNING` row is read to the statement's end: `get` would stop at the row and leave the
    // commit to a reset whose error is lost, so a full disk would look like a write that went through.
    if (s.kind === 'one')
      return ((st.readonly ? st.get(...s.params) : st.all(...s.params)[0]) as Row | undefined) ?? null;
    return st.run(...s.params).changes;
  }

  private prepare(sql: string): Database.Statement {
    let st = this.statements.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      if (this.statements.size < 200) this.statements.set(sql, st);
    }
    return st;
  }
}

/** Each connection's page cache, in KiB. */
const CACHE_KIB = 2_000;

/** The SQLite store: one file, opened by one or more processes. */
export class SqliteStore extends SqlStore {
  static async open(file: string, options: SqliteStoreOptions = {}): Promise<SqliteStore> {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    const db = new Database(file);
    const busyTimeoutMs = Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000));
    try {
      db.pragma(`busy_timeout = ${busyTimeoutMs}`);
      if (file !== ':memory:') db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      // SQLite's own default page cache (2 MB), where better-sqlite3 builds it with 16 MB per connection:
      // each thread holds a connection, and the store's reads are a few indexed rows, whose pages the OS
      // keeps cached anyway; 16 MB each was resident memory the bot paid twice once the file had grown.
      db.pragma(`cache_size = -${CACHE_KIB}`);
      migrate(db);
    } catch (err) {
      db.close();
      throw lockedError(err, file, busyTimeoutMs);
    }
    const engine = new SqliteEngine(db);
    return new SqliteStore(engine, engine.health);
  }
}

/**
 * Opening takes the write lock (to migrate). Another process holding it longer than the busy timeout gets
 * SQLite's bare "database is locked"; this says which file, how long the bot waited, and what to do.
 */
function lockedError(err: unknown, file: string, waitedMs: number): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (code !== 'SQLITE_BUSY' && code !== 'SQLITE_LOCKED') return err;
  return Object.assign(
    new Error(
      `the SQLite database ${file} is locked by another process: waited ${waitedMs} ms for it. ` +
        'Another program holds a write transaction open on it; end that, then start again.',
      { cause: err },
    ),
    { code },
  );
}

/**
 * Applies pending migrations under the database write lock, so two processes starting at once are safe;
 * those up to `through` only, when given (a store being moved is brought to its source's version).
 */
export function migrate(db: Database.Database, through = Number.POSITIVE_INFINITY): void {
  const run = db.transaction(() => {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
    const applied = new Set(
      (db.prepare('SELECT version FROM schema_migrations').all() as Row[]).map((r) => Number(r.version)),
    );
    for (const m of MIGRATIONS) {
      if (applied.has(m.version) || m.version > through) continue;
      db.exec(m.sqlite);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        m.version,
        m.name,
        Date.now(),
      );
    }
  });
  run.immediate();
}
