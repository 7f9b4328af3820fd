import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import {
  CATALOG_COLUMNS,
  catalogByNameSql,
  catalogConflictClause,
  catalogRows,
  catalogSearchSql,
  rankCatalog,
  SQLITE_DIALECT,
  toCatalogEntry,
} from './catalog.js';
import { MIGRATIONS } from './migrations.js';
import {
  clampLimit,
  mergeDefaults,
  toApproval,
  toAudit,
  toChannelDefaults,
  toHeldFollowUp,
  toTrackedFlow,
  trackedFlowColumns,
} from './rows.js';
import type {
  ApprovalQuery,
  ApprovalRequest,
  AuditEntry,
  AuditQuery,
  CatalogEntry,
  CatalogKind,
  CatalogLinks,
  CatalogQuery,
  CatalogUpsert,
  ChannelDefaults,
  DecideInput,
  ExecutionOutcome,
  FlowAnnouncement,
  HeldFollowUp,
  NewApprovalRequest,
  NewAuditEntry,
  NewTrackedFlow,
  Store,
  StoredChannelDefaults,
  TrackedFlow,
  TrackedFlowPatch,
  TrackedFlowQuery,
  TransitionResult,
  UserChannel,
  UserChannelsQuery,
} from './types.js';

type Row = Record<string, unknown>;

export interface SqliteStoreOptions {
  /** How long a writer waits for another connection's lock before failing (ms). */
  busyTimeoutMs?: number;
}

/**
 * SQLite store. better-sqlite3 is synchronous, so every method is one atomic step within this process;
 * writes that read-then-write run in IMMEDIATE transactions so other connections (other processes on the
 * same file) cannot interleave.
 */
export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  private readonly db: Database.Database;

  /** Prepared statements by SQL text: preparing costs more than running these small queries. */
  private readonly statements = new Map<string, Database.Statement>();

  private constructor(db: Database.Database) {
    this.db = db;
  }

  private prepare(sql: string): Database.Statement {
    let st = this.statements.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      if (this.statements.size < 200) this.statements.set(sql, st);
    }
    return st;
  }

  static async open(file: string, options: SqliteStoreOptions = {}): Promise<SqliteStore> {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    const db = new Database(file);
    const busyTimeoutMs = Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000));
    try {
      db.pragma(`busy_timeout = ${busyTimeoutMs}`);
      if (file !== ':memory:') db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      migrate(db);
    } catch (err) {
      db.close();
      throw lockedError(err, file, busyTimeoutMs);
    }
    return new SqliteStore(db);
  }

  async createApproval(input: NewApprovalRequest): Promise<ApprovalRequest> {
    const row = this.prepare(
      `INSERT INTO approvals (id, action, model_id, assessment_id, reason, requester_id, team_id,
           origin_channel_id, approvals_channel_id, status, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?) RETURNING *`,
    ).get(
      randomUUID(),
      input.action,
      input.modelId,
      input.assessmentId ?? null,
      input.reason ?? null,
      input.requesterId,
      input.teamId ?? null,
      input.originChannelId,
      input.approvalsChannelId,
      input.createdAt,
      input.expiresAt,
    ) as Row;
    return toApproval(row);
  }

  async getApproval(id: string): Promise<ApprovalRequest | null> {
    return this.get(id);
  }

  private get(id: string): ApprovalRequest | null {
    const row = this.prepare('SELECT * FROM approvals WHERE id = ?').get(id) as Row | undefined;
    return row ? toApproval(row) : null;
  }

  async listApprovals(query: ApprovalQuery = {}): Promise<ApprovalRequest[]> {
    const statuses = query.statuses ?? [];
    const where: string[] = [];
    const params: unknown[] = [];
    if (statuses.length) {
      where.push(`status IN (${statuses.map(() => '?').join(', ')})`);
      params.push(...statuses);
    }
    if (query.teamId !== undefined) {
      where.push('team_id = ?');
      params.push(query.teamId);
    }
    if (query.requesterId !== undefined) {
      where.push('requester_id = ?');
      params.push(query.requesterId);
    }
    const sql = `SELECT * FROM approvals ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
                 ORDER BY created_at DESC, id LIMIT ?`;
    const rows = this.prepare(sql).all(...params, clampLimit(query.limit, 100)) as Row[];
    return rows.map(toApproval);
  }

  async setApprovalMessage(id: string, channelId: string, messageTs: string): Promise<void> {
    this.prepare('UPDATE approvals SET approvals_channel_id = ?, message_ts = ? WHERE id = ?').run(
      channelId,
      messageTs,
      id,
    );
  }

  async decideApproval(input: DecideInput): Promise<TransitionResult> {
    const run = this.db.transaction((): TransitionResult => {
      const row =
        input.decision === 'approve'
          ? this.prepare(
              `UPDATE approvals SET status = 'executing', decided_by = ?, decided_at = ?,
                   attempts = attempts + 1, last_attempt_by = ?, last_attempt_at = ?
                 WHERE id = ? AND status = 'pending' AND expires_at > ? RETURNING *`,
            ).get(input.by, input.at, input.by, input.at, input.id, input.at)
          : this.prepare(
              `UPDATE approvals SET status = 'rejected', decided_by = ?, decided_at = ?, reject_reason = ?,
                   finished_at = ?
                 WHERE id = ? AND status = 'pending' AND expires_at > ? RETURNING *`,
            ).get(input.by, input.at, input.reason ?? null, input.at, input.id, input.at);
      if (row) return { ok: true, request: toApproval(row as Row) };
      const expired = this.prepare(
        `UPDATE approvals SET status = 'expired', finished_at = ?
           WHERE id = ? AND status = 'pending' AND expires_at <= ?`,
      ).run(input.at, input.id, input.at);
      const current = this.get(input.id);
      return expired.changes > 0 ? { ok: false, current, expiredNow: true } : { ok: false, current };
    });
    return run.immediate();
  }

  async claimRetry(id: string, by: string, at: number): Promise<TransitionResult> {
    return this.transition(
      `UPDATE approvals SET status = 'executing', attempts = attempts + 1, last_attempt_by = ?,
         last_attempt_at = ?, error = NULL, finished_at = NULL
       WHERE id = ? AND status = 'failed' RETURNING *`,
      [by, at, id],
      id,
    );
  }

  async recordExecution(id: string, outcome: ExecutionOutcome, at: number): Promise<TransitionResult> {
    const flowId = outcome.status === 'executed' ? outcome.flowId : null;
    const flowStatus = outcome.status === 'executed' ? (outcome.flowStatus ?? null) : null;
    const error = outcome.status === 'executed' ? null : outcome.error;
    return this.transition(
      `UPDATE approvals SET status = ?, flow_id = ?, flow_status = ?, error = ?, finished_at = ?
       WHERE id = ? AND status IN ('executing', 'unknown') RETURNING *`,
      [outcome.status, flowId, flowStatus, error, at, id],
      id,
    );
  }

  private transition(sql: string, params: unknown[], id: string): Promise<TransitionResult> {
    const run = this.db.transaction((): TransitionResult => {
      const row = this.prepare(sql).get(...params) as Row | undefined;
      return row ? { ok: true, request: toApproval(row) } : { ok: false, current: this.get(id) };
    });
    return Promise.resolve(run.immediate());
  }

  async expireDue(now: number): Promise<ApprovalRequest[]> {
    const run = this.db.transaction(
      () =>
        this.prepare(
          `UPDATE approvals SET status = 'expired', finished_at = ?
             WHERE status = 'pending' AND expires_at <= ? RETURNING *`,
        ).all(now, now) as Row[],
    );
    return run.immediate().map(toApproval);
  }

  async markInterrupted(claimedBefore: number, at: number): Promise<ApprovalRequest[]> {
    const run = this.db.transaction(
      () =>
        this.prepare(
          `UPDATE approvals SET status = 'unknown', finished_at = ?,
               error = 'The bot stopped while creating the flow; its outcome is unknown.'
             WHERE status = 'executing' AND last_attempt_at <= ? RETURNING *`,
        ).all(at, claimedBefore) as Row[],
    );
    return run.immediate().map(toApproval);
  }

  async appendAudit(e: NewAuditEntry): Promise<AuditEntry> {
    const row = this.prepare(
      `INSERT INTO audit_log (at, user_id, team_id, channel_id, operation, params, outcome, flow_id,
           flow_status, error, request_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    ).get(
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
    ) as Row;
    return toAudit(row);
  }

  async listAudit(query: AuditQuery = {}): Promise<AuditEntry[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.channelId !== undefined) {
      where.push('channel_id = ?');
      params.push(query.channelId);
    }
    const prefixes = query.operationPrefixes ?? [];
    if (prefixes.length) {
      where.push(`(${prefixes.map(() => 'substr(operation, 1, length(?)) = ?').join(' OR ')})`);
      for (const p of prefixes) params.push(p, p);
    }
    const sql = `SELECT * FROM audit_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
                 ORDER BY at DESC, id DESC LIMIT ?`;
    return (this.prepare(sql).all(...params, clampLimit(query.limit, 20)) as Row[]).map(toAudit);
  }

  async listUserChannels(q: UserChannelsQuery): Promise<UserChannel[]> {
    const rows = this.prepare(
      `SELECT channel_id, MAX(at) AS last_at FROM audit_log
       WHERE team_id = ? AND user_id = ? AND at >= ? AND channel_id IS NOT NULL
       GROUP BY channel_id ORDER BY last_at DESC, channel_id LIMIT ?`,
    ).all(q.teamId, q.userId, q.since ?? 0, clampLimit(q.limit, 20)) as Row[];
    return rows.map((r) => ({ channelId: String(r.channel_id), lastAt: Number(r.last_at) }));
  }

  async getChannelDefaults(channelId: string): Promise<StoredChannelDefaults | null> {
    return this.getDefaults(channelId);
  }

  private getDefaults(channelId: string): StoredChannelDefaults | null {
    const row = this.prepare('SELECT * FROM channel_defaults WHERE channel_id = ?').get(channelId) as
      | Row
      | undefined;
    return row ? toChannelDefaults(row) : null;
  }

  async setChannelDefaults(
    channelId: string,
    values: ChannelDefaults,
    by: string,
    at: number,
  ): Promise<StoredChannelDefaults> {
    const run = this.db.transaction(() => {
      const m = mergeDefaults(this.getDefaults(channelId), values);
      const row = this.prepare(
        `INSERT INTO channel_defaults (channel_id, workspace, datastream, model, assessment, entities,
             updated_by, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (channel_id) DO UPDATE SET workspace = excluded.workspace,
             datastream = excluded.datastream, model = excluded.model, assessment = excluded.assessment,
             entities = excluded.entities, updated_by = excluded.updated_by, updated_at = excluded.updated_at
           RETURNING *`,
      ).get(channelId, m.workspace, m.datastream, m.model, m.assessment, m.entities, by, at) as Row;
      return toChannelDefaults(row);
    });
    return run.immediate();
  }

  async clearChannelDefaults(channelId: string): Promise<boolean> {
    return this.prepare('DELETE FROM channel_defaults WHERE channel_id = ?').run(channelId).changes > 0;
  }

  async upsertCatalog(teamId: string, entries: readonly CatalogUpsert[], at: number): Promise<void> {
    const rows = catalogRows(entries);
    if (rows.length === 0) return;
    const st = this.prepare(
      `INSERT INTO catalog_entries AS c (team_id, kind, id, name, name_key, name_source, source,
           workspace_id, assessment_id, model_id, first_seen_at, last_used_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ${catalogConflictClause(SQLITE_DIALECT)}`,
    );
    const run = this.db.transaction(() => {
      for (const r of rows) {
        st.run(
          teamId,
          r.kind,
          r.id,
          r.name,
          r.nameKey,
          r.nameSource,
          r.source,
          r.workspaceId,
          r.assessmentId,
          r.modelId,
          at,
          at,
        );
      }
    });
    run.immediate();
  }

  async getCatalogEntry(teamId: string, kind: CatalogKind, id: string): Promise<CatalogEntry | null> {
    const row = this.prepare(
      `SELECT ${CATALOG_COLUMNS} FROM catalog_entries WHERE team_id = ? AND kind = ? AND id = ?`,
    ).get(teamId, kind, id) as Row | undefined;
    return row ? toCatalogEntry(row) : null;
  }

  async searchCatalog(query: CatalogQuery): Promise<CatalogEntry[]> {
    const { sql, params } = catalogSearchSql(SQLITE_DIALECT, query);
    return rankCatalog(this.prepare(sql).all(...params) as Row[], query);
  }

  async findCatalogByName(
    teamId: string,
    kind: CatalogKind,
    name: string,
    options: { links?: CatalogLinks; limit?: number } = {},
  ): Promise<CatalogEntry[]> {
    const { sql, params } = catalogByNameSql(SQLITE_DIALECT, teamId, kind, name, options);
    return (this.prepare(sql).all(...params) as Row[]).map(toCatalogEntry);
  }

  async forgetCatalogEntry(teamId: string, kind: CatalogKind, id: string, at: number): Promise<boolean> {
    const run = this.db.transaction(() => {
      const hidden = this.prepare(
        `UPDATE catalog_entries SET missing_at = ?, last_used_at = max(last_used_at, ?)
           WHERE team_id = ? AND kind = ? AND id = ? AND missing_at IS NULL`,
      ).run(at, at, teamId, kind, id);
      this.prepare(
        `INSERT INTO catalog_entries AS c (team_id, kind, id, source, first_seen_at, last_used_at, missing_at)
           VALUES (?, ?, ?, 'service', ?, ?, ?)
           ON CONFLICT (team_id, kind, id) DO UPDATE SET
             missing_at = coalesce(c.missing_at, excluded.missing_at),
             last_used_at = max(c.last_used_at, excluded.last_used_at)`,
      ).run(teamId, kind, id, at, at, at);
      return hidden.changes > 0;
    });
    return run.immediate();
  }

  async pruneCatalog(before: number): Promise<number> {
    return this.prepare('DELETE FROM catalog_entries WHERE last_used_at < ?').run(before).changes;
  }

  async getState<T = unknown>(key: string): Promise<T | null> {
    const row = this.prepare('SELECT value FROM bot_state WHERE key = ?').get(key) as Row | undefined;
    return row ? (JSON.parse(String(row.value)) as T) : null;
  }

  async setState(key: string, value: unknown, at: number): Promise<void> {
    this.prepare(
      `INSERT INTO bot_state (key, value, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    ).run(key, JSON.stringify(value), at);
  }

  async markRequestSeen(key: string, now: number, expiresAt: number): Promise<boolean> {
    return (
      this.prepare(
        `INSERT INTO requests_seen (key, expires_at) VALUES (?, ?)
           ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at WHERE requests_seen.expires_at <= ?`,
      ).run(key, expiresAt, now).changes > 0
    );
  }

  async pruneRequestsSeen(now: number): Promise<void> {
    this.prepare('DELETE FROM requests_seen WHERE expires_at <= ?').run(now);
  }

  async trackFlow(f: NewTrackedFlow): Promise<TrackedFlow> {
    this.prepare(
      `INSERT INTO tracked_flows (flow_id, flow_type, team_id, channel_id, requester_id, origin, asked, request,
           approval_id, status, status_changed_at, created_at, next_poll_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (flow_id) DO NOTHING`,
    ).run(
      f.flowId,
      f.flowType,
      f.teamId ?? null,
      f.channelId,
      f.requesterId,
      f.origin,
      f.asked,
      JSON.stringify(f.request),
      f.approvalId ?? null,
      f.status,
      f.createdAt,
      f.createdAt,
      f.nextPollAt,
    );
    return this.tracked(f.flowId)!;
  }

  async getTrackedFlow(flowId: string): Promise<TrackedFlow | null> {
    return this.tracked(flowId);
  }

  private tracked(flowId: string): TrackedFlow | null {
    const row = this.prepare('SELECT * FROM tracked_flows WHERE flow_id = ?').get(flowId) as Row | undefined;
    return row ? toTrackedFlow(row) : null;
  }

  async setFlowAnnouncement(flowId: string, announcement: FlowAnnouncement): Promise<TrackedFlow | null> {
    const row = this.prepare('UPDATE tracked_flows SET announcement = ? WHERE flow_id = ? RETURNING *').get(
      JSON.stringify(announcement),
      flowId,
    ) as Row | undefined;
    return row ? toTrackedFlow(row) : null;
  }

  async claimDueFlows(o: {
    owner: string;
    now: number;
    leaseMs: number;
    limit: number;
  }): Promise<TrackedFlow[]> {
    // One writer at a time (IMMEDIATE): the select and the lease are one step for every connection.
    const run = this.db.transaction(
      () =>
        this.prepare(
          `UPDATE tracked_flows SET lease_owner = ?, lease_until = ?
             WHERE flow_id IN (SELECT flow_id FROM tracked_flows
               WHERE finished_at IS NULL AND next_poll_at <= ? AND (lease_until IS NULL OR lease_until < ?)
               ORDER BY next_poll_at LIMIT ?)
             RETURNING *`,
        ).all(o.owner, o.now + o.leaseMs, o.now, o.now, Math.max(1, Math.floor(o.limit))) as Row[],
    );
    return run.immediate().map(toTrackedFlow);
  }

  async updateTrackedFlow(
    flowId: string,
    owner: string,
    patch: TrackedFlowPatch,
  ): Promise<TrackedFlow | null> {
    const columns = trackedFlowColumns(patch);
    if (columns.length === 0) {
      const row = this.prepare('SELECT * FROM tracked_flows WHERE flow_id = ? AND lease_owner = ?').get(
        flowId,
        owner,
      ) as Row | undefined;
      return row ? toTrackedFlow(row) : null;
    }
    const row = this.prepare(
      `UPDATE tracked_flows SET ${columns.map(([c]) => `${c} = ?`).join(', ')}
         WHERE flow_id = ? AND lease_owner = ? RETURNING *`,
    ).get(...columns.map(([, v]) => v), flowId, owner) as Row | undefined;
    return row ? toTrackedFlow(row) : null;
  }

  async holdFollowUps(owner: string, leaseUntil: number, followUps: readonly HeldFollowUp[]): Promise<void> {
    const insert = this.prepare(
      `INSERT INTO follow_ups_held (id, owner, lease_until, notice, held_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (id) DO NOTHING`,
    );
    this.db.transaction(() => {
      for (const f of followUps) insert.run(f.id, owner, leaseUntil, JSON.stringify(f.notice), f.heldAt);
    })();
  }

  async renewFollowUps(owner: string, leaseUntil: number): Promise<number> {
    return this.prepare('UPDATE follow_ups_held SET lease_until = ? WHERE owner = ?').run(leaseUntil, owner)
      .changes;
  }

  async releaseFollowUps(owner: string, ids?: readonly string[]): Promise<number> {
    if (!ids) return this.prepare('DELETE FROM follow_ups_held WHERE owner = ?').run(owner).changes;
    if (ids.length === 0) return 0;
    return this.prepare(
      'DELETE FROM follow_ups_held WHERE owner = ? AND id IN (SELECT value FROM json_each(?))',
    ).run(owner, JSON.stringify(ids)).changes;
  }

  async takeAbandonedFollowUps(now: number, limit: number): Promise<HeldFollowUp[]> {
    const run = this.db.transaction(
      () =>
        this.prepare(
          `DELETE FROM follow_ups_held WHERE id IN (SELECT id FROM follow_ups_held
             WHERE lease_until < ? ORDER BY held_at LIMIT ?) RETURNING *`,
        ).all(now, Math.max(1, Math.floor(limit))) as Row[],
    );
    return run
      .immediate()
      .map(toHeldFollowUp)
      .sort((a, b) => a.heldAt - b.heldAt);
  }

  async releaseFlowLeases(owner: string): Promise<number> {
    return this.prepare(
      'UPDATE tracked_flows SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ?',
    ).run(owner).changes;
  }

  async listTrackedFlows(q: TrackedFlowQuery = {}): Promise<TrackedFlow[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, v: unknown) => {
      where.push(sql);
      params.push(v);
    };
    if (q.teamId !== undefined) add('team_id = ?', q.teamId);
    if (q.channelId !== undefined) add('channel_id = ?', q.channelId);
    if (q.requesterId !== undefined) add('requester_id = ?', q.requesterId);
    if (q.since !== undefined) add('created_at >= ?', q.since);
    const sql = `SELECT * FROM tracked_flows ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
                 ORDER BY created_at DESC, flow_id DESC LIMIT ?`;
    return (this.prepare(sql).all(...params, clampLimit(q.limit, 20)) as Row[]).map(toTrackedFlow);
  }

  async appliedMigrations(): Promise<number[]> {
    return (this.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as Row[]).map((r) =>
      Number(r.version),
    );
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}

/**
 * Opening takes the write lock (to migrate). Another process holding it longer than the busy timeout gets
 * SQLite's bare "database is locked"; this says which file, how long the bot waited, and what to do.
 */
function lockedError(err: unknown, file: string, waitedMs: number): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (code !== 'SQLITE_BUSY' && code !== 'SQLITE_LOCKED') return err;
  return Object.assign(
    new Error(
      `the SQLite database ${file} is locked by another process: waited ${waitedMs} ms for it. ` +
        'Another program holds a write transaction open on it; end that, then start again.',
      { cause: err },
    ),
    { code },
  );
}

/** Applies pending migrations under the database write lock, so two processes starting at once are safe. */
function migrate(db: Database.Database): void {
  const run = db.transaction(() => {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
    const applied = new Set(
      (db.prepare('SELECT version FROM schema_migrations').all() as Row[]).map((r) => Number(r.version)),
    );
    for (const m of MIGRATIONS) {
      if (applied.has(m.version)) continue;
      db.exec(m.sqlite);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        m.version,
        m.name,
        Date.now(),
      );
    }
  });
  run.immediate();
}
