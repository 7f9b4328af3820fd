import type { OutputType } from '../kind.js';
import { isNamed, type Named, namedParts } from './named.js';

/** An ID and the name the service gave it, shown `name \`id\``; a step hands on `<name>_id` and `<name>_name`. */
export const RESOURCE: OutputType<Named> = {
  name: 'resource',
  fits: isNamed,
  show: (v) => [namedParts(v)],
  step: [
    { suffix: '_id', type: 'text', title: (label) => `${label} ID`, read: (v) => v.id },
    { suffix: '_name', type: 'text', title: (label) => `${label} name`, read: (v) => v.name },
  ],
  idOf: (v) => v.id,
  resources: (v) => [v],
  flag: () => undefined,
};
