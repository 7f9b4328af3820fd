import Database from 'better-sqlite3';
import pg from 'pg';

/*
 * What a store holds, read straight from its database and not through the store or the move: the tests of
 * `npm run store:move` compare these, so they find whatever the move itself would not see.
 */

/** Every table of a SQLite file but the migrations' bookkeeping, by name. */
export function sqliteTables(db: Database.Database): string[] {
  return (
    db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' AND name <> 'schema_migrations' ORDER BY name",
      )
      .pluck()
      .all() as string[]
  ).sort();
}

/** A cell as text that tells every value and storage class apart (1 from '1' from 1.0 from x'01'). */
const shown = (v: unknown): string =>
  v === null
    ? 'null'
    : typeof v === 'bigint'
      ? `int:${v}`
      : typeof v === 'number'
        ? `real:${v}`
        : Buffer.isBuffer(v)
          ? `blob:${v.toString('hex')}`
          : `text:${JSON.stringify(v)}`;

/** Every row of every table of a SQLite file, each row as its cells' text, the rows sorted. */
export function sqliteDump(file: string): Record<string, string[]> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const out: Record<string, string[]> = {};
    for (const table of sqliteTables(db)) {
      const rows = db.prepare(`SELECT * FROM "${table}"`).raw(true).safeIntegers(true).all() as unknown[][];
      out[table] = rows.map((r) => r.map(shown).join(' | ')).sort();
    }
    return out;
  } finally {
    db.close();
  }
}

/** Runs `body` with a client on the PostgreSQL database at `url`. */
export async function onPg<T>(url: string, body: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await body(client);
  } finally {
    await client.end();
  }
}

/** `table.column` -> its PostgreSQL type (`bigint`, `integer`, `text`, …), for the tables of `public`. */
export async function pgColumnTypes(url: string): Promise<Map<string, string>> {
  return onPg(url, async (c) => {
    const { rows } = await c.query<{ t: string; c: string; type: string }>(
      `SELECT table_name AS t, column_name AS c, data_type AS type FROM information_schema.columns
        WHERE table_schema = 'public'`,
    );
    return new Map(rows.map((r) => [`${r.t}.${r.c}`, r.type]));
  });
}

/** How many rows each table of the PostgreSQL database holds. */
export async function pgCounts(url: string): Promise<Record<string, number>> {
  return onPg(url, async (c) => {
    const tables = await c.query<{ t: string }>(
      `SELECT table_name AS t FROM information_schema.tables
        WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'schema_migrations'`,
    );
    const out: Record<string, number> = {};
    for (const { t } of tables.rows)
      out[t] = Number((await c.query(`SELECT count(*)::int AS n FROM "${t}"`)).rows[0].n);
    return out;
  });
}

const INT64_MAX = 2n ** 63n - 1n;
const TEXTS = [
  'it\'s "quoted", back\\slash, 50% _under_',
  'naïve ☃ 🚀 Zürich\nsecond line\ttab',
  '',
  '{"a":1,"b":[true,null]}',
];

/**
 * A value for every column of every table of a migrated SQLite store, from what each column is in the
 * PostgreSQL schema of the same version (SQLite says INTEGER for PostgreSQL's integer and bigint alike):
 * the extremes of each type, text with quotes, accents, emoji and line breaks, and NULL where allowed.
 * Derived from the schema, so a table or column a migration adds is filled without a change here.
 */
export function seedEveryTable(file: string, pgTypes: Map<string, string>, rowsPerTable = 3): string[] {
  const db = new Database(file);
  try {
    const tables = sqliteTables(db);
    for (const table of tables) {
      const columns = db.pragma(`table_info("${table}")`) as { name: string; notnull: number; pk: number }[];
      const insert = db.prepare(
        `INSERT INTO "${table}" (${columns.map((c) => `"${c.name}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      );
      for (let i = 0; i < rowsPerTable; i++) {
        insert.run(
          ...columns.map((c) => {
            if (i === 1 && !c.notnull && !c.pk) return null;
            const type = pgTypes.get(`${table}.${c.name}`);
            if (type === undefined) throw new Error(`${table}.${c.name} is not in the PostgreSQL schema`);
            if (type === 'bigint')
              return [INT64_MAX - BigInt(i), -INT64_MAX + BigInt(i), 1_795_000_000_000n][i % 3]!;
            if (type === 'integer')
              return [2_147_483_647, -2_147_483_648, 0][i % 3]! + (i % 3 === 0 ? -i : i);
            if (type === 'boolean') return i % 2;
            if (type === 'bytea') return Buffer.from([0, 255, i, 10]);
            if (type === 'double precision' || type === 'real') return i + 0.25;
            if (type === 'json' || type === 'jsonb')
              return JSON.stringify({ n: i, s: TEXTS[i % TEXTS.length] });
            return `${TEXTS[i % TEXTS.length]}#${i}`;
          }),
        );
      }
    }
    return tables;
  } finally {
    db.close();
  }
}
