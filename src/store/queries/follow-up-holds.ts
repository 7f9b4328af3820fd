import { toHeldFollowUp } from '../rows.js';
import { all, insertRows, oneWriter, run, statements } from '../sql.js';
import type { HeldFollowUp } from '../types.js';

export const holdFollowUps = (owner: string, leaseUntil: number, followUps: readonly HeldFollowUp[]) =>
  oneWriter(() =>
    insertRows({
      into: 'INSERT INTO follow_ups_held (id, owner, lease_until, notice, held_at)',
      tuple: '(?, ?, ?, ?, ?)',
      onConflict: 'ON CONFLICT (id) DO NOTHING',
      rows: followUps.map((f) => [f.id, owner, leaseUntil, JSON.stringify(f.notice), f.heldAt]),
    }),
  );

export const renewFollowUps = (owner: string, leaseUntil: number) =>
  statements(() => run('UPDATE follow_ups_held SET lease_until = ? WHERE owner = ?', [leaseUntil, owner]));

export const releaseFollowUps = (owner: string, ids?: readonly string[]) =>
  statements(function* (d) {
    if (!ids) return yield* run('DELETE FROM follow_ups_held WHERE owner = ?', [owner]);
    if (ids.length === 0) return 0;
    const list = d.textList(ids);
    return yield* run(`DELETE FROM follow_ups_held WHERE owner = ? AND id IN ${list.sql}`, [
      owner,
      list.param,
    ]);
  });

/** Taken once each: on SQLite one writer at a time; on PostgreSQL replicas pass over each other's rows. */
export const takeAbandonedFollowUps = (now: number, limit: number) =>
  oneWriter(function* (d) {
    const rows = yield* all(
      `DELETE FROM follow_ups_held WHERE id IN (SELECT id FROM follow_ups_held
         WHERE lease_until < ? ORDER BY held_at LIMIT ?${d.skipLocked})
       RETURNING *`,
      [now, Math.max(1, Math.floor(limit))],
    );
    return rows.map(toHeldFollowUp).sort((a, b) => a.heldAt - b.heldAt);
  });
