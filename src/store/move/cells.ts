import type { Cell, ColumnClass } from './side.js';

/*
 * Cells between the engines. PostgreSQL's side reads and writes every value as its text form (`col::text`
 * out, `$1::<type>` in), which its own parser takes back exactly for every type; SQLite's side hands
 * better-sqlite3 the value itself (64-bit integers as bigint). The cell in between is the same value on
 * both, so a move SQLite -> PostgreSQL -> SQLite gives back every cell as it was.
 */

/** A PostgreSQL value read as text, as the cell its column holds. */
export function fromPgText(text: string | null, cls: ColumnClass): Cell {
  if (text === null) return null;
  if (cls === 'integer') return BigInt(text);
  if (cls === 'real') return Number(text);
  if (cls === 'boolean') return text === 'true';
  if (cls === 'bytes') return Buffer.from(text.slice(2), 'hex'); // bytea_output = hex: \x0a1b…
  return text;
}

/** A cell as PostgreSQL's text input of its column's type takes it. */
export function toPgText(cell: Cell): string | null {
  if (cell === null) return null;
  if (Buffer.isBuffer(cell)) return `\\x${cell.toString('hex')}`;
  return String(cell);
}

/** A cell as better-sqlite3 binds it: SQLite has no booleans (0 and 1, as its BOOLEAN columns hold). */
export function toSqlite(cell: Cell): Exclude<Cell, boolean> {
  return typeof cell === 'boolean' ? (cell ? 1n : 0n) : cell;
}

/**
 * A cell as the checksum sees it: the same value gives the same text on either engine (a boolean and the
 * integer SQLite keeps it as, an integral real and an integer). A JSON column's text is compared as the
 * value it encodes, since PostgreSQL's jsonb keeps its own spacing and key order.
 */
export function fingerprint(cell: Cell, json: boolean): string {
  if (cell === null) return 'n';
  if (typeof cell === 'bigint') return `i${cell}`;
  if (typeof cell === 'boolean') return cell ? 'i1' : 'i0';
  if (typeof cell === 'number') return Number.isInteger(cell) ? `i${BigInt(cell)}` : `r${cell}`;
  if (Buffer.isBuffer(cell)) return `b${cell.toString('hex')}`;
  return `t${json ? jsonValueText(cell) : cell}`;
}

function jsonValueText(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), (_k, v: unknown) =>
      v && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : v,
    );
  } catch {
    return text;
  }
}

/** What a column holds, from SQLite's declared type (its affinity rules, with booleans and JSON named). */
export function sqliteClass(declared: string): ColumnClass {
  const t = declared.toUpperCase();
  if (t.includes('BOOL')) return 'boolean';
  if (t.includes('JSON')) return 'json';
  if (t.includes('INT')) return 'integer';
  if (/CHAR|CLOB|TEXT/.test(t)) return 'text';
  if (t === '' || t.includes('BLOB')) return 'bytes';
  if (/REAL|FLOA|DOUB/.test(t)) return 'real';
  return 'text';
}

/** What a column holds, from PostgreSQL's `format_type`; any other type travels as its text form. */
export function pgClass(type: string): ColumnClass {
  if (/^(bigint|integer|smallint)$/.test(type)) return 'integer';
  if (/^(real|double precision)$/.test(type)) return 'real';
  if (type === 'boolean') return 'boolean';
  if (type === 'bytea') return 'bytes';
  if (type === 'json' || type === 'jsonb') return 'json';
  return 'text';
}
