import type { OutputType } from '../kind.js';

/** Yes or no, shown in its output's declared words; a step hands on `<name>`, a boolean. A next step may wait for it. */
export const FLAG: OutputType<boolean> = {
  name: 'flag',
  fits: (v): v is boolean => typeof v === 'boolean',
  show: (v, how) => [[{ text: how.words?.[v ? 1 : 0] ?? (v ? 'yes' : 'no') }]],
  step: [{ suffix: '', type: 'flag', title: (label) => label, read: (v) => v }],
  idOf: () => undefined,
  resources: () => [],
  flag: (v) => v,
};
