import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import type { SecretKeyring } from '../src/config.js';
import { resolveStoreTarget } from '../src/store/index.js';

/**
 * Where `npm start` keeps the key people's tokens are encrypted under when TSAI_SECRET_KEY is not set:
 * beside the bot's SQLite file, so connections survive a restart and go when the data goes. An in-memory
 * or PostgreSQL store gets a key for this run only.
 */
export function secretKeyFile(databaseUrl: string): string | undefined {
  const target = resolveStoreTarget(databaseUrl);
  if (target.kind !== 'sqlite' || target.file === ':memory:') return undefined;
  return join(dirname(target.file), `${basename(target.file, extname(target.file))}.secret-key`);
}

export interface SandboxKey {
  keys: SecretKeyring;
  /** The key as written (base64), for the logs to scrub. */
  text: string;
  /** The file it is kept in, or undefined when it lasts this run only. */
  file: string | undefined;
  /** A key was made now (none was kept, or the kept one was unreadable). */
  made: boolean;
}

const decode = (text: string): Uint8Array | undefined => {
  const bytes = Buffer.from(text.trim(), 'base64');
  return bytes.length === 32 && bytes.toString('base64') === text.trim() ? new Uint8Array(bytes) : undefined;
};

/** The sandbox's key: the kept one, else a new one written once, readable by this user only (0600). */
export function sandboxKey(databaseUrl: string): SandboxKey {
  const file = secretKeyFile(databaseUrl);
  if (file) {
    try {
      const text = readFileSync(file, 'utf8').trim();
      const key = decode(text);
      if (key) return { keys: { current: key, previous: [] }, text, file, made: false };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  const text = randomBytes(32).toString('base64');
  if (file) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${text}\n`, { mode: 0o600 });
  }
  return { keys: { current: decode(text)!, previous: [] }, text, file, made: true };
}
