import type { CatalogKind, CatalogLinks, CatalogUpsert, Store } from '../../store/index.js';
import { type Now, nowMs } from '../clock.js';
import { isServiceId } from '../ids.js';
import { entryOf, type ServiceOperation } from '../operations/registry/index.js';
import type { ReturnedRecord } from './returned-model.js';

export type { ReturnedRecord } from './returned-model.js';

/**
 * What one successful operation saw. `returned` is the service's record, for the requests whose reply
 * names a resource (the entry's outcome's `seen`).
 */
export interface OperationSeen {
  request: ServiceOperation;
  returned?: ReturnedRecord;
}

/** What a finished flow produced; only for flows that completed. Every part is optional. */
export interface FlowResultSeen {
  /** The flow's workspace (`spec.workspace`). */
  workspaceId?: string;
  /** The model an ANOMALYLEARN created or taught. */
  model?: { id: string; name?: string; workspaceId?: string; assessmentId?: string };
  /** The dataspec a completed ANOMALYLEARN yields; `name` is the inline dataspec's name when known. */
  dataspec?: { id: string; name?: string; modelId?: string };
  /** The Eval object a completed ANOMALYEVAL creates. */
  eval?: { id: string; name?: string; modelId?: string; workspaceId?: string };
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

/** The catalog entries a completed flow justifies, all with source `flow`. */
export function entriesFromFlowResult(result: FlowResultSeen): CatalogUpsert[] {
  const out: CatalogUpsert[] = [];
  const ws = result.workspaceId;
  if (ws) out.push({ kind: 'workspace', id: ws, source: 'flow' });
  const m = result.model;
  if (m) {
    out.push({
      kind: 'model',
      id: m.id,
      name: m.name,
      source: 'flow',
      links: { workspace: m.workspaceId ?? ws, assessment: m.assessmentId },
    });
  }
  const d = result.dataspec;
  if (d) {
    out.push({
      kind: 'dataspec',
      id: d.id,
      name: d.name,
      source: 'flow',
      links: { model: d.modelId ?? m?.id, workspace: ws },
    });
  }
  const e = result.eval;
  if (e) {
    out.push({
      kind: 'eval',
      id: e.id,
      name: e.name,
      source: 'flow',
      links: { model: e.modelId ?? m?.id, workspace: e.workspaceId ?? ws },
    });
  }
  return clean(out);
}

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
  const change = entryOf(op.request).catalog(op.request, op.returned);
  await store.upsertCatalog(op.teamId, clean(change.add), nowMs(op.now));
  for (const gone of change.remove ?? [])
    await forgetMissing(store, { teamId: op.teamId, ...gone, ...(op.now ? { now: op.now } : {}) });
}

/** Records what a completed flow produced (see `recordOperation` for failures). */
export async function recordFlowResult(store: Store, result: FlowResultSeen & Recording): Promise<void> {
  await store.upsertCatalog(result.teamId, entriesFromFlowResult(result), nowMs(result.now));
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
  let running: Promise<void> | undefined;
  const prune = () => {
    if (running) return;
    running = pruneCatalog(store, o)
      .then(
        () => {},
        (err: unknown) => o.onError?.(err),
      )
      .finally(() => {
        running = undefined;
      });
  };
  prune();
  const timer = setInterval(prune, o.intervalMs ?? 6 * 3_600_000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
