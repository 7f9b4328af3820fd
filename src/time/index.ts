/**
 * Natural-language time ranges → exact instants, in the user's own IANA time zone. Pure: no I/O.
 *
 * Accepted input (English; straight or curly quotes around the whole text are ignored):
 * - natural language via chrono-node: "yesterday 9am to 5pm", "from Nov 1 to Nov 3", "Nov 1 9:00 - 17:00",
 *   "Nov 1-3", "2026-11-01 to 2026-11-03", "today", "yesterday", "this week", "last week", "this month",
 *   "last month", "last 3 days", "past 24 hours", "last 24h", "last 90 minutes", "since Monday 8am",
 *   "between 9am and 5pm yesterday";
 * - exact forms, never rounded: ISO 8601 with `Z` or an offset and up to 9 fraction digits, and epochs of
 *   19 digits (ns), 16 (µs), 13 (ms) or 10 (s);
 * - separators: to, until, till, through, thru, -, –, —, .., and "between X and Y";
 * - several ranges separated by `;` or new lines (parseTimeRanges): sorted; overlapping ones are an error.
 *
 * Rules:
 * 1. Wall-clock times are in the user's zone and each endpoint gets the offset in force at that endpoint.
 *    A nonexistent local time (spring forward) moves forward by the gap; an ambiguous one (fall back)
 *    takes the earlier instant. An explicit zone in the text ("9am EST", ISO offsets) wins.
 * 2. "last/past N units" → [now − N units, now]; seconds/minutes/hours are exact durations, days/weeks/months
 *    are calendar steps in the user's zone (same wall-clock time N days ago). "past week" = last 7 days.
 *    "since X" → [X, now].
 * 3. A date without a time is the whole day: as a start 00:00 local, as an end 00:00 local of the next day.
 *    A single day ("yesterday", "Nov 1") is that whole day; a day still running ("today") ends at now.
 * 4. "this week"/"last week": ISO weeks from Monday 00:00 local; this week ends at now. Same for months.
 *    A bare weekday ("Monday") means the most recent one, never a future one ("next Friday" is kept).
 * 5. The end must be after the start; with `requirePast` the end must not be after now.
 * 6. Anything not understood, or understood only in part, is an error with examples, never a guess.
 *
 * chrono-node is used only to read individual endpoints into wall-clock fields (it ignores IANA zones);
 * all zone conversion happens in zone.ts with Intl.
 */
export { describeRange } from './describe.js';
export { toIso, toNanos } from './exact.js';
export { EXAMPLES, parseTimeRange, parseTimeRanges } from './parse.js';
export type { ParseContext, RangeOutcome, RangesOutcome, TimeRange } from './types.js';
export { isValidTimeZone } from './zone.js';
