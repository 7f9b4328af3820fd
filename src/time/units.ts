// The words for units of time, as counts are written with them ("3 days", "24h", "90 mins").
import type { Unit } from './endpoint.js';

export const UNITS = new Map<string, Unit>();
for (const [unit, words] of [
  ['s', 's sec secs second seconds'],
  ['m', 'm min mins minute minutes'],
  ['h', 'h hr hrs hour hours'],
  ['d', 'd day days'],
  ['w', 'w wk wks week weeks'],
  ['mo', 'mo mos month months'],
  ['y', 'y yr yrs year years'],
] as const) {
  for (const w of words.split(' ')) UNITS.set(w, unit);
}
