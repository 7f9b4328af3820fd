import {
  isStoreUnavailable,
  type NewAuditEntry,
  retryWhileUnavailable,
  type Store,
  type WriteRetryOptions,
} from '../store/index.js';

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

/**
 * Appends an audit entry through a store outage, once: an attempt after a failed one first looks for the
 * entry, because a connection can break after the insert committed and before the bot heard so.
 */
export async function appendAuditOnce(
  store: Pick<Store, 'appendAudit' | 'listAudit'>,
  entry: NewAuditEntry,
  o: WriteRetryOptions = {},
): Promise<void> {
  await retryWhileUnavailable(async (attempt) => {
    if (attempt > 1 && (await alreadyAppended(store, entry))) return;
    await store.appendAudit(entry);
  }, o);
}

async function alreadyAppended(store: Pick<Store, 'listAudit'>, e: NewAuditEntry): Promise<boolean> {
  const recent = await store.listAudit({
    ...(e.channelId !== undefined ? { channelId: e.channelId } : {}),
    operationPrefixes: [e.operation],
    limit: 200,
  });
  return recent.some(
    (x) =>
      x.operation === e.operation &&
      x.at === e.at &&
      x.userId === e.userId &&
      x.outcome === e.outcome &&
      x.flowId === (e.flowId ?? null) &&
      x.requestId === (e.requestId ?? null),
  );
}
