import type { CatalogLinks, CatalogSource, CatalogUpsert } from '../../../store/index.js';
import type { ResourceKind } from '../../catalog/kind.js';
import type { ReturnedRecord } from '../../catalog/returned.js';
import type { SignalRef } from '../../grammar/types.js';
import { DATASPEC, MODEL, SIGNAL, WORKSPACE } from '../../kinds/resources.js';
import type { ResolvedData } from '../requests.js';

/** How an operation's entry names what it teaches the catalog: the pieces, worded once. */

/** Resources a user names in a request are known by their IDs; only labels of a list give them names. */
export const typed = (kind: ResourceKind, id: string, links?: CatalogLinks): CatalogUpsert => ({
  kind: kind.name,
  id,
  source: 'command',
  ...(links ? { links } : {}),
});

/** The items of a list a user typed, each named by its label (a label equal to the ID is no name). */
export function listEntries(kind: ResourceKind, items: readonly SignalRef[]): CatalogUpsert[] {
  return items.map((s) => ({
    kind: kind.name,
    id: s.signal,
    source: 'command',
    ...(s.name !== s.signal ? { name: s.name } : {}),
  }));
}

export function dataEntries(data: ResolvedData): CatalogUpsert[] {
  return data.kind === 'dataspec' ? [typed(DATASPEC, data.dataspecId)] : listEntries(SIGNAL, data.signals);
}

/** A model the service's answer named, with the workspace it is in and the links the request states. */
export function returnedModel(
  r: ReturnedRecord | undefined,
  source: CatalogSource,
  links: CatalogLinks,
): CatalogUpsert[] {
  if (!r) return [];
  // The service's own word on the model's workspace wins over the request's.
  const workspace = r.workspace ?? links.workspace;
  return [
    {
      kind: MODEL.name,
      id: r.id,
      name: r.name,
      source,
      links: { ...links, ...(workspace ? { workspace } : {}) },
    },
    ...(workspace ? [{ kind: WORKSPACE.name, id: workspace, source }] : []),
  ];
}
