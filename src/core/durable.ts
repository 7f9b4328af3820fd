import { isStoreUnavailable, retryWhileUnavailable, type WriteRetryOptions } from '../store/index.js';

/**
 * What a person is told when the bot's own database does not answer before anything was sent: the bot
 * stops there, so nothing happened and trying again is safe.
 */
export const STORE_UNAVAILABLE_MESSAGE =
  "The bot's database is not answering right now, so nothing was done. Try again in a minute.";

export { isStoreUnavailable };

/**
 * Writes that record what the service already did (its audit entry, its tracked flow, an approval's
 * execution) cannot be undone by failing: the flow exists either way. So they wait out a store outage (a
 * PostgreSQL restart takes seconds), bounded by `WRITE_RETRY_DEADLINE_MS`, instead of being dropped.
 */
export function recordSurely<T>(
  write: (attempt: number) => Promise<T>,
  o: WriteRetryOptions = {},
): Promise<T> {
  return retryWhileUnavailable(write, o);
}
