import type { CatalogKind, CatalogLinks, CatalogUpsert, Store } from '../../store/index.js';
import { type Now, nowMs } from '../clock.js';
import { every } from '../every.js';
import { isServiceId } from '../ids.js';
import type { CatalogChange } from '../operations/registry/entry.js';
import { entryOf, type ServiceOperation } from '../operations/registry/index.js';
import type { ReturnedRecord } from './returned.js';

export type { ReturnedRecord } from './returned.js';

/**
 * What one successful operation saw. `returned` is the service's record, for the requests whose reply
 * names a resource (the entry's outcome's `seen`).
 */
export interface OperationSeen {
  request: ServiceOperation;
  returned?: ReturnedRecord;
}

/**
 * The catalog entries one successful operation justifies. Names come from the service's record, and
 * from signal labels typed by users; every other ID is recorded by itself, with the links the request
 * states (a model's workspace and assessment). Output signals are recorded without a name: theirs is
 * the model's output name, not a label of the signal. Entries whose ID is not service-shaped are
 * dropped, links that are not are left out.
 */
export function entriesFromOperation(op: OperationSeen): CatalogUpsert[] {
  return clean(entryOf(op.request).catalog(op.request, op.returned).add);
}

/**
 * A model's workspace link decides whose approvers decide its live start or stop, so it is only ever the
 * service's word: the workspace a lookup's record gives, the one a move the service accepted put it in,
 * or the one a flow created it in (an entry declares that link only on the model it creates). A workspace
 * a request merely names (a relearn's or a score's `workspace=`) is never linked.
 */
function clean(entries: CatalogUpsert[]): CatalogUpsert[] {
  const out: CatalogUpsert[] = [];
  for (const e of entries) {
    if (!isServiceId(e.id)) continue;
    const links: CatalogLinks = {};
    for (const k of ['workspace', 'assessment', 'model'] as const) {
      const v = e.links?.[k];
      if (v !== undefined && isServiceId(v)) links[k] = v;
    }
    const name = e.name?.trim();
    out.push({
      kind: e.kind,
      id: e.id,
      source: e.source,
      ...(name && name !== e.id ? { name } : {}),
      ...(Object.keys(links).length ? { links } : {}),
    });
  }
  return out;
}

export interface Recording {
  teamId: string;
  now?: Now;
}

/**
 * Records what a successful operation saw. Call it only after the service accepted the request; a
 * failure here should be logged, not shown: the operation itself succeeded.
 */
export async function recordOperation(store: Store, op: OperationSeen & Recording): Promise<void> {
  await recordChange(store, {
    ...entryOf(op.request).catalog(op.request, op.returned),
    teamId: op.teamId,
    ...(op.now ? { now: op.now } : {}),
  });
}

/**
 * Records a change to a team's catalog: what an operation or a completed flow (by its entry's declared
 * outputs) names, and what the service said is gone. See `recordOperation` for failures.
 */
export async function recordChange(store: Store, change: CatalogChange & Recording): Promise<void> {
  await store.upsertCatalog(change.teamId, clean(change.add), nowMs(change.now));
  for (const gone of change.remove ?? [])
    await forgetMissing(store, {
      teamId: change.teamId,
      ...gone,
      ...(change.now ? { now: change.now } : {}),
    });
}

/**
 * The resource a "not found" answer (HTTP 404) to `request` is about, when the request's path names
 * exactly one resource; null when the answer could be about several (a move's model or its
 * destination) and nothing may be concluded.
 */
export function missingResource(
  request: ServiceOperation,
  status: number | undefined,
): { kind: CatalogKind; id: string } | null {
  if (status !== 404) return null;
  return entryOf(request).notFound?.(request) ?? null;
}

/** The service said the ID does not exist: it is no longer offered, and commands cannot add it back. */
export async function forgetMissing(
  store: Store,
  o: { teamId: string; kind: CatalogKind; id: string; now?: Now },
): Promise<boolean> {
  return store.forgetCatalogEntry(o.teamId, o.kind, o.id, nowMs(o.now));
}

/** Entries unused for this long are pruned, tombstones included. */
export const CATALOG_RETENTION_DAYS = 180;
const DAY_MS = 86_400_000;

/** Deletes entries last used more than `retentionDays` before now; returns how many. */
export function pruneCatalog(store: Store, o: { now?: Now; retentionDays?: number } = {}): Promise<number> {
  const days = o.retentionDays ?? CATALOG_RETENTION_DAYS;
  return store.pruneCatalog(nowMs(o.now) - days * DAY_MS);
}

/**
 * Prunes the catalog now and then every `intervalMs` (default 6 h). Prunes never overlap; replicas may
 * prune at once (a delete of what is already gone deletes nothing).
 */
export function startCatalogPruner(
  store: Store,
  o: { intervalMs?: number; now?: Now; retentionDays?: number; onError?: (err: unknown) => void } = {},
): { stop(): Promise<void> } {
  return every(o.intervalMs ?? 6 * 3_600_000, () =>
    pruneCatalog(store, o).then(
      () => {},
      (err: unknown) => o.onError?.(err),
    ),
  );
}
