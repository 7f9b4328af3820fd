/**
 * Telling a store that cannot answer right now (a PostgreSQL restart, a dropped connection, a SQLite file
 * another process holds locked) from a bug, and waiting such an outage out for the writes that must not be
 * lost.
 */

import { tellFailed, tellRetried } from './observers.js';

/** SQLSTATE classes and codes that say the server or the connection, not the statement, failed. */
const PG_UNAVAILABLE = /^(08|57P0[1-3]|53300|53400)/;
const NET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR)/;
/** pg's own errors carry no code; these are its messages for a connection that broke or never came. */
const PG_CONNECTION_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|not queryable|Client was closed|Cannot use a pool after calling end/i;

/** True when `e` says the store could not be reached or is busy, so the same call may work later. */
export function isStoreUnavailable(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NET_CODES.has(code) || SQLITE_UNAVAILABLE.test(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && PG_UNAVAILABLE.test(code)) return true;
  }
  // better-sqlite3 after close() (a stop racing a write).
  if (e instanceof TypeError && /database connection is not open/i.test(e.message)) return true;
  if (PG_CONNECTION_MESSAGES.test(e.message)) return true;
  // An AggregateError from a dual-stack connect wraps the per-address errors.
  const inner = (e as { errors?: unknown }).errors;
  return Array.isArray(inner) && inner.length > 0 && inner.every(isStoreUnavailable);
}

/** Counts a failed query for operators (`tsai_store_errors_total`), as an outage or as an error. */
export function noteStoreError(e: unknown): void {
  tellFailed(isStoreUnavailable(e) ? 'unavailable' : 'error');
}

export interface WriteRetryOptions {
  /** Give up this long after the first attempt (default 15 s). */
  deadlineMs?: number;
  /** First wait between attempts (default 100 ms); doubles up to `maxDelayMs`. */
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** Told of every failed attempt that will be retried. */
  onRetry?(attempt: number, err: unknown): void;
}

export const WRITE_RETRY_DEADLINE_MS = 15_000;

/**
 * Runs `write` until it succeeds, retrying only while the store is unavailable, for at most the deadline;
 * any other error, or the last unavailable one, is thrown. `write` gets the attempt number (1, 2, …): an
 * attempt after a failed one must tolerate that the failed one may have been committed (the connection
 * can break after the commit and before its answer).
 */
export async function retryWhileUnavailable<T>(
  write: (attempt: number) => Promise<T>,
  o: WriteRetryOptions = {},
): Promise<T> {
  const deadline = Date.now() + (o.deadlineMs ?? WRITE_RETRY_DEADLINE_MS);
  let delay = o.firstDelayMs ?? 100;
  for (let attempt = 1; ; attempt++) {
    try {
      return await write(attempt);
    } catch (e) {
      if (!isStoreUnavailable(e) || Date.now() + delay > deadline) throw e;
      o.onRetry?.(attempt, e);
      tellRetried();
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, o.maxDelayMs ?? 2_000);
    }
  }
}
