import {
  isStoreUnavailable,
  isStoreWriteRefused,
  retryWhileUnavailable,
  type WriteRetryOptions,
} from '../store/index.js';

/**
 * What a person is told when the bot's own database does not answer before anything was sent: the bot
 * stops there, so nothing happened and trying again is safe.
 */
export const STORE_UNAVAILABLE_MESSAGE =
  "The bot's database is not answering right now, so nothing was done. Try again in a minute.";

/**
 * What a person is told when the bot's database refuses to save what they asked (a full disk, a database
 * made read-only) before anything was sent. The surface quotes their command beside it.
 */
export const STORE_REFUSED_MESSAGE =
  "The bot's database would not save this (its disk may be full, or it is read-only), so nothing was done. Ask whoever runs the bot to check its database, then run the same command again.";

/** Whether `e` is the store failing: not answering, or refusing a write; undefined for anything else. */
export function storeFaultOf(e: unknown): 'unavailable' | 'refused' | undefined {
  if (isStoreUnavailable(e)) return 'unavailable';
  if (isStoreWriteRefused(e)) return 'refused';
  return undefined;
}

/** The sentence for a store fault met before anything was sent, or undefined when `e` is not one. */
export function storeFaultMessage(e: unknown): string | undefined {
  const fault = storeFaultOf(e);
  if (!fault) return undefined;
  return fault === 'unavailable' ? STORE_UNAVAILABLE_MESSAGE : STORE_REFUSED_MESSAGE;
}

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
