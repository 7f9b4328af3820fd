import pg from 'pg';
import { migrate } from '../postgres.js';
import { fromPgText, pgClass, toPgText } from './cells.js';
import { type Cell, quoted, type Side, type Table, VERSIONS_TABLE } from './side.js';

const BATCH = 500;
/** Parameters per INSERT, well below PostgreSQL's 65,535, and bytes, so that large values make smaller ones. */
const PARAMS_PER_INSERT = 30_000;
const BYTES_PER_INSERT = 8 << 20;

/** The tables of the connection's schema, each column with its type and the sequence that feeds it. */
const SCHEMA = `
SELECT c.relname AS table_name, a.attname AS column_name, format_type(a.atttypid, a.atttypmod) AS type,
       pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname) AS sequence
  FROM pg_class c
  JOIN pg_namespace n ON n.oid = c.relnamespace
  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
 WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND c.relname <> $1
 ORDER BY c.relname, a.attnum`;

/** A PostgreSQL database as one end of a move: one connection, so one snapshot or one transaction. */
export async function openPgSide(url: string): Promise<Side> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => {}); // a dropped connection fails the query in hand, which says so
  try {
    await client.connect();
    // Text forms that read back exactly, whatever the server's defaults.
    await client.query(
      "SET bytea_output = 'hex'; SET extra_float_digits = 3; SET TimeZone = 'UTC'; SET DateStyle = 'ISO'",
    );
  } catch (err) {
    await client.end().catch(() => {});
    throw err;
  }
  return new PgSide(client);
}

class PgSide implements Side {
  readonly kind = 'postgres' as const;
  private readonly sequences = new Map<string, string>();
  private cursors = 0;

  constructor(private readonly client: pg.Client) {}

  private async texts(sql: string, params: unknown[] = []): Promise<(string | null)[][]> {
    return (await this.client.query({ text: sql, values: params, rowMode: 'array' })).rows;
  }

  async versions(): Promise<number[]> {
    const [[exists]] = (await this.texts('SELECT to_regclass($1)::text', [VERSIONS_TABLE])) as [
      [string | null],
    ];
    if (exists === null) return [];
    return (await this.texts(`SELECT version FROM ${VERSIONS_TABLE} ORDER BY version`)).map((r) =>
      Number(r[0]),
    );
  }

  async migrate(through: number): Promise<void> {
    await migrate(this.client, undefined, through);
  }

  async tables(): Promise<Table[]> {
    const byName = new Map<string, Table & { columns: Table['columns'][number][] }>();
    for (const [table, column, type, sequence] of (await this.texts(SCHEMA, [
      VERSIONS_TABLE,
    ])) as string[][]) {
      const t = byName.get(table!) ?? { name: table!, columns: [], serial: null };
      byName.set(table!, t);
      t.columns.push({ name: column!, class: pgClass(type!), sqlType: type! });
      if (sequence) {
        t.serial = column!;
        this.sequences.set(table!, sequence);
      }
    }
    return [...byName.values()];
  }

  async count(table: Table): Promise<number> {
    return Number((await this.texts(`SELECT count(*) FROM ${quoted(table.name)}`))[0]![0]);
  }

  /** Through a cursor, inside the snapshot or transaction begun (PostgreSQL's cursors live in one). */
  async *rows(table: Table): AsyncIterable<Cell[][]> {
    const cursor = `move_rows_${++this.cursors}`;
    const columns = table.columns.map((c) => `${quoted(c.name)}::text`).join(', ');
    await this.client.query(
      `DECLARE ${cursor} NO SCROLL CURSOR FOR SELECT ${columns} FROM ${quoted(table.name)}`,
    );
    try {
      for (;;) {
        const batch = await this.texts(`FETCH ${BATCH} FROM ${cursor}`);
        if (batch.length === 0) return;
        yield batch.map((row) => row.map((text, i) => fromPgText(text, table.columns[i]!.class)));
      }
    } finally {
      await this.client.query(`CLOSE ${cursor}`);
    }
  }

  async serialMark(table: Table): Promise<bigint | null> {
    const sequence = this.sequences.get(table.name);
    if (!sequence) return null;
    const [[last, called]] = (await this.texts(
      `SELECT last_value::text, is_called::text FROM ${sequence}`,
    )) as [[string, string]];
    return called === 'true' ? BigInt(last) : null;
  }

  async begin(mode: 'read' | 'write'): Promise<void> {
    await this.client.query(mode === 'read' ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' : 'BEGIN');
  }
  async commit(): Promise<void> {
    await this.client.query('COMMIT');
  }
  async rollback(): Promise<void> {
    await this.client.query('ROLLBACK').catch(() => {});
  }

  async clear(table: Table): Promise<void> {
    await this.client.query(`DELETE FROM ${quoted(table.name)}`);
  }

  /** Many rows per statement, each value cast from its text form to its column's type. */
  async insert(table: Table, rows: readonly Cell[][]): Promise<void> {
    const width = table.columns.length;
    const names = table.columns.map((c) => quoted(c.name)).join(', ');
    for (const part of statements(
      rows.map((row) => row.map(toPgText)),
      width,
    )) {
      const tuples = part.map(
        (_, r) => `(${table.columns.map((c, k) => `$${r * width + k + 1}::${c.sqlType}`).join(', ')})`,
      );
      await this.client.query(
        `INSERT INTO ${quoted(table.name)} (${names}) VALUES ${tuples.join(', ')}`,
        part.flat(),
      );
    }
  }

  /** The sequence set past the source's mark and every value the table now holds. */
  async advanceSerial(table: Table, mark: bigint | null): Promise<void> {
    const sequence = this.sequences.get(table.name);
    if (!sequence || !table.serial) return;
    const [[max]] = (await this.texts(
      `SELECT max(${quoted(table.serial)})::text FROM ${quoted(table.name)}`,
    )) as [[string | null]];
    const highest = [mark ?? 0n, max === null ? 0n : BigInt(max)].reduce((a, b) => (a > b ? a : b));
    if (highest > 0n)
      await this.client.query('SELECT setval($1, $2::bigint, true)', [sequence, String(highest)]);
    else await this.client.query('SELECT setval($1, 1, false)', [sequence]);
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => {});
  }
}

/** Rows grouped into statements within the bounds of parameters and bytes (a row too large goes alone). */
function* statements(rows: readonly (string | null)[][], width: number): Generator<(string | null)[][]> {
  let part: (string | null)[][] = [];
  let bytes = 0;
  for (const row of rows) {
    const size = row.reduce((n, v) => n + (v === null ? 0 : Buffer.byteLength(v)), 0);
    if (
      part.length > 0 &&
      ((part.length + 1) * width > PARAMS_PER_INSERT || bytes + size > BYTES_PER_INSERT)
    ) {
      yield part;
      part = [];
      bytes = 0;
    }
    part.push(row);
    bytes += size;
  }
  if (part.length > 0) yield part;
}
