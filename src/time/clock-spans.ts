// Two clock times on one day: which half of the day each is in, and whether the end is on the next day.
//
// "yesterday 10pm to 6am" ends at the first 06:00 after the start. A time written 1 to 12 with neither
// am/pm nor a leading zero ("8", "8:30") is on the 12-hour dial, and the span is read on it: "2pm-4" is
// 14:00 to 16:00, "10-6am" 22:00 to 06:00. With neither end settled ("yesterday 8-4") there are two such
// readings, 08:00–16:00 and 20:00–04:00: the one that stays within the day named, or within the part of
// the day named ("between 6 and 8 this evening"), is taken; when both do, the phrase is refused with both.
// A span written on the 24-hour clock ("22-6", "23:00 to 07:00") has one reading. Pure: no zone, no text.
import type { Clock, Part } from './endpoint.js';
import { PARTS } from './endpoint.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Milliseconds from the day's midnight (past a day for the early hours of the next one). */
export interface SpanPick {
  start: number;
  end: number;
}

export const msOfDay = (k: Clock): number =>
  k.hour * HOUR + k.minute * 60_000 + k.second * 1000 + k.millisecond;

/** Whether clock time `a` comes before `b` on the same day, to the nanosecond. */
export const before = (a: Clock, b: Clock): boolean =>
  msOfDay(a) < msOfDay(b) || (msOfDay(a) === msOfDay(b) && a.subNs < b.subNs);

/** The window a span must lie in to settle which half of the day it is in: the day, or a part of it. */
export function windowOf(part: Part | undefined): { from: number; to: number } {
  const p = part ? PARTS[part] : { from: 0, to: 24 };
  return { from: p.from * HOUR, to: p.to * HOUR };
}

/** Whether a span is read on the 12-hour dial: an end could be either half of the day, and neither end is
 * written on the 24-hour clock. */
export const onDial = (a: Clock, b: Clock): boolean =>
  !(a.h24 || b.h24) && (a.dial === true || b.dial === true);

type Fit = (p: SpanPick, w: { from: number; to: number }) => boolean;
const contained: Fit = (p, w) => p.start >= w.from && p.end <= w.to;
const startsWithin: Fit = (p, w) => p.start >= w.from && p.start < w.to;
const overlaps: Fit = (p, w) => p.start < w.to && p.end > w.from;

/** A start in the small hours belongs to a night that began the evening before. */
function placed(p: SpanPick, w: { from: number; to: number }): SpanPick {
  if (w.to <= DAY) return p;
  const later = { start: p.start + DAY, end: p.end + DAY };
  for (const fits of [contained, startsWithin, overlaps]) {
    if (fits(p, w)) return p;
    if (fits(later, w)) return later;
  }
  return p;
}

/**
 * Every reading of a span from `a` to `b` that its context allows (`part`: the part of the day named, else
 * the whole day): one is the span, none means no reading fits the part named, more are the readings to
 * offer. The end is always after the start, by at most a day.
 */
export function spanReadings(a: Clock, b: Clock, part?: Part): SpanPick[] {
  const w = windowOf(part);
  const dial = onDial(a, b);
  const halves = (k: Clock) => (dial && k.dial ? [msOfDay(k), (msOfDay(k) + 12 * HOUR) % DAY] : [msOfDay(k)]);
  let picks: SpanPick[] = [];
  for (const start of halves(a)) {
    for (const e of halves(b)) {
      const end = e > start ? e : e + DAY;
      if (end - start === DAY || (dial && end - start > 12 * HOUR)) continue;
      if (!picks.some((p) => p.start === start && p.end === end)) picks.push({ start, end });
    }
  }
  if (part) picks = picks.map((p) => placed(p, w));
  if (picks.length === 1) return part ? picks.filter((p) => overlaps(p, w)) : picks;
  for (const fits of part ? [contained, startsWithin, overlaps] : [contained]) {
    const kept = picks.filter((p) => fits(p, w));
    if (kept.length > 0) return kept;
  }
  return picks;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** "08:30", "20:00", "04:00" of a pick's end (the hour within its day). */
export function hhmm(ms: number): string {
  const m = Math.floor((((ms % DAY) + DAY) % DAY) / 60_000);
  return `${pad(Math.floor(m / 60))}:${pad(m % 60)}`;
}

/**
 * A clock time as it reads on its own, whatever the other end: "8am", "4:30pm", "midnight" for an end at
 * 24:00; with seconds, the 24-hour clock with a leading zero ("08:30:15").
 */
export function clockWords(ms: number, role: 'start' | 'end'): string {
  const inDay = ((ms % DAY) + DAY) % DAY;
  if (role === 'end' && inDay === 0) return 'midnight';
  const h = Math.floor(inDay / HOUR);
  const m = Math.floor((inDay % HOUR) / 60_000);
  const s = Math.floor((inDay % 60_000) / 1000);
  const frac = inDay % 1000;
  if (s !== 0 || frac !== 0) {
    return `${pad(h)}:${pad(m)}:${pad(s)}${frac ? `.${String(frac).padStart(3, '0')}` : ''}`;
  }
  return `${h % 12 || 12}${m ? `:${pad(m)}` : ''}${h < 12 ? 'am' : 'pm'}`;
}

/** The clock of a pick's end, with the hour counted on from the day's midnight (26 = 02:00 the next day). */
export function withTime(k: Clock, ms: number): Clock {
  const hour = Math.floor(ms / HOUR);
  const minute = Math.floor((ms % HOUR) / 60_000);
  const second = Math.floor((ms % 60_000) / 1000);
  return { ...k, hour, minute, second, millisecond: ms % 1000 };
}
