/**
 * What the store tells whoever watches it (the metrics), without knowing who that is: the store is the
 * bottom layer and imports nothing of the bot, so a watcher registers here instead.
 */
export interface StoreObserver {
  /** A query failed: the store was unreachable or busy (`unavailable`), or anything else (`error`). */
  failed(reason: 'unavailable' | 'error'): void;
  /** A write is attempted again after the store was unreachable. */
  retried(): void;
}

const observers: StoreObserver[] = [];

/** Registers `o` for this thread's stores; the returned function unregisters it. */
export function observeStore(o: StoreObserver): () => void {
  observers.push(o);
  return () => {
    const i = observers.indexOf(o);
    if (i >= 0) observers.splice(i, 1);
  };
}

export function tellFailed(reason: 'unavailable' | 'error'): void {
  for (const o of observers) o.failed(reason);
}

export function tellRetried(): void {
  for (const o of observers) o.retried();
}
