import { mergeDefaults, toChannelDefaults } from '../rows.js';
import { one, run, type Steps, statements, transaction } from '../sql.js';
import type { ChannelDefaults, StoredChannelDefaults } from '../types.js';

function* defaults(channelId: string, lock = ''): Steps<StoredChannelDefaults | null> {
  const row = yield* one(`SELECT * FROM channel_defaults WHERE channel_id = ?${lock}`, [channelId]);
  return row ? toChannelDefaults(row) : null;
}

export const getChannelDefaults = (channelId: string) => statements(() => defaults(channelId));

/** Read and write in one transaction, the row locked, so two merges at once do not lose keys. */
export const setChannelDefaults = (channelId: string, values: ChannelDefaults, by: string, at: number) =>
  transaction(function* (d) {
    const m = mergeDefaults(yield* defaults(channelId, d.forUpdate), values);
    const row = yield* one(
      `INSERT INTO channel_defaults (channel_id, workspace, datastream, model, assessment, entities,
         shifts, updated_by, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (channel_id) DO UPDATE SET workspace = excluded.workspace,
         datastream = excluded.datastream, model = excluded.model, assessment = excluded.assessment,
         entities = excluded.entities, shifts = excluded.shifts, updated_by = excluded.updated_by,
         updated_at = excluded.updated_at
       RETURNING *`,
      [channelId, m.workspace, m.datastream, m.model, m.assessment, m.entities, m.shifts, by, at],
    );
    return toChannelDefaults(row!);
  });

export const clearChannelDefaults = (channelId: string) =>
  statements(function* () {
    return (yield* run('DELETE FROM channel_defaults WHERE channel_id = ?', [channelId])) > 0;
  });
