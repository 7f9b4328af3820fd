import type { OutputType } from '../kind.js';

/** One ID, shown as code; a workflow step hands it on as `<name>_id`. */
export const ID_OUTPUT: OutputType<string> = {
  name: 'id',
  fits: (v): v is string => typeof v === 'string' && v !== '',
  show: (v) => [[{ code: v }]],
  step: [{ suffix: '_id', type: 'text', title: (label) => `${label} ID`, read: (v) => v }],
  idOf: (v) => v,
  resources: (v) => [{ id: v }],
  flag: () => undefined,
};
