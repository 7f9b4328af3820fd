import { describeRange } from '../../time.js';
import type { OutputType } from '../kind.js';

type Range = { startNs: bigint; endNs: bigint };

/** A time range, shown in the reader's zone; a step hands on `<name>`, the range in words, in UTC. */
export const RANGE_OUTPUT: OutputType<Range> = {
  name: 'range',
  fits: (v): v is Range =>
    typeof v === 'object' &&
    v !== null &&
    typeof (v as { startNs?: unknown }).startNs === 'bigint' &&
    typeof (v as { endNs?: unknown }).endNs === 'bigint',
  show: (v, how) => [[{ text: describeRange(v, how.timeZone) }]],
  step: [
    { suffix: '', type: 'text', title: (label) => `${label} (in UTC)`, read: (v) => describeRange(v, 'UTC') },
  ],
  idOf: () => undefined,
  resources: () => [],
  flag: () => undefined,
};
