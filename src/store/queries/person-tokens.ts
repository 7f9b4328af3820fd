import type { Row } from '../sql.js';
import { all, one, run, statements, transaction } from '../sql.js';
import type { PersonToken, SealedSecret, StoredPersonToken } from '../types.js';

const text = (v: unknown) => (v === null || v === undefined ? null : String(v));

function toPersonToken(r: Row): StoredPersonToken {
  return {
    teamId: String(r.team_id),
    userId: String(r.user_id),
    sealed: {
      ciphertext: String(r.ciphertext),
      iv: String(r.iv),
      tag: String(r.tag),
      keyId: String(r.key_id),
    },
    accountId: String(r.account_id),
    serviceUrl: text(r.service_url),
    role: text(r.role),
    serviceUser: text(r.service_user),
    connectedAt: Number(r.connected_at),
    // Rows from before versions were kept carry none: version 0, the mark the migration gave them.
    version: r.version === null || r.version === undefined ? 0 : Number(r.version),
    latestVersion: r.latest_version === null || r.latest_version === undefined ? 0 : Number(r.latest_version),
  };
}

export const getPersonToken = (teamId: string, userId: string) =>
  statements(function* () {
    const row = yield* one(
      `SELECT t.*, v.version AS latest_version FROM person_tokens t
       LEFT JOIN person_token_versions v ON v.team_id = t.team_id AND v.user_id = t.user_id
       WHERE t.team_id = ? AND t.user_id = ?`,
      [teamId, userId],
    );
    return row ? toPersonToken(row) : null;
  });

export const latestPersonTokenVersion = (teamId: string, userId: string) =>
  statements(function* () {
    const row = yield* one('SELECT version FROM person_token_versions WHERE team_id = ? AND user_id = ?', [
      teamId,
      userId,
    ]);
    return row ? Number(row.version) : 0;
  });

/** Moves the person's mark up to `version`; false when it is already there or past it (another write won). */
function* raiseMark(teamId: string, userId: string, version: number) {
  return (
    (yield* run(
      `INSERT INTO person_token_versions AS v (team_id, user_id, version) VALUES (?, ?, ?)
       ON CONFLICT (team_id, user_id) DO UPDATE SET version = excluded.version
       WHERE v.version < excluded.version`,
      [teamId, userId, version],
    )) > 0
  );
}

export const savePersonToken = (t: PersonToken) =>
  transaction(function* () {
    if (!(yield* raiseMark(t.teamId, t.userId, t.version))) return false;
    const s = t.sealed;
    yield* run(
      `INSERT INTO person_tokens (team_id, user_id, ciphertext, iv, tag, key_id, account_id, service_url,
         role, service_user, connected_at, version)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (team_id, user_id) DO UPDATE SET ciphertext = excluded.ciphertext, iv = excluded.iv,
         tag = excluded.tag, key_id = excluded.key_id, account_id = excluded.account_id,
         service_url = excluded.service_url, role = excluded.role, service_user = excluded.service_user,
         connected_at = excluded.connected_at, version = excluded.version`,
      [
        t.teamId,
        t.userId,
        s.ciphertext,
        s.iv,
        s.tag,
        s.keyId,
        t.accountId,
        t.serviceUrl ?? null,
        t.role,
        t.serviceUser,
        t.connectedAt,
        t.version,
      ],
    );
    return true;
  });

/** The mark moves past the deleted row's version, so that row put back later is seen as old. */
export const deletePersonToken = (teamId: string, userId: string) =>
  transaction(function* () {
    const latest = yield* one('SELECT version FROM person_token_versions WHERE team_id = ? AND user_id = ?', [
      teamId,
      userId,
    ]);
    yield* raiseMark(teamId, userId, (latest ? Number(latest.version) : 0) + 1);
    return (yield* run('DELETE FROM person_tokens WHERE team_id = ? AND user_id = ?', [teamId, userId])) > 0;
  });

export const resealPersonToken = (
  o: { teamId: string; userId: string; fromVersion: number; version: number },
  s: SealedSecret,
) =>
  transaction(function* () {
    const changed = yield* run(
      `UPDATE person_tokens SET ciphertext = ?, iv = ?, tag = ?, key_id = ?, version = ?
       WHERE team_id = ? AND user_id = ? AND COALESCE(version, 0) = ?`,
      [s.ciphertext, s.iv, s.tag, s.keyId, o.version, o.teamId, o.userId, o.fromVersion],
    );
    if (changed === 0) return false;
    yield* raiseMark(o.teamId, o.userId, o.version);
    return true;
  });

/** Every person of the team loses their token; each mark moves past the row it had, as a delete does. */
export const deleteTeamPersonTokens = (teamId: string) =>
  transaction(function* (d) {
    yield* run(
      `INSERT INTO person_token_versions AS v (team_id, user_id, version)
       SELECT t.team_id, t.user_id, ${d.greatest}(COALESCE(m.version, 0), COALESCE(t.version, 0)) + 1
       FROM person_tokens t
       LEFT JOIN person_token_versions m ON m.team_id = t.team_id AND m.user_id = t.user_id
       WHERE t.team_id = ?
       ON CONFLICT (team_id, user_id) DO UPDATE SET version = excluded.version
       WHERE v.version < excluded.version`,
      [teamId],
    );
    return yield* run('DELETE FROM person_tokens WHERE team_id = ?', [teamId]);
  });

export const listTeamPersonTokens = (teamId: string) =>
  statements(function* () {
    const rows = yield* all(
      `SELECT t.*, v.version AS latest_version FROM person_tokens t
       LEFT JOIN person_token_versions v ON v.team_id = t.team_id AND v.user_id = t.user_id
       WHERE t.team_id = ? ORDER BY t.user_id`,
      [teamId],
    );
    return rows.map(toPersonToken);
  });
