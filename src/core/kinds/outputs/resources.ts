import type { OutputType } from '../kind.js';
import { isNamed, type Named, namedParts } from './named.js';

/** Several resources, one a line; a step hands on `<name>`, their IDs separated by commas. */
export const RESOURCES: OutputType<Named[]> = {
  name: 'resources',
  fits: (v): v is Named[] => Array.isArray(v) && v.length > 0 && v.every(isNamed),
  show: (v) => v.map(namedParts),
  step: [
    {
      suffix: '',
      type: 'text',
      title: (label) => `${label} IDs (comma-separated)`,
      read: (v) => v.map((x) => x.id).join(','),
    },
  ],
  idOf: () => undefined,
  resources: (v) => v,
  flag: () => undefined,
};
