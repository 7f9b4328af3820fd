import { onAcksPause } from '../runtime/after-burst.js';

/**
 * Gathers the replay marks the requests of one event-loop turn ask for and writes them to the store in one
 * call. A burst of N signed requests then costs a few statements instead of N commits on the acking
 * thread. Each request still waits for the store's answer before it is acted on, so a replay reaching two
 * replicas at once is acted on by one of them only (the mark is the store's atomic upsert either way).
 */
export type MarkMany = (keys: readonly string[], now: number) => Promise<Set<string>>;

export function batchedMarks(markMany: MarkMany): (key: string) => Promise<boolean> {
  let pending: Map<string, ((first: boolean) => void)[]> | undefined;
  let failed: ((err: unknown) => void)[] = [];
  const flush = () => {
    const batch = pending;
    const rejects = failed;
    pending = undefined;
    failed = [];
    if (!batch) return;
    markMany([...batch.keys()], Date.now()).then(
      (marked) => {
        for (const [key, waiters] of batch) {
          // The same bytes twice in one turn: the first is acted on, the others are repeats.
          waiters.forEach((resolve, i) => {
            resolve(i === 0 && marked.has(key));
          });
        }
      },
      (err: unknown) => {
        for (const reject of rejects) reject(err);
      },
    );
  };
  return (key) =>
    new Promise<boolean>((resolve, reject) => {
      if (!pending) {
        pending = new Map();
        setImmediate(flush);
      }
      const waiters = pending.get(key);
      if (waiters) waiters.push(resolve);
      else pending.set(key, [resolve]);
      failed.push(reject);
    });
}

/** Marks `keys` seen until `expiresAt`; answers the keys marked now (the others stood marked). */
export type MarkSeen = (keys: readonly string[], now: number, expiresAt: number) => Promise<Set<string>>;

/** How often the marks made since the last write are written to a store only this process writes. */
export const MARKS_WRITE_EVERY_MS = 5_000;
/** Marks held in memory; past this the oldest go, and a key not held is looked up in the store. */
const MAX_HELD = 200_000;
/** Keys per statement batch of a write, one batch per event-loop turn, so acks pass in between. */
const WRITE_SLICE = 256;

export interface ProcessMarksStore {
  requestsSeen(keys: readonly string[], now: number): Promise<Set<string>>;
  standingRequestMarks(now: number, limit: number): Promise<Map<string, number>>;
  markRequestsSeen(keys: readonly string[], now: number, expiresAt: number): Promise<Set<string>>;
}

/**
 * Replay marks for a store that only this process writes (SQLite): held in memory, loaded from the store
 * at start (so a restart still knows the marks of the last minutes), and written to it every
 * `MARKS_WRITE_EVERY_MS` and at a stop. The acking thread then does no SQLite work per request: there a
 * statement is synchronous and waits for the follow-up worker's writes to the same file, and marked one
 * read or commit per request, as a shared store needs, it was the whole of a `learn` ack's cost above the
 * bare app at 1 concurrent (docs/performance.md). The atomic upsert is not needed, since no other process
 * acts on these requests. The price: a process killed (not stopped) loses the marks of its last 5 s (10 s
 * under requests that never pause), so a replay of one of those requests after a restart, within the
 * signature's 5 minutes, would be acted on.
 */
export function processMarks(
  store: ProcessMarksStore,
  failed: (err: unknown) => void,
  { everyMs = MARKS_WRITE_EVERY_MS, maxHeld = MAX_HELD } = {},
): { markSeen: MarkSeen; flush(): Promise<void> } {
  /** Every mark this process knows to stand, with its expiry, in the order made (so, of expiry). */
  const held = new Map<string, number>();
  const unwritten = new Set<string>();
  /** Whether `held` has every standing mark: false when the store had more than fit, or some were dropped. */
  let complete = false;
  const loaded = store.standingRequestMarks(Date.now(), maxHeld).then(
    (standing) => {
      for (const [key, expiresAt] of [...standing].reverse()) held.set(key, expiresAt);
      complete = standing.size < maxHeld;
    },
    (err: unknown) => failed(err),
  );
  const stands = (key: string, now: number) => (held.get(key) ?? 0) > now;
  const forgetExpired = (now: number) => {
    for (const [key, expiresAt] of held) {
      if (held.size <= maxHeld && expiresAt > now) break;
      if (expiresAt > now) complete = false;
      held.delete(key);
      unwritten.delete(key);
    }
  };

  let timer: NodeJS.Timeout | undefined;
  // A write is a few synchronous commits, each waiting for the follow-up worker's writes to the file: due
  // every `everyMs`, it is made when the requests pause, so that it does not stall the acks of a burst.
  const pause = onAcksPause(() => void write(), { waitMs: everyMs });
  let writes: Promise<void> = Promise.resolve();
  // Written as of `until`: this process decided these marks, so each replaces any earlier one in the store.
  const writeSlices = async (keys: string[], until: number) => {
    for (let at = 0; at < keys.length; at += WRITE_SLICE) {
      await store.markRequestsSeen(keys.slice(at, at + WRITE_SLICE), until, until);
      await new Promise((ok) => setImmediate(ok));
    }
  };
  const write = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const now = Date.now();
    forgetExpired(now);
    const keys = [...unwritten];
    if (!keys.length) return writes;
    unwritten.clear();
    let until = now;
    for (const key of keys) until = Math.max(until, held.get(key) ?? now);
    writes = writes
      .then(() => writeSlices(keys, until))
      .catch((err: unknown) => {
        failed(err);
        for (const key of keys) if (held.has(key)) unwritten.add(key);
        schedule();
      });
    return writes;
  };
  const schedule = () => {
    timer ??= setTimeout(pause.due, everyMs);
    timer.unref();
  };
  return {
    async markSeen(keys, now, expiresAt) {
      pause.seen();
      await loaded;
      const open = keys.filter((key) => !stands(key, now));
      const inStore = complete || !open.length ? new Set<string>() : await store.requestsSeen(open, now);
      const marked = new Set<string>();
      for (const key of open) {
        // Looked at again after the read: the same request may have been marked meanwhile.
        if (inStore.has(key) || stands(key, now)) continue;
        held.delete(key);
        held.set(key, expiresAt);
        unwritten.add(key);
        marked.add(key);
      }
      if (held.size > maxHeld) forgetExpired(now);
      if (marked.size) schedule();
      return marked;
    },
    flush: write,
  };
}
