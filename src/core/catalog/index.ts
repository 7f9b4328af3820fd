/**
 * The catalog of known resources, free of Slack: what to record from operations and flows, the
 * options of a type-ahead field, and names in commands. The store keeps the entries per team.
 */
export type {
  CatalogEntry,
  CatalogKind,
  CatalogLinks,
  CatalogSource,
  CatalogUpsert,
} from '../../store/index.js';
export { catalogKey } from '../../store/index.js';
export * from './kind.js';
export * from './record.js';
export * from './resolve.js';
export * from './search.js';
