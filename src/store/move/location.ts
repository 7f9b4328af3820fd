import { existsSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { resolveStoreTarget } from '../index.js';
import { openPgSide } from './pg-side.js';
import { MoveRefused } from './refusal.js';
import type { Side } from './side.js';
import { openSqliteSide } from './sqlite-side.js';

/** A store named as DATABASE_URL names it, with how to say it to a person: never its password. */
export interface Location {
  kind: 'sqlite' | 'postgres';
  /** `the SQLite file /var/lib/tsai/bot.sqlite`, `the PostgreSQL database tsai on db:5432 (user tsai)`. */
  said: string;
  /** The same store named twice gives the same identity. */
  identity: string;
  /** What must never be printed: the password, and the URL's whole `user:password@`. */
  secrets: string[];
  open(role: 'source' | 'target'): Promise<Side>;
}

export function locate(value: string, flag: '--from' | '--to'): Location {
  let target: ReturnType<typeof resolveStoreTarget>;
  try {
    target = resolveStoreTarget(value);
  } catch {
    throw new MoveRefused(
      `${flag} names no store the bot can use.`,
      'Write it as DATABASE_URL is written: a SQLite file (./data/tsai-chatops.sqlite, ' +
        'sqlite:/var/lib/tsai/bot.sqlite) or a PostgreSQL URL (postgres://tsai@db.example.com:5432/tsai).',
    );
  }
  if (target.kind === 'sqlite') {
    const file = resolve(target.file);
    return {
      kind: 'sqlite',
      said: `the SQLite file ${file}`,
      identity: `sqlite:${existsSync(file) ? realpathSync(file) : file}`,
      secrets: [],
      open: async (role) => openSqliteSide(file, role),
    };
  }
  return postgresLocation(target.url, flag);
}

function postgresLocation(url: string, flag: string): Location {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new MoveRefused(
      `${flag} is not a PostgreSQL URL that can be read.`,
      'Write it as postgres://user@host:5432/database (the password in PGPASSWORD, or after user:).',
    );
  }
  const host = `${u.hostname || 'localhost'}:${u.port || '5432'}`;
  const database = decodeURIComponent(u.pathname.replace(/^\//, '')) || '(the user’s own)';
  const user = u.username ? ` (user ${decodeURIComponent(u.username)})` : '';
  const secrets = u.password
    ? [u.password, decodeURIComponent(u.password), `${u.username}:${u.password}@`]
    : [];
  return {
    kind: 'postgres',
    said: `the PostgreSQL database ${database} on ${host}${user}`,
    identity: `postgres:${host}/${database}${u.search}`,
    secrets,
    open: () => openPgSide(url),
  };
}
