/** How a surface reads and shows times: through core, which owns the meaning of a range. */
export {
  describeRange,
  describeShifts,
  formatShifts,
  isLocaleTag,
  isValidTimeZone,
  parseShifts,
  shiftSpans,
} from '../time/index.js';
