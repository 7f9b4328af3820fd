/** How a surface reads and shows times: through core, which owns the meaning of a range. */
export { describeRange, isLocaleTag, isValidTimeZone } from '../time/index.js';
