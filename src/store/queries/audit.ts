import { clampLimit, toAudit } from '../rows.js';
import { all, one, pruneBatch, run, statements, whereAll } from '../sql.js';
import type { AuditQuery, AuditResult, NewAuditEntry, UserChannel, UserChannelsQuery } from '../types.js';

export const appendAudit = (e: NewAuditEntry) =>
  statements(function* () {
    const row = yield* one(
      `INSERT INTO audit_log (at, user_id, team_id, channel_id, operation, params, outcome, flow_id,
         flow_status, error, request_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      [
        e.at,
        e.userId,
        e.teamId ?? null,
        e.channelId ?? null,
        e.operation,
        JSON.stringify(e.params ?? {}),
        e.outcome,
        e.flowId ?? null,
        e.flowStatus ?? null,
        e.error ?? null,
        e.requestId ?? null,
      ],
    );
    return toAudit(row!);
  });

export const completeAudit = (id: number, r: AuditResult) =>
  statements(function* () {
    yield* run('UPDATE audit_log SET outcome = ?, flow_id = ?, flow_status = ?, error = ? WHERE id = ?', [
      r.outcome,
      r.flowId ?? null,
      r.flowStatus ?? null,
      r.error ?? null,
      id,
    ]);
  });

export const listAudit = (query: AuditQuery) =>
  statements(function* () {
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.channelId !== undefined) {
      where.push('channel_id = ?');
      params.push(query.channelId);
    }
    if (query.teamId !== undefined) {
      where.push('(team_id = ? OR team_id IS NULL)');
      params.push(query.teamId);
    }
    const prefixes = query.operationPrefixes ?? [];
    if (prefixes.length) {
      where.push(`(${prefixes.map(() => 'substr(operation, 1, length(?)) = ?').join(' OR ')})`);
      for (const p of prefixes) params.push(p, p);
    }
    const rows = yield* all(`SELECT * FROM audit_log${whereAll(where)} ORDER BY at DESC, id DESC LIMIT ?`, [
      ...params,
      clampLimit(query.limit, 20),
    ]);
    return rows.map(toAudit);
  });

export const listUserChannels = (q: UserChannelsQuery) =>
  statements(function* () {
    const rows = yield* all(
      `SELECT channel_id, MAX(at) AS last_at FROM audit_log
       WHERE team_id = ? AND user_id = ? AND at >= ? AND channel_id IS NOT NULL
       GROUP BY channel_id ORDER BY last_at DESC, channel_id LIMIT ?`,
      [q.teamId, q.userId, q.since ?? 0, clampLimit(q.limit, 20)],
    );
    return rows.map((r): UserChannel => ({ channelId: String(r.channel_id), lastAt: Number(r.last_at) }));
  });

export const pruneAudit = (before: number, limit: number) =>
  pruneBatch({
    table: 'audit_log',
    key: 'id',
    condition: 'at < ?',
    order: 'at, id',
    params: [before],
    limit,
  });
