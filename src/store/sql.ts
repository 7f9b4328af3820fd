/**
 * The engine-neutral side of the store: every query is written once, as a generator that yields the
 * statements it needs and gets their results back. An engine drives it: SQLite synchronously (so a
 * transaction is one synchronous step that nothing else in the process can interleave with), PostgreSQL
 * with one await per statement.
 *
 * Statements use `?` placeholders, one value per `?`, in order; PostgreSQL's engine numbers them.
 */

export type Row = Record<string, unknown>;

/** Rows given as parameters, inserted by one statement: `${into} VALUES ${tuple} ${onConflict}` per row. */
export interface RowsInsert {
  /** `INSERT INTO table (columns)`. */
  into: string;
  /** One row's values, e.g. `(?, ?, ?)`. */
  tuple: string;
  /** What follows the values (an `ON CONFLICT` clause), or ''. */
  onConflict: string;
  rows: readonly (readonly unknown[])[];
}

export type Step =
  | { kind: 'all' | 'one' | 'run'; text: string; params: readonly unknown[] }
  | { kind: 'insert'; insert: RowsInsert };

export type Steps<T> = Generator<Step, T, unknown>;

/**
 * How a query's statements run together:
 * - `statements`: each on its own (one statement, or reads that need no common snapshot).
 * - `one-writer`: no other writer in between on SQLite (an IMMEDIATE transaction); on PostgreSQL each
 *   statement on its own, as each is a compare-and-set its row locks make safe.
 * - `transaction`: one transaction on both.
 */
export type Mode = 'statements' | 'one-writer' | 'transaction';

/** What really differs between the engines' SQL. */
export interface Dialect {
  least: string;
  greatest: string;
  /** Position of a substring, 0 when absent: `instr(haystack, needle)` or `strpos(haystack, needle)`. */
  position: string;
  /** Ends a row-claiming subquery: PostgreSQL locks the rows, passing over rows others hold. */
  skipLocked: string;
  /** Ends a read whose rows the transaction goes on to write. */
  forUpdate: string;
  /** A list of texts as one parameter, to be used as `column IN ${sql}`. */
  textList(values: readonly string[]): { sql: string; param: unknown };
}

export interface Query<T> {
  readonly mode: Mode;
  readonly body: (d: Dialect) => Steps<T>;
}

export const statements = <T>(body: (d: Dialect) => Steps<T>): Query<T> => ({ mode: 'statements', body });
export const oneWriter = <T>(body: (d: Dialect) => Steps<T>): Query<T> => ({ mode: 'one-writer', body });
export const transaction = <T>(body: (d: Dialect) => Steps<T>): Query<T> => ({ mode: 'transaction', body });

/** Runs queries; the only part of the store that knows its engine. */
export interface SqlEngine {
  readonly kind: 'sqlite' | 'postgres';
  exec<T>(query: Query<T>): Promise<T>;
  close(): Promise<void>;
}

export function* all(text: string, params: readonly unknown[] = []): Steps<Row[]> {
  return (yield { kind: 'all', text, params }) as Row[];
}

export function* one(text: string, params: readonly unknown[] = []): Steps<Row | null> {
  return (yield { kind: 'one', text, params }) as Row | null;
}

/** Runs a statement that returns no rows; its result is how many rows it changed. */
export function* run(text: string, params: readonly unknown[] = []): Steps<number> {
  return (yield { kind: 'run', text, params }) as number;
}

export function* insertRows(insert: RowsInsert): Steps<void> {
  if (insert.rows.length > 0) yield { kind: 'insert', insert };
}

/** ` WHERE a AND b`, or '' when there is no condition. */
export const whereAll = (conditions: readonly string[]): string =>
  conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '';

/** The conditions whose value is given, and their parameters in order (a query's optional filters). */
export function givenConditions(pairs: readonly (readonly [string, unknown])[]): {
  where: string[];
  params: unknown[];
} {
  const given = pairs.filter(([, v]) => v !== undefined);
  return { where: given.map(([c]) => c), params: given.map(([, v]) => v) };
}

/** The row of `table` whose `column` is `value`, as `to` reads it; null when there is none. */
export function* rowWhere<T>(
  table: string,
  column: string,
  value: unknown,
  to: (r: Row) => T,
): Steps<T | null> {
  const row = yield* one(`SELECT * FROM ${table} WHERE ${column} = ?`, [value]);
  return row ? to(row) : null;
}

/** Adds `column IN (?, …)` for these values to a query's conditions (`givenConditions`). */
export function whereIn(
  c: { where: string[]; params: unknown[] },
  column: string,
  values: readonly unknown[],
) {
  c.where.push(`${column} IN (${values.map(() => '?').join(', ')})`);
  c.params.push(...values);
}

/** The rows of a table that meet a query's conditions, in this order, at most `limit` (a page of a list). */
export function* listedRows(
  table: string,
  c: { where: readonly string[]; params: readonly unknown[] },
  order: string,
  limit: number,
): Steps<Row[]> {
  return yield* all(`SELECT * FROM ${table}${whereAll(c.where)} ORDER BY ${order} LIMIT ?`, [
    ...c.params,
    limit,
  ]);
}

/** The most rows one retention statement deletes, so that no delete holds the database for long. */
export const PRUNE_BATCH_MAX = 10_000;

/**
 * Deletes up to `limit` rows of `table` that match `condition`, in `order`: one bounded statement.
 * Replicas pruning at once on PostgreSQL pass over each other's rows.
 */
export const pruneBatch = (o: {
  table: string;
  /** The key's column, or columns. */
  key: string | readonly string[];
  condition: string;
  order: string;
  params: readonly unknown[];
  limit: number;
}) => {
  const columns = typeof o.key === 'string' ? [o.key] : o.key;
  const key = columns.length === 1 ? columns[0] : `(${columns.join(', ')})`;
  return statements((d) =>
    run(
      `DELETE FROM ${o.table} WHERE ${key} IN (SELECT ${columns.join(', ')} FROM ${o.table}
         WHERE ${o.condition} ORDER BY ${o.order} LIMIT ?${d.skipLocked})`,
      [...o.params, Math.max(1, Math.min(PRUNE_BATCH_MAX, Math.floor(o.limit) || 1))],
    ),
  );
};
