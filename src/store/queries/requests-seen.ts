import { run, statements } from '../sql.js';

/** True when this request had not been seen (or its mark had expired): one atomic upsert, so replicas act once. */
export const markRequestSeen = (key: string, now: number, expiresAt: number) =>
  statements(function* () {
    const changed = yield* run(
      `INSERT INTO requests_seen (key, expires_at) VALUES (?, ?)
         ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at WHERE requests_seen.expires_at <= ?`,
      [key, expiresAt, now],
    );
    return changed > 0;
  });

export const pruneRequestsSeen = (now: number) =>
  statements(function* () {
    yield* run('DELETE FROM requests_seen WHERE expires_at <= ?', [now]);
  });
