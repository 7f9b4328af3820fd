import { all, run, statements } from '../sql.js';

const UPSERT_TAIL = `ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at
  WHERE requests_seen.expires_at <= ?`;

/** True when this request had not been seen (or its mark had expired): one atomic upsert, so replicas act once. */
export const markRequestSeen = (key: string, now: number, expiresAt: number) =>
  statements(function* () {
    const changed = yield* run(`INSERT INTO requests_seen (key, expires_at) VALUES (?, ?) ${UPSERT_TAIL}`, [
      key,
      expiresAt,
      now,
    ]);
    return changed > 0;
  });

/**
 * Statement sizes a batch is cut into, largest first: a handful of statement texts, so the engines' caches
 * of prepared statements stay small, and a burst of N keys costs about log(N) statements, not N commits.
 */
const CHUNK_SIZES = [64, 16, 4, 1] as const;

/** `keys` cut into slices of the sizes in `CHUNK_SIZES`, largest first, in order. */
function* sizedChunks(keys: readonly string[]): Generator<readonly string[]> {
  let at = 0;
  for (const size of CHUNK_SIZES)
    for (; keys.length - at >= size; at += size) yield keys.slice(at, at + size);
}

/**
 * The keys of `keys` (distinct) that had not been seen or whose mark had expired by `now`, now marked until
 * `expiresAt`. Each key's mark is the same atomic upsert as `markRequestSeen`'s, so replicas act once.
 */
export const markRequestsSeen = (keys: readonly string[], now: number, expiresAt: number) =>
  statements(function* () {
    const marked = new Set<string>();
    for (const chunk of sizedChunks(keys)) {
      const rows = yield* all(
        `INSERT INTO requests_seen (key, expires_at) VALUES ${Array(chunk.length).fill('(?, ?)').join(', ')}
           ${UPSERT_TAIL} RETURNING key`,
        [...chunk.flatMap((key) => [key, expiresAt]), now],
      );
      for (const row of rows) marked.add(String(row.key));
    }
    return marked;
  });

/** The keys of `keys` (distinct) whose mark stands at `now`: a read, which on SQLite waits for no writer. */
export const requestsSeen = (keys: readonly string[], now: number) =>
  statements(function* () {
    const standing = new Set<string>();
    for (const chunk of sizedChunks(keys)) {
      const rows = yield* all(
        `SELECT key FROM requests_seen WHERE key IN (${Array(chunk.length).fill('?').join(', ')}) AND expires_at > ?`,
        [...chunk, now],
      );
      for (const row of rows) standing.add(String(row.key));
    }
    return standing;
  });

/** Up to `limit` marks standing at `now`, latest expiry first: key and expiry. */
export const standingRequestMarks = (now: number, limit: number) =>
  statements(function* () {
    const rows = yield* all(
      'SELECT key, expires_at FROM requests_seen WHERE expires_at > ? ORDER BY expires_at DESC LIMIT ?',
      [now, limit],
    );
    return new Map(rows.map((r) => [String(r.key), Number(r.expires_at)]));
  });

export const pruneRequestsSeen = (now: number) =>
  statements(function* () {
    yield* run('DELETE FROM requests_seen WHERE expires_at <= ?', [now]);
    // Form submissions' keys are request marks too, kept longer (src/store/queries/form-submissions.ts).
    yield* run('DELETE FROM form_submissions WHERE expires_at <= ?', [now]);
  });
