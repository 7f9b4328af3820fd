import type { ResourceKind } from '../../../src/core/catalog/kind.js';

/**
 * A new kind of resource, declared by a test alone: a plant's entities (a pump, a compressor), which the
 * catalog learns by the names the service gives them, so that people can type those names.
 */
export const ENTITY: ResourceKind = {
  name: 'entity',
  one: 'entity',
  many: 'entities',
  example: 'pump-1',
};
