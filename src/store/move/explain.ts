import type { Location } from './location.js';
import { MoveRefused } from './refusal.js';
import type { Side } from './side.js';

/** What a store said, in words that name the store as the person named it, and what to do about it. */
const KNOWN: Record<string, (said: string) => [string, string]> = {
  ECONNREFUSED: (s) => [
    `Nothing answers at ${s}: the connection was refused.`,
    'Check the host and port, and that PostgreSQL runs and takes connections from this machine.',
  ],
  ENOTFOUND: (s) => [`The host of ${s} is not known here.`, 'Check the host name in the URL.'],
  ETIMEDOUT: (s) => [
    `${s} did not answer in time.`,
    'Check the address, and the network between here and there.',
  ],
  '28P01': (s) => [
    `PostgreSQL refused the login to ${s}.`,
    'Check the user and password (in the URL, or in PGPASSWORD).',
  ],
  '28000': (s) => [
    `PostgreSQL refused the login to ${s}.`,
    'Check the user, and that pg_hba.conf lets it in from this machine.',
  ],
  '3D000': (s) => [
    `There is no ${s.replace(/^the /, '')}.`,
    'Create it first (createdb, or CREATE DATABASE) for a user that may create tables in it.',
  ],
  '42501': (s) => [
    `The user may not create tables or write in ${s}.`,
    'Make it the owner of the database, or grant it CREATE and the right to write in its schema.',
  ],
  SQLITE_NOTADB: (s) => [`${s} is not a SQLite database.`, 'Check the path.'],
  SQLITE_CANTOPEN: (s) => [
    `${s} cannot be opened.`,
    'Check the path, and that this user may read and write there.',
  ],
  SQLITE_BUSY: (s) => [
    `${s} is locked by another process.`,
    'Stop every bot that uses it (a move runs with the bot stopped), then move again.',
  ],
  SQLITE_READONLY: (s) => [
    `${s} cannot be written.`,
    'Check that this user may write to the file and its folder.',
  ],
  SQLITE_FULL: (s) => [`The disk of ${s} is full.`, 'Free some space, then move again.'],
};

/** The error as a refusal when it is one a person can act on; otherwise it, with where it happened. */
export function explain(err: unknown, where: Location): unknown {
  if (err instanceof MoveRefused) return err;
  const code = String((err as { code?: unknown } | null)?.code ?? '');
  const said = KNOWN[code.replace(/^(SQLITE_[A-Z]+)_.*$/, '$1')] ?? timedOut(err);
  if (said) return new MoveRefused(...said(where.said));
  if (err instanceof Error) Object.assign(err, { where: where.said });
  return err;
}

function timedOut(err: unknown): ((said: string) => [string, string]) | undefined {
  return err instanceof Error && /timeout/i.test(err.message) ? KNOWN.ETIMEDOUT : undefined;
}

/** `side` with each failure explained as having happened there. */
export function blamed(side: Side, where: Location): Side {
  return new Proxy(side, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== 'function') return value;
      if (key === 'rows')
        return async function* (...args: Parameters<Side['rows']>) {
          try {
            yield* target.rows(...args);
          } catch (err) {
            throw explain(err, where);
          }
        };
      return async (...args: unknown[]) => {
        try {
          return await (value as (...a: unknown[]) => unknown).apply(target, args);
        } catch (err) {
          throw explain(err, where);
        }
      };
    },
  });
}

/** An unexpected failure, one line, with no secret of either store in it. */
export function failureInWords(err: unknown, secrets: readonly string[]): string {
  const where = (err as { where?: unknown } | null)?.where;
  let said = err instanceof Error ? err.message.split('\n')[0]!.slice(0, 300) : String(err);
  for (const secret of secrets) if (secret) said = said.split(secret).join('***');
  return `The move stopped${typeof where === 'string' ? ` at ${where}` : ''}: ${said}`;
}
