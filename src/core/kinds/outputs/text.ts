import type { OutputType } from '../kind.js';

/** A text (an output prefix, a horizon), shown as code; a step hands on `<name>`. */
export const TEXT_OUTPUT: OutputType<string> = {
  name: 'text',
  fits: (v): v is string => typeof v === 'string' && v !== '',
  show: (v) => [[{ code: v }]],
  step: [{ suffix: '', type: 'text', title: (label) => label, read: (v) => v }],
  // A text that feeds an argument gives it as typed.
  idOf: (v) => v,
  resources: () => [],
  flag: () => undefined,
};
