import {
  CATALOG_COLUMNS,
  catalogByNameSql,
  catalogConflictClause,
  catalogRows,
  catalogSearchSql,
  rankCatalog,
  toCatalogEntry,
} from '../catalog.js';
import { all, insertRows, one, oneWriter, run, statements } from '../sql.js';
import type { CatalogKind, CatalogLinks, CatalogQuery, CatalogUpsert } from '../types.js';

/** The rows go in catalogRows' order, so replicas writing overlapping batches lock rows alike. */
export const upsertCatalog = (teamId: string, entries: readonly CatalogUpsert[], at: number) =>
  oneWriter((d) =>
    insertRows({
      into: `INSERT INTO catalog_entries AS c (team_id, kind, id, name, name_key, name_source, source,
         workspace_id, assessment_id, model_id, first_seen_at, last_used_at)`,
      tuple: '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      onConflict: catalogConflictClause(d),
      rows: catalogRows(entries).map((r) => [
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
      ]),
    }),
  );

export const getCatalogEntry = (teamId: string, kind: CatalogKind, id: string) =>
  statements(function* () {
    const row = yield* one(
      `SELECT ${CATALOG_COLUMNS} FROM catalog_entries WHERE team_id = ? AND kind = ? AND id = ?`,
      [teamId, kind, id],
    );
    return row ? toCatalogEntry(row) : null;
  });

export const searchCatalog = (query: CatalogQuery) =>
  statements(function* (d) {
    const { sql, params } = catalogSearchSql(d, query);
    return rankCatalog(yield* all(sql, params), query);
  });

export const findCatalogByName = (
  teamId: string,
  kind: CatalogKind,
  name: string,
  options: { links?: CatalogLinks; limit?: number },
) =>
  statements(function* () {
    const { sql, params } = catalogByNameSql(teamId, kind, name, options);
    return (yield* all(sql, params)).map(toCatalogEntry);
  });

/** The tombstone is written after the update, so an entry recorded between the two is hidden too. */
export const forgetCatalogEntry = (teamId: string, kind: CatalogKind, id: string, at: number) =>
  oneWriter(function* (d) {
    const hidden = yield* run(
      `UPDATE catalog_entries SET missing_at = ?, last_used_at = ${d.greatest}(last_used_at, ?)
       WHERE team_id = ? AND kind = ? AND id = ? AND missing_at IS NULL`,
      [at, at, teamId, kind, id],
    );
    yield* run(
      `INSERT INTO catalog_entries AS c (team_id, kind, id, source, first_seen_at, last_used_at, missing_at)
       VALUES (?, ?, ?, 'service', ?, ?, ?)
       ON CONFLICT (team_id, kind, id) DO UPDATE SET missing_at = COALESCE(c.missing_at, excluded.missing_at),
         last_used_at = ${d.greatest}(c.last_used_at, excluded.last_used_at)`,
      [teamId, kind, id, at, at, at],
    );
    return hidden > 0;
  });

export const pruneCatalog = (before: number) =>
  statements(() => run('DELETE FROM catalog_entries WHERE last_used_at < ?', [before]));
