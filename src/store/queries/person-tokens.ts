import type { Row } from '../sql.js';
import { one, run, statements } from '../sql.js';
import type { PersonToken, SealedSecret } from '../types.js';

const text = (v: unknown) => (v === null || v === undefined ? null : String(v));

function toPersonToken(r: Row): PersonToken {
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
    role: text(r.role),
    serviceUser: text(r.service_user),
    connectedAt: Number(r.connected_at),
  };
}

export const getPersonToken = (teamId: string, userId: string) =>
  statements(function* () {
    const row = yield* one('SELECT * FROM person_tokens WHERE team_id = ? AND user_id = ?', [teamId, userId]);
    return row ? toPersonToken(row) : null;
  });

export const savePersonToken = (t: PersonToken) =>
  statements(function* () {
    const s = t.sealed;
    yield* run(
      `INSERT INTO person_tokens (team_id, user_id, ciphertext, iv, tag, key_id, account_id, role,
         service_user, connected_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (team_id, user_id) DO UPDATE SET ciphertext = excluded.ciphertext, iv = excluded.iv,
         tag = excluded.tag, key_id = excluded.key_id, account_id = excluded.account_id,
         role = excluded.role, service_user = excluded.service_user, connected_at = excluded.connected_at`,
      [
        t.teamId,
        t.userId,
        s.ciphertext,
        s.iv,
        s.tag,
        s.keyId,
        t.accountId,
        t.role,
        t.serviceUser,
        t.connectedAt,
      ],
    );
  });

export const deletePersonToken = (teamId: string, userId: string) =>
  statements(function* () {
    return (yield* run('DELETE FROM person_tokens WHERE team_id = ? AND user_id = ?', [teamId, userId])) > 0;
  });

export const resealPersonToken = (
  o: { teamId: string; userId: string; fromKeyId: string; connectedAt: number },
  s: SealedSecret,
) =>
  statements(function* () {
    const changed = yield* run(
      `UPDATE person_tokens SET ciphertext = ?, iv = ?, tag = ?, key_id = ?
       WHERE team_id = ? AND user_id = ? AND key_id = ? AND connected_at = ?`,
      [s.ciphertext, s.iv, s.tag, s.keyId, o.teamId, o.userId, o.fromKeyId, o.connectedAt],
    );
    return changed > 0;
  });
