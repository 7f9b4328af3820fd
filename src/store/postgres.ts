import pg from 'pg';
import { noteStoreError } from './availability.js';
import { paramBytes, WriteHealthSignal, writesData } from './health.js';
import { MIGRATIONS } from './migrations.js';
import { PoolCheckout } from './pg-checkout.js';
import type { Dialect, Query, Row, RowsInsert, SqlEngine, Step, Steps } from './sql.js';
import { SqlStore } from './sql-store.js';

/** Arbitrary constant key for pg_advisory_lock: serialises migrations across replicas starting at once. */
const MIGRATION_LOCK_KEY = 7_305_113_402;

/** Rows per INSERT, well below PostgreSQL's 65,535 parameters per statement. */
const INSERT_CHUNK = 1000;

export interface PostgresStoreOptions {
  /** Schema to use (created when missing); default: the connection's search_path. Tests use one per run. */
  schema?: string;
  /** Pool size; default 10. */
  max?: number;
  /** How long a new connection may take before the query that wanted it fails; default 5 s. */
  connectTimeoutMs?: number;
}

export const POSTGRES_DIALECT: Dialect = {
  least: 'LEAST',
  greatest: 'GREATEST',
  position: 'strpos',
  skipLocked: ' FOR UPDATE SKIP LOCKED',
  forUpdate: ' FOR UPDATE',
  textList: (values) => ({ sql: '(SELECT unnest(?::text[]))', param: [...values] }),
};

/** `?` placeholders as PostgreSQL numbers them (`$1`, `$2`, …); quoted literals are left alone. */
export function numberPlaceholders(text: string): string {
  let n = 0;
  return text.replace(/'(?:[^']|'')*'|\?/g, (m) => (m === '?' ? `$${++n}` : m));
}

/** The pool (one client per statement), or one client of it inside a transaction. */
type Queryable = { query(text: string, params: unknown[]): Promise<pg.QueryResult> };

/** One query's run: whether it has written, or meant to, so that its end is reported as a write's. */
type Run = { writing: boolean; bytes: number };

class PostgresEngine implements SqlEngine {
  readonly kind = 'postgres' as const;

  /** Numbered statement texts by their `?` form. */
  private readonly numbered = new Map<string, string>();

  readonly health = new WriteHealthSignal();

  constructor(
    private readonly pool: pg.Pool,
    private readonly checkout: PoolCheckout,
  ) {}

  async exec<T>(query: Query<T>): Promise<T> {
    const run = { writing: query.mode === 'transaction', bytes: 0 };
    try {
      const result = await this.run(query, run);
      if (run.writing) this.health.wrote(run.bytes);
      return result;
    } catch (err) {
      if (run.writing) this.health.failed(err, run.bytes);
      noteStoreError(err);
      throw err;
    }
  }

  private async run<T>(query: Query<T>, run: Run): Promise<T> {
    if (query.mode !== 'transaction') return this.drive(this.checkout, query.body(POSTGRES_DIALECT), run);
    return this.checkout.with(async (client) => {
      await client.query('BEGIN');
      try {
        const result = await this.drive(client, query.body(POSTGRES_DIALECT), run);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      }
    });
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  private async drive<T>(db: Queryable, steps: Steps<T>, run: Run): Promise<T> {
    let next = steps.next();
    while (!next.done) next = steps.next(await this.step(db, next.value, run));
    return next.value;
  }

  private async step(db: Queryable, s: Step, run: Run): Promise<unknown> {
    if (s.kind === 'insert') {
      run.writing = true;
      for (const row of s.insert.rows) run.bytes += paramBytes(row);
      return this.insert(db, s.insert);
    }
    if (writesData(s.text)) {
      run.writing = true;
      run.bytes += paramBytes(s.params);
    }
    const res = await db.query(this.number(s.text), s.params as unknown[]);
    if (s.kind === 'all') return res.rows as Row[];
    if (s.kind === 'one') return (res.rows[0] as Row | undefined) ?? null;
    return res.rowCount ?? 0;
  }

  /** One statement per chunk of rows, in their order. */
  private async insert(db: Queryable, { into, tuple, onConflict, rows }: RowsInsert): Promise<void> {
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      const chunk = rows.slice(i, i + INSERT_CHUNK);
      const text = `${into} VALUES ${chunk.map(() => tuple).join(', ')} ${onConflict}`;
      await db.query(numberPlaceholders(text), chunk.flat());
    }
  }

  private number(text: string): string {
    let numbered = this.numbered.get(text);
    if (numbered === undefined) {
      numbered = numberPlaceholders(text);
      if (this.numbered.size < 500) this.numbered.set(text, numbered);
    }
    return numbered;
  }
}

/** The PostgreSQL store: a pool, shared by every replica's queries through row locks. */
export class PostgresStore extends SqlStore {
  static async open(connectionString: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const schema = options.schema;
    if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
      throw new Error(`invalid schema name "${schema}": use lower-case letters, digits and _`);
    }
    const pool = new pg.Pool({
      connectionString,
      max: options.max ?? 10,
      // A server that accepts no connection (stopped, or a network that drops packets) fails a query
      // after this instead of holding it forever; the pool reconnects on the next one.
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    pool.on('error', () => {});
    const checkout = new PoolCheckout(pool);
    try {
      await checkout.with((client) => migrate(client, schema));
    } catch (err) {
      await pool.end();
      throw err;
    }
    const engine = new PostgresEngine(pool, checkout);
    return new PostgresStore(engine, engine.health);
  }
}

/**
 * Applies pending migrations while holding a session advisory lock, so replicas starting at the same
 * time apply each migration exactly once (the second waits, then finds nothing left to do); those up to
 * `through` only, when given (a store being moved is brought to its source's version).
 */
export async function migrate(
  client: pg.ClientBase,
  schema: string | undefined,
  through = Number.POSITIVE_INFINITY,
): Promise<void> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
  try {
    if (schema) await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`);
    const applied = new Set(
      (await client.query('SELECT version FROM schema_migrations')).rows.map((r) => Number(r.version)),
    );
    for (const m of MIGRATIONS) {
      if (applied.has(m.version) || m.version > through) continue;
      await client.query('BEGIN');
      try {
        await client.query(m.postgres);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
          m.version,
          m.name,
          Date.now(),
        ]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
  }
}
