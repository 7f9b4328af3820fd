import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from '../sqlite.js';
import { sqliteClass, toSqlite } from './cells.js';
import { MoveRefused } from './refusal.js';
import { type Cell, quoted, type Side, type Table, VERSIONS_TABLE } from './side.js';

const BATCH = 500;

/**
 * A SQLite file as one end of a move. A source is opened read-only and must exist (a mistyped path must
 * not become an empty store); a target is created as the bot would create it.
 */
export function openSqliteSide(file: string, role: 'source' | 'target'): Side {
  if (role === 'source' && !existsSync(file))
    throw new MoveRefused(
      `There is no SQLite file at ${file}.`,
      'Give --from the path the bot’s DATABASE_URL names (by default ./data/tsai-chatops.sqlite).',
    );
  if (role === 'target') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file, { readonly: role === 'source', fileMustExist: role === 'source' });
  db.pragma('busy_timeout = 5000');
  return new SqliteSide(db);
}

class SqliteSide implements Side {
  readonly kind = 'sqlite' as const;

  constructor(private readonly db: Database.Database) {}

  private has(table: string): boolean {
    return !!this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
  }

  async versions(): Promise<number[]> {
    if (!this.has(VERSIONS_TABLE)) return [];
    const rows = this.db.prepare(`SELECT version FROM ${VERSIONS_TABLE} ORDER BY version`).all();
    return rows.map((r) => Number((r as { version: unknown }).version));
  }

  async migrate(through: number): Promise<void> {
    this.db.pragma('journal_mode = WAL');
    migrate(this.db, through);
  }

  async tables(): Promise<Table[]> {
    const listed = this.db
      .prepare(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' " +
          'AND name <> ? ORDER BY name',
      )
      .all(VERSIONS_TABLE) as { name: string; sql: string }[];
    return listed.map(({ name, sql }) => {
      const info = this.db.pragma(`table_info(${quoted(name)})`) as {
        name: string;
        type: string;
        pk: number;
      }[];
      const key = info.filter((c) => c.pk > 0);
      const autoincrement = key.length === 1 && /\bAUTOINCREMENT\b/i.test(sql);
      return {
        name,
        columns: info.map((c) => ({ name: c.name, class: sqliteClass(c.type), sqlType: c.type })),
        serial: autoincrement ? key[0]!.name : null,
      };
    });
  }

  async count(table: Table): Promise<number> {
    return Number(
      this.db
        .prepare(`SELECT count(*) FROM ${quoted(table.name)}`)
        .pluck()
        .get(),
    );
  }

  async *rows(table: Table): AsyncIterable<Cell[][]> {
    const columns = table.columns.map((c) => quoted(c.name)).join(', ');
    const read = this.db
      .prepare(`SELECT ${columns} FROM ${quoted(table.name)}`)
      .raw(true)
      .safeIntegers(true);
    let batch: Cell[][] = [];
    for (const row of read.iterate() as Iterable<Cell[]>) {
      batch.push(row);
      if (batch.length === BATCH) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  }

  async serialMark(table: Table): Promise<bigint | null> {
    if (!table.serial || !this.has('sqlite_sequence')) return null;
    const seq = this.db.prepare('SELECT seq FROM sqlite_sequence WHERE name = ?').pluck().safeIntegers(true);
    return (seq.get(table.name) as bigint | undefined) ?? null;
  }

  async begin(mode: 'read' | 'write'): Promise<void> {
    this.db.exec(mode === 'read' ? 'BEGIN' : 'BEGIN IMMEDIATE');
  }
  async commit(): Promise<void> {
    this.db.exec('COMMIT');
  }
  async rollback(): Promise<void> {
    if (this.db.inTransaction) this.db.exec('ROLLBACK');
  }

  async clear(table: Table): Promise<void> {
    this.db.prepare(`DELETE FROM ${quoted(table.name)}`).run();
  }

  async insert(table: Table, rows: readonly Cell[][]): Promise<void> {
    const names = table.columns.map((c) => quoted(c.name));
    const insert = this.db.prepare(
      `INSERT INTO ${quoted(table.name)} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
    );
    for (const row of rows) insert.run(...row.map(toSqlite));
  }

  /** SQLite raised the table's mark to its highest inserted value already; a higher source mark is kept. */
  async advanceSerial(table: Table, mark: bigint | null): Promise<void> {
    if (!table.serial || mark === null) return;
    const raised = this.db
      .prepare('UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = ?')
      .run(mark, table.name).changes;
    if (raised === 0)
      this.db.prepare('INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)').run(table.name, mark);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
