/**
 * Natural-language time ranges → exact instants, in the user's own IANA time zone. Pure: no I/O, and no
 * dependence on the machine's zone. The full rule book, with examples, is docs/time-ranges.md.
 *
 * Accepted input (English; straight or curly quotes around the whole text are ignored):
 * - days: "today", "yesterday", "Nov 1", "1st of November 2026", "2026-11-01", "13/11/2025", "Friday",
 *   "last Friday"; parts of days: "last night", "this morning", "yesterday afternoon", "Monday evening";
 * - calendar periods: this/last/next week, weekend, month, year; "Nov 2025";
 * - times: "yesterday 9am to 5pm", "between 9am and 5pm yesterday", "Nov 1 9:00 - 17:00", "9am EST";
 * - rolling windows: "last 3 days", "(the) past 24 hours", "in the last 2 hours"; "since X"; "X to now";
 * - counted back: "3 days ago 9am to 5pm", "the day before yesterday", "from 6 hours ago to now";
 * - a channel's shifts (ParseContext.shifts): "last shift", "this shift", "the night shift yesterday";
 * - exact forms, never rounded: ISO 8601 with `Z` or an offset and up to 9 fraction digits, and epochs of
 *   19 digits (ns), 16 (µs), 13 (ms) or 10 (s);
 * - separators: to, until, till, through, thru, -, –, —, .., and "between X and Y";
 * - several ranges separated by `;` or new lines (parseTimeRanges): sorted; overlapping ones are an error.
 *
 * Rules:
 * 1. Wall-clock times are in the user's zone and each endpoint gets the offset in force at that endpoint.
 *    A nonexistent local time (spring forward) moves forward by the gap; an ambiguous one (fall back)
 *    takes the earlier instant. An explicit zone in the text ("9am EST", ISO offsets) wins; written once,
 *    it is the whole range's ("9am to 5pm PST"), unless each end names its own.
 * 2. "last/past N units" → [now − N units, now]; seconds/minutes/hours are exact durations, days/weeks/
 *    months/years are calendar steps in the user's zone. "past week" = last 7 days. "since X" → [X, now].
 * 3. A day, part of a day or calendar period is all of it; one that is still going on ends now, alone and
 *    as the end of a range ("yesterday to today" ends now).
 * 4. Named periods: weeks are ISO weeks from Monday 00:00; weekend = Sat 00:00 – Mon 00:00 of that week;
 *    morning 06–12, afternoon 12–18, evening 18–22, night 22–06 (into the next day). A weekday or a date
 *    without a year is the most recent one; a span of weekdays is the most recent one that is over.
 * 5. 01/11/2025 is read in the order of the user's region (`locale`); with no known region a date that
 *    reads both ways is refused with both readings.
 * 6. The range lies between 1970-01-01T00:00Z and 2262-04-11 (what the service can store), the end is after
 *    the start, and with `requirePast` (every operation that reads data) the end is not after now.
 * 7. Anything not understood, understood only in part, or understood two ways is an error with examples,
 *    never a guess.
 *
 * A small grammar of our own (grammar.ts) decides which phrases are accepted and what they mean; chrono-node
 * reads the calendar dates and clock times inside them (chrono.ts), and only the components it is certain
 * of are used. All zone conversion is Intl (zone.ts).
 */

export { MAX_NS, MIN_NS } from './context.js';
export { describeRange, type EchoOptions } from './describe.js';
export { toIso, toNanos } from './exact.js';
export { type DateOrder, dateOrderFor, isLocaleTag } from './locale.js';
export { EXAMPLES, findTimeRanges, parseTimeRange, parseTimeRanges, readTimeRange } from './parse.js';
export {
  describeShifts,
  formatShifts,
  MAX_SHIFTS,
  NAMED_SHIFTS_EXAMPLE,
  parseShifts,
  SHIFTS_EXAMPLE,
  type Shift,
  shiftSpans,
} from './shifts.js';
export { DEFAULT_ECHO_CHARS, describeRanges, type RangesEchoOptions } from './summary.js';
export type {
  FoundRange,
  ParseContext,
  RangeOutcome,
  RangeRefusal,
  RangesOutcome,
  TimeRange,
  TimeReading,
} from './types.js';
export { isValidTimeZone } from './zone.js';
