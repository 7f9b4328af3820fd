import type { CatalogKind, Store } from '../../store/index.js';

/** The name the team's catalog knows for a resource, if any. */
export async function knownName(
  store: Pick<Store, 'getCatalogEntry'>,
  teamId: string,
  kind: CatalogKind,
  id: string,
): Promise<string | undefined> {
  return (await store.getCatalogEntry(teamId, kind, id))?.name ?? undefined;
}
