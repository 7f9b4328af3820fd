import type { ShownPart } from '../kind.js';

/** A resource as an output holds it: its ID and the name the service gave it. */
export interface Named {
  id: string;
  name?: string;
}

/** Whether a value is a resource: an ID, and a name when there is one. */
export const isNamed = (v: unknown): v is Named =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as { id?: unknown }).id === 'string' &&
  (v as { id: string }).id !== '' &&
  ['string', 'undefined'].includes(typeof (v as { name?: unknown }).name);

/** A resource as a person reads it: `name \`id\``, or the ID alone. */
export const namedParts = (x: Named): ShownPart[] =>
  x.name ? [{ text: `${x.name} ` }, { code: x.id }] : [{ code: x.id }];
