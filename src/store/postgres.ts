import { randomUUID } from 'node:crypto';
import pg from 'pg';
import {
  CATALOG_COLUMNS,
  catalogByNameSql,
  catalogConflictClause,
  catalogRows,
  catalogSearchSql,
  POSTGRES_DIALECT,
  rankCatalog,
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

/** Arbitrary constant key for pg_advisory_lock: serialises migrations across replicas starting at once. */
const MIGRATION_LOCK_KEY = 7_305_113_402;

export interface PostgresStoreOptions {
  /** Schema to use (created when missing); default: the connection's search_path. Tests use one per run. */
  schema?: string;
  /** Pool size; default 10. */
  max?: number;
  /** How long a new connection may take before the query that wanted it fails; default 5 s. */
  connectTimeoutMs?: number;
}

/** PostgreSQL store. Every state transition is one `UPDATE ... WHERE <expected state> RETURNING *`. */
export class PostgresStore implements Store {
  readonly kind = 'postgres' as const;
  private readonly pool: pg.Pool;

  private constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  static async open(connectionString: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const schema = options.schema;
    if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
      throw new Error(`invalid schema name "${schema}": use lower-case letters, digits and _`);
    }
    const pool = new pg.Pool({
      connectionString,
      max: options.max ?? 10,
      // A server that accepts no connection (stopped, or a network that drops packets) fails a query
      // after this instead of holding it forever; the pool reconnects on the next one.
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    pool.on('error', () => {});
    try {
      await migrate(pool, schema);
    } catch (err) {
      await pool.end();
      throw err;
    }
    return new PostgresStore(pool);
  }

  private async one(sql: string, params: unknown[]): Promise<Row | null> {
    const res = await this.pool.query(sql, params);
    return (res.rows[0] as Row | undefined) ?? null;
  }

  private async all(sql: string, params: unknown[]): Promise<Row[]> {
    return (await this.pool.query(sql, params)).rows as Row[];
  }

  async createApproval(input: NewApprovalRequest): Promise<ApprovalRequest> {
    const row = await this.one(
      `INSERT INTO approvals (id, action, model_id, assessment_id, reason, requester_id, team_id,
         origin_channel_id, approvals_channel_id, status, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending', $10, $11) RETURNING *`,
      [
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
      ],
    );
    return toApproval(row!);
  }

  async getApproval(id: string): Promise<ApprovalRequest | null> {
    const row = await this.one('SELECT * FROM approvals WHERE id = $1', [id]);
    return row ? toApproval(row) : null;
  }

  async listApprovals(query: ApprovalQuery = {}): Promise<ApprovalRequest[]> {
    const statuses = query.statuses ?? [];
    const params: unknown[] = [clampLimit(query.limit, 100)];
    const where: string[] = [];
    const add = (sql: (p: string) => string, v: unknown) => {
      params.push(v);
      where.push(sql(`$${params.length}`));
    };
    if (statuses.length) add((p) => `status = ANY(${p}::text[])`, statuses);
    if (query.teamId !== undefined) add((p) => `team_id = ${p}`, query.teamId);
    if (query.requesterId !== undefined) add((p) => `requester_id = ${p}`, query.requesterId);
    const rows = await this.all(
      `SELECT * FROM approvals ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY created_at DESC, id LIMIT $1`,
      params,
    );
    return rows.map(toApproval);
  }

  async setApprovalMessage(id: string, channelId: string, messageTs: string): Promise<void> {
    await this.pool.query('UPDATE approvals SET approvals_channel_id = $1, message_ts = $2 WHERE id = $3', [
      channelId,
      messageTs,
      id,
    ]);
  }

  async decideApproval(input: DecideInput): Promise<TransitionResult> {
    // Concurrent UPDATEs on one row serialise on its row lock; the losers re-check the WHERE clause
    // against the committed winner and match nothing.
    const row =
      input.decision === 'approve'
        ? await this.one(
            `UPDATE approvals SET status = 'executing', decided_by = $1, decided_at = $2,
               attempts = attempts + 1, last_attempt_by = $1, last_attempt_at = $2
             WHERE id = $3 AND status = 'pending' AND expires_at > $2 RETURNING *`,
            [input.by, input.at, input.id],
          )
        : await this.one(
            `UPDATE approvals SET status = 'rejected', decided_by = $1, decided_at = $2, reject_reason = $4,
               finished_at = $2
             WHERE id = $3 AND status = 'pending' AND expires_at > $2 RETURNING *`,
            [input.by, input.at, input.id, input.reason ?? null],
          );
    if (row) return { ok: true, request: toApproval(row) };
    const expired = await this.pool.query(
      `UPDATE approvals SET status = 'expired', finished_at = $2
       WHERE id = $1 AND status = 'pending' AND expires_at <= $2`,
      [input.id, input.at],
    );
    const current = await this.getApproval(input.id);
    return (expired.rowCount ?? 0) > 0 ? { ok: false, current, expiredNow: true } : { ok: false, current };
  }

  async claimRetry(id: string, by: string, at: number): Promise<TransitionResult> {
    return this.transition(
      `UPDATE approvals SET status = 'executing', attempts = attempts + 1, last_attempt_by = $2,
         last_attempt_at = $3, error = NULL, finished_at = NULL
       WHERE id = $1 AND status = 'failed' RETURNING *`,
      [id, by, at],
      id,
    );
  }

  async recordExecution(id: string, outcome: ExecutionOutcome, at: number): Promise<TransitionResult> {
    const executed = outcome.status === 'executed';
    return this.transition(
      `UPDATE approvals SET status = $2, flow_id = $3, flow_status = $4, error = $5, finished_at = $6
       WHERE id = $1 AND status IN ('executing', 'unknown') RETURNING *`,
      [
        id,
        outcome.status,
        executed ? outcome.flowId : null,
        executed ? (outcome.flowStatus ?? null) : null,
        executed ? null : outcome.error,
        at,
      ],
      id,
    );
  }

  private async transition(sql: string, params: unknown[], id: string): Promise<TransitionResult> {
    const row = await this.one(sql, params);
    return row ? { ok: true, request: toApproval(row) } : { ok: false, current: await this.getApproval(id) };
  }

  async expireDue(now: number): Promise<ApprovalRequest[]> {
    const rows = await this.all(
      `UPDATE approvals SET status = 'expired', finished_at = $1
       WHERE status = 'pending' AND expires_at <= $1 RETURNING *`,
      [now],
    );
    return rows.map(toApproval);
  }

  async markInterrupted(claimedBefore: number, at: number): Promise<ApprovalRequest[]> {
    const rows = await this.all(
      `UPDATE approvals SET status = 'unknown', finished_at = $2,
         error = 'The bot stopped while creating the flow; its outcome is unknown.'
       WHERE status = 'executing' AND last_attempt_at <= $1 RETURNING *`,
      [claimedBefore, at],
    );
    return rows.map(toApproval);
  }

  async appendAudit(e: NewAuditEntry): Promise<AuditEntry> {
    const row = await this.one(
      `INSERT INTO audit_log (at, user_id, team_id, channel_id, operation, params, outcome, flow_id,
         flow_status, error, request_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING *`,
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
  }

  async listAudit(query: AuditQuery = {}): Promise<AuditEntry[]> {
    const params: unknown[] = [clampLimit(query.limit, 20)];
    const where: string[] = [];
    if (query.channelId !== undefined) {
      params.push(query.channelId);
      where.push(`channel_id = $${params.length}`);
    }
    const prefixes = query.operationPrefixes ?? [];
    if (prefixes.length) {
      params.push(prefixes);
      where.push(
        `EXISTS (SELECT 1 FROM unnest($${params.length}::text[]) p WHERE starts_with(operation, p))`,
      );
    }
    const rows = await this.all(
      `SELECT * FROM audit_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY at DESC, id DESC LIMIT $1`,
      params,
    );
    return rows.map(toAudit);
  }

  async listUserChannels(q: UserChannelsQuery): Promise<UserChannel[]> {
    const rows = await this.all(
      `SELECT channel_id, MAX(at) AS last_at FROM audit_log
       WHERE team_id = $1 AND user_id = $2 AND at >= $3 AND channel_id IS NOT NULL
       GROUP BY channel_id ORDER BY last_at DESC, channel_id LIMIT $4`,
      [q.teamId, q.userId, q.since ?? 0, clampLimit(q.limit, 20)],
    );
    return rows.map((r) => ({ channelId: String(r.channel_id), lastAt: Number(r.last_at) }));
  }

  async getChannelDefaults(channelId: string): Promise<StoredChannelDefaults | null> {
    const row = await this.one('SELECT * FROM channel_defaults WHERE channel_id = $1', [channelId]);
    return row ? toChannelDefaults(row) : null;
  }

  async setChannelDefaults(
    channelId: string,
    values: ChannelDefaults,
    by: string,
    at: number,
  ): Promise<StoredChannelDefaults> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // Lock the channel's row (or, when absent, serialise on the insert) so two merges do not lose keys.
      const current = await client.query('SELECT * FROM channel_defaults WHERE channel_id = $1 FOR UPDATE', [
        channelId,
      ]);
      const m = mergeDefaults(current.rows[0] ? toChannelDefaults(current.rows[0] as Row) : null, values);
      const res = await client.query(
        `INSERT INTO channel_defaults (channel_id, workspace, datastream, model, assessment, entities,
           updated_by, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (channel_id) DO UPDATE SET workspace = excluded.workspace,
           datastream = excluded.datastream, model = excluded.model, assessment = excluded.assessment,
           entities = excluded.entities, updated_by = excluded.updated_by, updated_at = excluded.updated_at
         RETURNING *`,
        [channelId, m.workspace, m.datastream, m.model, m.assessment, m.entities, by, at],
      );
      await client.query('COMMIT');
      return toChannelDefaults(res.rows[0] as Row);
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  async clearChannelDefaults(channelId: string): Promise<boolean> {
    const res = await this.pool.query('DELETE FROM channel_defaults WHERE channel_id = $1', [channelId]);
    return (res.rowCount ?? 0) > 0;
  }

  async upsertCatalog(teamId: string, entries: readonly CatalogUpsert[], at: number): Promise<void> {
    const rows = catalogRows(entries);
    if (rows.length === 0) return;
    // One statement for the batch, its rows in catalogRows' order (WITH ORDINALITY): replicas writing
    // overlapping batches take the row locks in the same order.
    await this.pool.query(
      `INSERT INTO catalog_entries AS c (team_id, kind, id, name, name_key, name_source, source,
         workspace_id, assessment_id, model_id, first_seen_at, last_used_at)
       SELECT $1, u.kind, u.id, u.name, u.name_key, u.name_source, u.source, u.workspace_id,
         u.assessment_id, u.model_id, $2, $2
       FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
         $10::text[], $11::text[])
         WITH ORDINALITY AS u(kind, id, name, name_key, name_source, source, workspace_id, assessment_id,
           model_id, ord)
       ORDER BY u.ord
       ${catalogConflictClause(POSTGRES_DIALECT)}`,
      [
        teamId,
        at,
        rows.map((r) => r.kind),
        rows.map((r) => r.id),
        rows.map((r) => r.name),
        rows.map((r) => r.nameKey),
        rows.map((r) => r.nameSource),
        rows.map((r) => r.source),
        rows.map((r) => r.workspaceId),
        rows.map((r) => r.assessmentId),
        rows.map((r) => r.modelId),
      ],
    );
  }

  async getCatalogEntry(teamId: string, kind: CatalogKind, id: string): Promise<CatalogEntry | null> {
    const row = await this.one(
      `SELECT ${CATALOG_COLUMNS} FROM catalog_entries WHERE team_id = $1 AND kind = $2 AND id = $3`,
      [teamId, kind, id],
    );
    return row ? toCatalogEntry(row) : null;
  }

  async searchCatalog(query: CatalogQuery): Promise<CatalogEntry[]> {
    const { sql, params } = catalogSearchSql(POSTGRES_DIALECT, query);
    return rankCatalog(await this.all(sql, params), query);
  }

  async findCatalogByName(
    teamId: string,
    kind: CatalogKind,
    name: string,
    options: { links?: CatalogLinks; limit?: number } = {},
  ): Promise<CatalogEntry[]> {
    const { sql, params } = catalogByNameSql(POSTGRES_DIALECT, teamId, kind, name, options);
    return (await this.all(sql, params)).map(toCatalogEntry);
  }

  async forgetCatalogEntry(teamId: string, kind: CatalogKind, id: string, at: number): Promise<boolean> {
    const hidden = await this.pool.query(
      `UPDATE catalog_entries SET missing_at = $4, last_used_at = GREATEST(last_used_at, $4)
       WHERE team_id = $1 AND kind = $2 AND id = $3 AND missing_at IS NULL`,
      [teamId, kind, id, at],
    );
    // An entry recorded between the two statements is hidden too.
    await this.pool.query(
      `INSERT INTO catalog_entries AS c (team_id, kind, id, source, first_seen_at, last_used_at, missing_at)
       VALUES ($1, $2, $3, 'service', $4, $4, $4)
       ON CONFLICT (team_id, kind, id) DO UPDATE SET missing_at = COALESCE(c.missing_at, excluded.missing_at),
         last_used_at = GREATEST(c.last_used_at, excluded.last_used_at)`,
      [teamId, kind, id, at],
    );
    return (hidden.rowCount ?? 0) > 0;
  }

  async pruneCatalog(before: number): Promise<number> {
    const res = await this.pool.query('DELETE FROM catalog_entries WHERE last_used_at < $1', [before]);
    return res.rowCount ?? 0;
  }

  async getState<T = unknown>(key: string): Promise<T | null> {
    const row = await this.one('SELECT value FROM bot_state WHERE key = $1', [key]);
    return row ? (JSON.parse(String(row.value)) as T) : null;
  }

  async setState(key: string, value: unknown, at: number): Promise<void> {
    await this.pool.query(
      `INSERT INTO bot_state (key, value, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      [key, JSON.stringify(value), at],
    );
  }

  async markRequestSeen(key: string, now: number, expiresAt: number): Promise<boolean> {
    const res = await this.pool.query(
      `INSERT INTO requests_seen (key, expires_at) VALUES ($1, $2)
       ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at WHERE requests_seen.expires_at <= $3`,
      [key, expiresAt, now],
    );
    return (res.rowCount ?? 0) > 0;
  }

  async pruneRequestsSeen(now: number): Promise<void> {
    await this.pool.query('DELETE FROM requests_seen WHERE expires_at <= $1', [now]);
  }

  async trackFlow(f: NewTrackedFlow): Promise<TrackedFlow> {
    await this.pool.query(
      `INSERT INTO tracked_flows (flow_id, flow_type, team_id, channel_id, requester_id, origin, asked, request,
         approval_id, status, status_changed_at, created_at, next_poll_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12) ON CONFLICT (flow_id) DO NOTHING`,
      [
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
        f.nextPollAt,
      ],
    );
    return (await this.getTrackedFlow(f.flowId))!;
  }

  async getTrackedFlow(flowId: string): Promise<TrackedFlow | null> {
    const row = await this.one('SELECT * FROM tracked_flows WHERE flow_id = $1', [flowId]);
    return row ? toTrackedFlow(row) : null;
  }

  async setFlowAnnouncement(flowId: string, announcement: FlowAnnouncement): Promise<TrackedFlow | null> {
    const row = await this.one('UPDATE tracked_flows SET announcement = $2 WHERE flow_id = $1 RETURNING *', [
      flowId,
      JSON.stringify(announcement),
    ]);
    return row ? toTrackedFlow(row) : null;
  }

  async claimDueFlows(o: {
    owner: string;
    now: number;
    leaseMs: number;
    limit: number;
  }): Promise<TrackedFlow[]> {
    // SKIP LOCKED: replicas claiming at the same moment each take other rows instead of waiting on each
    // other's, and a row another transaction is leasing right now is never taken twice.
    const rows = await this.all(
      `UPDATE tracked_flows SET lease_owner = $1, lease_until = $2
       WHERE flow_id IN (SELECT flow_id FROM tracked_flows
         WHERE finished_at IS NULL AND next_poll_at <= $3 AND (lease_until IS NULL OR lease_until < $3)
         ORDER BY next_poll_at LIMIT $4 FOR UPDATE SKIP LOCKED)
       RETURNING *`,
      [o.owner, o.now + o.leaseMs, o.now, Math.max(1, Math.floor(o.limit))],
    );
    return rows.map(toTrackedFlow);
  }

  async updateTrackedFlow(
    flowId: string,
    owner: string,
    patch: TrackedFlowPatch,
  ): Promise<TrackedFlow | null> {
    const columns = trackedFlowColumns(patch);
    if (columns.length === 0) {
      const row = await this.one('SELECT * FROM tracked_flows WHERE flow_id = $1 AND lease_owner = $2', [
        flowId,
        owner,
      ]);
      return row ? toTrackedFlow(row) : null;
    }
    const row = await this.one(
      `UPDATE tracked_flows SET ${columns.map(([c], i) => `${c} = $${i + 3}`).join(', ')}
       WHERE flow_id = $1 AND lease_owner = $2 RETURNING *`,
      [flowId, owner, ...columns.map(([, v]) => v)],
    );
    return row ? toTrackedFlow(row) : null;
  }

  async holdFollowUps(owner: string, leaseUntil: number, followUps: readonly HeldFollowUp[]): Promise<void> {
    if (followUps.length === 0) return;
    await this.pool.query(
      `INSERT INTO follow_ups_held (id, owner, lease_until, notice, held_at)
       SELECT id, $1, $2, notice, held_at FROM unnest($3::text[], $4::text[], $5::bigint[]) AS f(id, notice, held_at)
       ON CONFLICT (id) DO NOTHING`,
      [
        owner,
        leaseUntil,
        followUps.map((f) => f.id),
        followUps.map((f) => JSON.stringify(f.notice)),
        followUps.map((f) => f.heldAt),
      ],
    );
  }

  async renewFollowUps(owner: string, leaseUntil: number): Promise<number> {
    const res = await this.pool.query('UPDATE follow_ups_held SET lease_until = $2 WHERE owner = $1', [
      owner,
      leaseUntil,
    ]);
    return res.rowCount ?? 0;
  }

  async releaseFollowUps(owner: string, ids?: readonly string[]): Promise<number> {
    if (ids?.length === 0) return 0;
    const res = ids
      ? await this.pool.query('DELETE FROM follow_ups_held WHERE owner = $1 AND id = ANY($2::text[])', [
          owner,
          [...ids],
        ])
      : await this.pool.query('DELETE FROM follow_ups_held WHERE owner = $1', [owner]);
    return res.rowCount ?? 0;
  }

  async takeAbandonedFollowUps(now: number, limit: number): Promise<HeldFollowUp[]> {
    // SKIP LOCKED: replicas taking at once each get other holds, and none is told twice.
    const rows = await this.all(
      `DELETE FROM follow_ups_held WHERE id IN (SELECT id FROM follow_ups_held
         WHERE lease_until < $1 ORDER BY held_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING *`,
      [now, Math.max(1, Math.floor(limit))],
    );
    return rows.map(toHeldFollowUp).sort((a, b) => a.heldAt - b.heldAt);
  }

  async releaseFlowLeases(owner: string): Promise<number> {
    const res = await this.pool.query(
      'UPDATE tracked_flows SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = $1',
      [owner],
    );
    return res.rowCount ?? 0;
  }

  async listTrackedFlows(q: TrackedFlowQuery = {}): Promise<TrackedFlow[]> {
    const params: unknown[] = [clampLimit(q.limit, 20)];
    const where: string[] = [];
    const add = (column: string, op: string, v: unknown) => {
      params.push(v);
      where.push(`${column} ${op} $${params.length}`);
    };
    if (q.teamId !== undefined) add('team_id', '=', q.teamId);
    if (q.channelId !== undefined) add('channel_id', '=', q.channelId);
    if (q.requesterId !== undefined) add('requester_id', '=', q.requesterId);
    if (q.since !== undefined) add('created_at', '>=', q.since);
    const rows = await this.all(
      `SELECT * FROM tracked_flows ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY created_at DESC, flow_id DESC LIMIT $1`,
      params,
    );
    return rows.map(toTrackedFlow);
  }

  async appliedMigrations(): Promise<number[]> {
    const rows = await this.all('SELECT version FROM schema_migrations ORDER BY version', []);
    return rows.map((r) => Number(r.version));
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/**
 * Applies pending migrations while holding a session advisory lock, so replicas starting at the same
 * time apply each migration exactly once (the second waits, then finds nothing left to do).
 */
async function migrate(pool: pg.Pool, schema: string | undefined): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      if (schema) await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`);
      const applied = new Set(
        (await client.query('SELECT version FROM schema_migrations')).rows.map((r) => Number(r.version)),
      );
      for (const m of MIGRATIONS) {
        if (applied.has(m.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(m.postgres);
          await client.query(
            'INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)',
            [m.version, m.name, Date.now()],
          );
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK').catch(() => {});
          throw err;
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}
