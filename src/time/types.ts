import type { Shift } from './shifts.js';

export interface TimeRange {
  startNs: bigint;
  endNs: bigint;
  /**
   * How a named part of the text was read, shown with the echo: "night = 22:00–06:00",
   * "01/11/2025 = 1 Nov 2025 (day first, as in en-GB)". Absent when the text needs no explaining.
   */
  note?: string;
}

export interface ParseContext {
  now: Date | bigint;
  timeZone: string;
  /** The end may not be after `now`: for every operation that reads data (EVAL, learn, relearn, score). */
  requirePast?: boolean;
  /**
   * The user's locale from Slack (`users.info` with `include_locale`), e.g. "en-GB": decides whether
   * 01/11/2025 is 1 Nov or 11 Jan. Absent or unknown: such a date is refused with both readings.
   */
  locale?: string;
  /**
   * The shifts of the channel the text was typed in (`/tsai use shifts=06:00,14:00,22:00`), which "last
   * shift", "this shift" and "the night shift yesterday" are read against. Absent: such phrases are
   * refused with how to declare them.
   */
  shifts?: readonly Shift[];
}

export type RangeOutcome = { ok: true; range: TimeRange } | { ok: false; error: string; examples: string[] };
export type RangesOutcome =
  | { ok: true; ranges: TimeRange[] }
  | { ok: false; error: string; examples: string[] };
