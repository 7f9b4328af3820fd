// A channel's shifts: how they are declared, and the wall-clock stretch each one covers. Pure.
//
// Shifts follow one another round the clock: each runs from its start to the next one's start, and the
// last one of the day runs into the next day up to the first one's start. So `06:00,14:00,22:00` is
// 06:00–14:00, 14:00–22:00 and 22:00–06:00, and a shift that crosses midnight belongs to the day it
// starts on: "the night shift on Tuesday" is Tuesday 22:00 to Wednesday 06:00. A plant with hours nobody
// works declares them as a shift of their own (`day@06:00,off@18:00`).

/** One declared shift: its start as "HH:MM" (24-hour, in the reader's zone) and, optionally, its name. */
export interface Shift {
  start: string;
  name?: string;
}

/** A shift as the grammar uses it: minutes after the midnight of its day (`to` may be past 24:00). */
export interface ShiftSpan {
  /** The word people call it by: its name, else its start ("06:00"). */
  label: string;
  name?: string;
  start: string;
  from: number;
  to: number;
}

export const MAX_SHIFTS = 12;
const MAX_NAME = 20;
const DAY_MIN = 24 * 60;

/** Words a name may not be, since the phrases that name a shift use them. */
const RESERVED = new Set([
  'last',
  'previous',
  'this',
  'current',
  'next',
  'the',
  'shift',
  'shifts',
  'on',
  'at',
  'of',
  'a',
  'an',
  'ago',
  'today',
  'yesterday',
  'tomorrow',
  'since',
  'from',
  'to',
  'until',
  'now',
]);

export const SHIFTS_EXAMPLE = 'shifts=06:00,14:00,22:00';
export const NAMED_SHIFTS_EXAMPLE = 'shifts=morning@06:00,late@14:00,night@22:00';

const TIME = /^([01]?\d|2[0-3]):([0-5]\d)$/;

const minutesOf = (hhmm: string): number => {
  const m = TIME.exec(hhmm)!;
  return Number(m[1]) * 60 + Number(m[2]);
};

const hhmm = (min: number): string => {
  const m = ((min % DAY_MIN) + DAY_MIN) % DAY_MIN;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
};

export type ShiftsOutcome = { ok: true; shifts: Shift[] } | { ok: false; error: string };

/**
 * Reads `06:00,14:00,22:00` or `morning@06:00,late@14:00,night@22:00` (the value of `shifts=`). Starts are
 * 24-hour times, different from each other; names are single words of letters, different from each
 * other, and either every shift has one or none has. Sorted by start.
 */
export function parseShifts(text: string): ShiftsOutcome {
  const fail = (why: string): ShiftsOutcome => ({
    ok: false,
    error: `${why} Write the start of each shift in 24-hour time, like ${SHIFTS_EXAMPLE}, or give each a name, like ${NAMED_SHIFTS_EXAMPLE}.`,
  });
  const items = String(text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (items.length === 0) return fail('No shifts given.');
  if (items.length > MAX_SHIFTS) return fail(`At most ${MAX_SHIFTS} shifts.`);
  const shifts: Shift[] = [];
  for (const item of items) {
    const at = item.indexOf('@');
    const name = at < 0 ? undefined : item.slice(0, at).trim().toLowerCase();
    const start = (at < 0 ? item : item.slice(at + 1)).trim();
    const shown = item.length > 30 ? `${item.slice(0, 30)}…` : item;
    if (!TIME.test(start)) return fail(`“${shown}” does not give a start like 06:00.`);
    if (name !== undefined) {
      if (!/^[a-z]+$/.test(name) || name.length > MAX_NAME) {
        return fail(`“${shown}”: a shift's name is one word of letters, up to ${MAX_NAME} of them.`);
      }
      if (RESERVED.has(name))
        return fail(`“${name}” cannot name a shift: it is a word the time phrases use.`);
    }
    const normal = hhmm(minutesOf(start));
    shifts.push(name === undefined ? { start: normal } : { start: normal, name });
  }
  const named = shifts.filter((s) => s.name !== undefined).length;
  if (named !== 0 && named !== shifts.length) return fail('Name every shift, or none of them.');
  const starts = new Set(shifts.map((s) => s.start));
  if (starts.size !== shifts.length) return fail('Two shifts start at the same time.');
  const names = new Set(shifts.map((s) => s.name));
  if (named > 0 && names.size !== shifts.length) return fail('Two shifts have the same name.');
  shifts.sort((a, b) => minutesOf(a.start) - minutesOf(b.start));
  return { ok: true, shifts };
}

/** The declaration again, as `/tsai use shifts=` takes it. */
export function formatShifts(shifts: readonly Shift[]): string {
  return shifts.map((s) => (s.name ? `${s.name}@${s.start}` : s.start)).join(',');
}

/**
 * The stretch each shift covers, by start; undefined when the list is not a valid declaration (shifts
 * come from the store, and a bad one reads as none rather than as a guess).
 */
export function shiftSpans(shifts: readonly Shift[] | undefined): ShiftSpan[] | undefined {
  if (!shifts || shifts.length === 0) return undefined;
  const checked = parseShifts(formatShifts(shifts));
  if (!checked.ok) return undefined;
  const list = checked.shifts;
  return list.map((s, i) => {
    const from = minutesOf(s.start);
    const next = list[(i + 1) % list.length]!;
    let to = minutesOf(next.start);
    if (to <= from) to += DAY_MIN;
    return { label: s.name ?? s.start, ...(s.name ? { name: s.name } : {}), start: s.start, from, to };
  });
}

/** "night shift = 22:00–06:00", as the echo explains it. */
export function shiftNote(s: ShiftSpan): string {
  return `${s.label} shift = ${hhmm(s.from)}–${hhmm(s.to)}`;
}

/** "morning 06:00–14:00, late 14:00–22:00, night 22:00–06:00": the channel's shifts in a sentence. */
export function describeShifts(spans: readonly ShiftSpan[]): string {
  return spans.map((s) => `${s.name ? `${s.name} ` : ''}${hhmm(s.from)}–${hhmm(s.to)}`).join(', ');
}
