import type { CatalogLinks, CatalogSource, CatalogUpsert } from '../../store/index.js';
import { MODEL, WORKSPACE } from '../kinds/resources.js';

/** A record the service returned that names a resource. */
export interface ReturnedRecord {
  id: string;
  name?: string;
  /** A model's workspace. */
  workspace?: string;
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
