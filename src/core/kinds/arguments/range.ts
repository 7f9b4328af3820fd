import { rangeText, readRanges } from '../../forms/ranges.js';
import type { ArgumentKind } from '../kind.js';

/**
 * A time range as people write it (`yesterday 9am to 5pm`), several separated by `;`: kept as typed and
 * read by the entry's resolver in the person's zone (core/operations/registry/ranges.ts). A form takes
 * it in its time-range inputs, each previewed as it is understood.
 */
export const RANGE: ArgumentKind<string> = {
  name: 'range',
  shape: () => '<time range>',
  parse: (text) => text,
  element: () => ({ input: 'ranges' }),
  fromForm(arg, r) {
    const ranges = readRanges([...r.ranges], r.ctx, r.required, r.errors);
    if (ranges.length === 0) return undefined;
    if (arg.oneRange && ranges.length > 1) {
      r.errors[r.block] = arg.oneRange;
      return undefined;
    }
    return rangeText([...r.ranges]);
  },
  toForm: (text) => text,
  toCommand: (text) => text,
  samples: {
    good: ['yesterday', 'last 3 days', 'yesterday 9am to 5pm', 'last week; yesterday'],
    bad: ['tomorrow', 'from to', '25:00 to 26:00', '2026-02-30 to 2026-03-01'],
  },
  step: { title: () => 'Time range', note: ' Read in your own time zone, as the command reads it.' },
};
