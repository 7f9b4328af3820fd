/**
 * One end of a move, SQLite or PostgreSQL, seen the same way: its schema as the database itself describes
 * it (never a list kept by hand, so a table or column a migration adds is carried without a change here),
 * its rows as cells, and the writes a move makes.
 */

/** What a column holds, read from its declared type; how a cell is carried between the engines. */
export type ColumnClass = 'integer' | 'real' | 'boolean' | 'text' | 'json' | 'bytes';

export interface Column {
  name: string;
  class: ColumnClass;
  /** The type as the engine declares it (PostgreSQL's values are cast to it on the way in). */
  sqlType: string;
}

export interface Table {
  name: string;
  columns: readonly Column[];
  /** The column whose values the engine hands out (BIGSERIAL, AUTOINCREMENT), if any. */
  serial: string | null;
}

/**
 * One value as read: integers as bigint (exact to 64 bits), reals as number, PostgreSQL's booleans,
 * text, bytes. Encrypted values are text or bytes and are carried as they are, never opened.
 */
export type Cell = null | bigint | number | boolean | string | Buffer;

export interface Side {
  readonly kind: 'sqlite' | 'postgres';
  /** The schema versions applied, ascending; empty when the bot never set this store up. */
  versions(): Promise<number[]>;
  /** Applies the bot's migrations up to `through`, as the bot would at start. */
  migrate(through: number): Promise<void>;
  /** Every table of the bot's schema (the migrations' own bookkeeping left out), by name. */
  tables(): Promise<Table[]>;
  count(table: Table): Promise<number>;
  /** The table's rows in batches, each row's cells in the order of `table.columns`. */
  rows(table: Table): AsyncIterable<Cell[][]>;
  /** The highest value the table's serial column ever handed out, when the engine keeps it. */
  serialMark(table: Table): Promise<bigint | null>;
  /** `read`: one snapshot for everything read after it; `write`: one transaction for everything. */
  begin(mode: 'read' | 'write'): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  clear(table: Table): Promise<void>;
  insert(table: Table, rows: readonly Cell[][]): Promise<void>;
  /** New values of the serial column come after `mark` and after every value the table holds. */
  advanceSerial(table: Table, mark: bigint | null): Promise<void>;
  close(): Promise<void>;
}

/** `table` with its columns in `order` (the source's), so both sides' cells line up. */
export function aligned(table: Table, order: readonly string[]): Table {
  const byName = new Map(table.columns.map((c) => [c.name, c]));
  return { ...table, columns: order.map((name) => byName.get(name)!) };
}

/** An identifier quoted for either engine. */
export const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The table the migrations keep their versions in: checked on both sides, never copied. */
export const VERSIONS_TABLE = 'schema_migrations';
