import { one, run, statements } from '../sql.js';

/**
 * A form submission's key, claimed by one atomic upsert (so replicas run it once), and what it came to: a
 * form sent again (Slack gave up waiting for the first one's acknowledgement) is answered from here.
 */
export const claimSubmission = (key: string, now: number, expiresAt: number) =>
  statements(function* () {
    const changed = yield* run(
      `INSERT INTO form_submissions (key, expires_at, outcome) VALUES (?, ?, NULL)
       ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at, outcome = NULL
       WHERE form_submissions.expires_at <= ?`,
      [key, expiresAt, now],
    );
    return changed > 0;
  });

export const recordSubmissionOutcome = (key: string, outcome: unknown) =>
  statements(function* () {
    yield* run('UPDATE form_submissions SET outcome = ? WHERE key = ?', [JSON.stringify(outcome), key]);
  });

export const submissionOutcome = <T>(key: string) =>
  statements(function* () {
    const row = yield* one('SELECT outcome FROM form_submissions WHERE key = ?', [key]);
    return row?.outcome == null ? null : (JSON.parse(String(row.outcome)) as T);
  });
