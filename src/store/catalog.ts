import type { Dialect, Row } from './sql.js';
import {
  CATALOG_KIND,
  type CatalogEntry,
  type CatalogKind,
  type CatalogLinks,
  type CatalogQuery,
  type CatalogSource,
  type CatalogUpsert,
} from './types.js';

/**
 * The catalog's SQL and rules, shared by both dialects so SQLite and PostgreSQL decide alike: the same
 * conflict clause, the same search subqueries, the same ranking (done here, after the queries).
 */

export const CATALOG_LIMIT_MAX = 100;
const PREFER_MAX = 20;
const NAME_MAX = 500;

/** How names and typed text are compared: NFKC, whitespace collapsed and trimmed, lower-case. */
export function catalogKey(text: string): string {
  return text.normalize('NFKC').replace(/\s+/gu, ' ').trim().toLowerCase();
}

const SOURCES: readonly CatalogSource[] = ['service', 'flow', 'command'];
const RANK: Record<CatalogSource, number> = { service: 3, flow: 2, command: 1 };

/** The same order in SQL; anything unknown (NULL) ranks lowest. */
const rankSql = (col: string) => `(CASE ${col} WHEN 'service' THEN 3 WHEN 'flow' THEN 2 ELSE 1 END)`;

/** Collects a statement's values; each `?` it hands out stands for the next one. */
class Params {
  readonly values: unknown[] = [];
  add(v: unknown): string {
    this.values.push(v);
    return '?';
  }
}

export const CATALOG_COLUMNS =
  'team_id, kind, id, name, name_key, name_source, source, workspace_id, assessment_id, model_id, ' +
  'first_seen_at, last_used_at, missing_at';

export function toCatalogEntry(r: Row): CatalogEntry {
  const str = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return {
    teamId: String(r.team_id),
    kind: r.kind as CatalogKind,
    id: String(r.id),
    name: str(r.name),
    nameSource: str(r.name_source) as CatalogSource | null,
    source: r.source as CatalogSource,
    workspaceId: str(r.workspace_id),
    assessmentId: str(r.assessment_id),
    modelId: str(r.model_id),
    firstSeenAt: Number(r.first_seen_at),
    lastUsedAt: Number(r.last_used_at),
    missingAt: r.missing_at === null || r.missing_at === undefined ? null : Number(r.missing_at),
  };
}

/** One row to write: a batch's entries for the same ID merged into one. */
export interface CatalogRowInput {
  kind: CatalogKind;
  id: string;
  name: string | null;
  nameKey: string | null;
  nameSource: CatalogSource | null;
  source: CatalogSource;
  workspaceId: string | null;
  assessmentId: string | null;
  modelId: string | null;
}

function checkUpsert(e: CatalogUpsert): void {
  if (typeof e.kind !== 'string' || !CATALOG_KIND.test(e.kind)) {
    throw new TypeError(`unknown catalog kind ${JSON.stringify(e.kind)}`);
  }
  if (typeof e.id !== 'string' || e.id === '') throw new TypeError('a catalog entry needs an ID');
  if (!SOURCES.includes(e.source)) throw new TypeError(`unknown catalog source ${JSON.stringify(e.source)}`);
}

const cleanName = (name: string | undefined): string | null => {
  const n = name?.replace(/\s+/gu, ' ').trim();
  return n ? [...n].slice(0, NAME_MAX).join('') : null;
};

/**
 * Merges a batch by the same rules the conflict clause applies, so one statement never touches a row
 * twice, and sorts it by kind and ID: every writer then locks rows in the same order, which keeps
 * concurrent batches from deadlocking.
 */
export function catalogRows(entries: readonly CatalogUpsert[]): CatalogRowInput[] {
  const byKey = new Map<string, CatalogRowInput>();
  for (const e of entries) {
    checkUpsert(e);
    const name = cleanName(e.name);
    const links = e.links ?? {};
    const next: CatalogRowInput = {
      kind: e.kind,
      id: e.id,
      name,
      nameKey: name === null ? null : catalogKey(name),
      nameSource: name === null ? null : e.source,
      source: e.source,
      workspaceId: links.workspace || null,
      assessmentId: links.assessment || null,
      modelId: links.model || null,
    };
    const key = `${e.kind}\u0000${e.id}`;
    const prev = byKey.get(key);
    if (!prev) {
      byKey.set(key, next);
      continue;
    }
    const takeName =
      next.name !== null && (prev.name === null || RANK[next.source] >= RANK[prev.nameSource ?? 'command']);
    const linksWin = RANK[next.source] >= RANK[prev.source];
    const link = (k: 'workspaceId' | 'assessmentId' | 'modelId') =>
      next[k] !== null && (prev[k] === null || linksWin) ? next[k] : prev[k];
    byKey.set(key, {
      kind: e.kind,
      id: e.id,
      name: takeName ? next.name : prev.name,
      nameKey: takeName ? next.nameKey : prev.nameKey,
      nameSource: takeName ? next.nameSource : prev.nameSource,
      source: RANK[next.source] > RANK[prev.source] ? next.source : prev.source,
      workspaceId: link('workspaceId'),
      assessmentId: link('assessmentId'),
      modelId: link('modelId'),
    });
  }
  return [...byKey.values()].sort((a, b) =>
    a.kind !== b.kind ? (a.kind < b.kind ? -1 : 1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  );
}

/**
 * The upsert's conflict clause; the target table is aliased `c`. A name is taken when none is stored, or
 * its source is more trusted, or equally trusted and not older; a link when none is stored or its source
 * is at least as trusted as the entry's. A missing entry is revived only by a service or flow source.
 */
export function catalogConflictClause(d: Dialect): string {
  const inRank = rankSql('excluded.name_source');
  const storedRank = rankSql('c.name_source');
  const takeName = `(excluded.name IS NOT NULL AND (c.name IS NULL OR ${inRank} > ${storedRank}
      OR (${inRank} = ${storedRank} AND excluded.last_used_at >= c.last_used_at)))`;
  const linksWin = `${rankSql('excluded.source')} >= ${rankSql('c.source')}`;
  const link = (col: string) =>
    `${col} = CASE WHEN excluded.${col} IS NOT NULL AND (c.${col} IS NULL OR ${linksWin})
      THEN excluded.${col} ELSE c.${col} END`;
  const named = (col: string) => `${col} = CASE WHEN ${takeName} THEN excluded.${col} ELSE c.${col} END`;
  return `ON CONFLICT (team_id, kind, id) DO UPDATE SET
    ${named('name')}, ${named('name_key')}, ${named('name_source')},
    ${link('workspace_id')}, ${link('assessment_id')}, ${link('model_id')},
    source = CASE WHEN ${rankSql('excluded.source')} > ${rankSql('c.source')} THEN excluded.source ELSE c.source END,
    first_seen_at = ${d.least}(c.first_seen_at, excluded.first_seen_at),
    last_used_at = ${d.greatest}(c.last_used_at, excluded.last_used_at),
    missing_at = NULL
  WHERE c.missing_at IS NULL OR excluded.source <> 'command'`;
}

/** The smallest string greater than every string that starts with `prefix`, or null if there is none. */
function prefixEnd(prefix: string): string | null {
  const cps = [...prefix];
  while (cps.length) {
    const cp = cps.pop()!.codePointAt(0)!;
    if (cp < 0x10ffff) {
      const next = cp + 1 === 0xd800 ? 0xe000 : cp + 1;
      return cps.join('') + String.fromCodePoint(next);
    }
  }
  return null;
}

function baseWhere(p: Params, teamId: string, kind: CatalogKind, links: CatalogLinks | undefined): string {
  const where = [`team_id = ${p.add(teamId)}`, `kind = ${p.add(kind)}`, 'missing_at IS NULL'];
  if (links?.workspace) where.push(`workspace_id = ${p.add(links.workspace)}`);
  if (links?.assessment) where.push(`assessment_id = ${p.add(links.assessment)}`);
  if (links?.model) where.push(`model_id = ${p.add(links.model)}`);
  return where.join(' AND ');
}

export function clampCatalogLimit(limit: number | undefined, fallback = CATALOG_LIMIT_MAX): number {
  if (limit === undefined || !Number.isFinite(limit)) return fallback;
  return Math.max(1, Math.min(CATALOG_LIMIT_MAX, Math.floor(limit)));
}

/**
 * One statement of bounded subqueries, each served by an index: preferred IDs (primary key), exact
 * and prefix name (team, kind, name_key), ID prefix (primary key), and the most recent substring
 * matches (team, kind, last_used_at). Each takes at most `limit` rows; `rankCatalog` orders the union.
 * That is enough: every tier's best `limit` rows are in the subquery that serves it.
 */
export function catalogSearchSql(d: Dialect, q: CatalogQuery): { sql: string; params: unknown[] } {
  const p = new Params();
  const limit = clampCatalogLimit(q.limit);
  const key = catalogKey(q.text ?? '');
  const parts: string[] = [];
  const sub = (where: string, order: string) =>
    `SELECT ${CATALOG_COLUMNS} FROM (SELECT ${CATALOG_COLUMNS} FROM catalog_entries WHERE ${where} ${order}) AS q${parts.length}`;
  const contains = (k: string) =>
    `(${d.position}(name_key, ${p.add(k)}) > 0 OR ${d.position}(id, ${p.add(k)}) > 0)`;
  const startsWith = (col: string, k: string) => {
    const end = prefixEnd(k);
    const range = `${col} >= ${p.add(k)}${end === null ? '' : ` AND ${col} < ${p.add(end)}`}`;
    return `${range} AND substr(${col}, 1, ${p.add([...k].length)}) = ${p.add(k)}`;
  };
  const base = () => baseWhere(p, q.teamId, q.kind, q.links);
  const recent = (where: string) => parts.push(sub(where, `ORDER BY last_used_at DESC, id LIMIT ${limit}`));
  const prefer = [...new Set(q.prefer ?? [])].filter((id) => id !== '').slice(0, PREFER_MAX);
  if (prefer.length) {
    const where = `${base()} AND id IN (${prefer.map((id) => p.add(id)).join(', ')})`;
    parts.push(sub(key ? `${where} AND ${contains(key)}` : where, ''));
  }
  if (key) {
    recent(`${base()} AND name_key = ${p.add(key)}`);
    recent(`${base()} AND ${startsWith('name_key', key)}`);
    recent(`${base()} AND ${startsWith('id', key)}`);
    recent(`${base()} AND ${contains(key)}`);
  } else {
    recent(base());
  }
  return { sql: parts.join('\nUNION ALL\n'), params: p.values };
}

/** Orders the search's rows (see `Store.searchCatalog`) and cuts them to the limit. */
export function rankCatalog(rows: Row[], q: CatalogQuery): CatalogEntry[] {
  const key = catalogKey(q.text ?? '');
  const prefer = [...new Set(q.prefer ?? [])];
  const seen = new Map<string, { e: CatalogEntry; name: string | null }>();
  for (const r of rows) {
    const e = toCatalogEntry(r);
    if (!seen.has(e.id)) seen.set(e.id, { e, name: r.name_key === null ? null : String(r.name_key) });
  }
  const tier = ({ e, name }: { e: CatalogEntry; name: string | null }): number => {
    if (prefer.includes(e.id)) return 0;
    if (!key) return 3;
    if (name === key || e.id === key) return 1;
    if (name?.startsWith(key) || e.id.startsWith(key)) return 2;
    return 3;
  };
  const ranked = [...seen.values()].map((s) => ({ e: s.e, t: tier(s) }));
  ranked.sort(
    (a, b) =>
      a.t - b.t ||
      (a.t === 0 ? prefer.indexOf(a.e.id) - prefer.indexOf(b.e.id) : 0) ||
      b.e.lastUsedAt - a.e.lastUsedAt ||
      (a.e.id < b.e.id ? -1 : a.e.id > b.e.id ? 1 : 0),
  );
  return ranked.slice(0, clampCatalogLimit(q.limit)).map((r) => r.e);
}

export function catalogByNameSql(
  teamId: string,
  kind: CatalogKind,
  name: string,
  options: { links?: CatalogLinks; limit?: number },
): { sql: string; params: unknown[] } {
  const p = new Params();
  const where = `${baseWhere(p, teamId, kind, options.links)} AND name_key = ${p.add(catalogKey(name))}`;
  return {
    sql: `SELECT ${CATALOG_COLUMNS} FROM catalog_entries WHERE ${where}
      ORDER BY last_used_at DESC, id LIMIT ${clampCatalogLimit(options.limit, 25)}`,
    params: p.values,
  };
}
