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

/**
 * Why a text was not read. `examples` are phrases that read now, in the same context. `readings`, when the
 * text has more than one reading: each of them as a phrase that reads exactly as typed, the one the person
 * meant among them; a surface offers each to click or type.
 */
export interface RangeRefusal {
  ok: false;
  error: string;
  examples: string[];
  readings?: string[];
}

export type RangeOutcome = { ok: true; range: TimeRange } | RangeRefusal;
export type RangesOutcome = { ok: true; ranges: TimeRange[] } | RangeRefusal;

/**
 * What a text says as a time range, for a caller that does not know whether it is one (a sentence's
 * words, say): `exact`, one reading; `ambiguous`, more than one, each offered as a phrase that reads as
 * typed; `refused`, a time range that cannot be read as written (a day that does not exist, an end before
 * its start), with why; `none`, no time range at all.
 */
export type TimeReading =
  | { kind: 'exact'; range: TimeRange }
  | { kind: 'ambiguous'; error: string; readings: string[]; examples: string[] }
  | { kind: 'refused'; error: string; examples: string[] }
  | { kind: 'none'; error: string };

/** A time range found in a longer text: where it is (`from`, `to`: UTF-16 offsets), as typed, and its reading. */
export interface FoundRange {
  from: number;
  to: number;
  text: string;
  reading: Exclude<TimeReading, { kind: 'none' }>;
}
