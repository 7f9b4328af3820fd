// What the grammar makes of the words of one end of a range, before any zone conversion.

import type { YMD } from './calendar.js';
import type { DateOrder } from './locale.js';
import type { ShiftSpan } from './shifts.js';

export type Part = 'morning' | 'afternoon' | 'evening' | 'night';

/** Parts of a day as wall-clock hours; night runs past midnight into the next day (30 = 06:00). */
export const PARTS: Record<Part, { from: number; to: number }> = {
  morning: { from: 6, to: 12 },
  afternoon: { from: 12, to: 18 },
  evening: { from: 18, to: 22 },
  night: { from: 22, to: 30 },
};

export const PART_NOTE: Record<Part, string> = {
  morning: 'morning = 06:00–12:00',
  afternoon: 'afternoon = 12:00–18:00',
  evening: 'evening = 18:00–22:00',
  night: 'night = 22:00–06:00',
};

export const WEEKEND_NOTE = 'weekend = Sat 00:00 – Mon 00:00';

/** Which day an endpoint is on. Only `date` is fixed; the others are settled against now or the other end. */
export type DayRef =
  | { k: 'date'; date: YMD; rel?: true } // rel: named relative to today ("yesterday"), no month of its own
  | { k: 'weekday'; wd: number } // a bare weekday: some week
  | { k: 'monthDay'; month: number; day: number } // "Nov 1": some year
  | { k: 'dayOnly'; day: number } // the "3" of "Nov 1-3": month and year from the other end
  | { k: 'none' }; // a time alone: the other end's day, else today

export type Zone = { offsetMin: number } | { ambiguous: string };

export interface Clock {
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  subNs: bigint;
  zone?: Zone;
  midnight?: boolean;
  /** Written 1 to 12 with neither am/pm nor a leading zero ("8", "8:30"): either half of the day. */
  dial?: boolean;
  /** Written on the 24-hour clock beyond doubt: hour 0 or 13 and later, or a leading zero ("07:00"). */
  h24?: boolean;
  /** As typed ("8:30", "10pm"), to offer a reading in the person's own words. */
  text?: string;
}

/** A day counted back from today ("3 days ago", "2 weeks ago"), as typed: some phrases with it are refused. */
export interface AgoDay {
  n: number;
  unit: 'd' | 'w' | 'mo' | 'y';
  text: string;
}

/**
 * How an offset from now is rounded: `period`, the whole unit it falls in (Grafana's "/d"); `down`, the
 * unit's start (Splunk's "@d"). `weekStart`: the ISO weekday a week starts on.
 */
export interface Rounding {
  unit: Unit;
  mode: 'period' | 'down';
  weekStart?: number;
}

export type Endpoint =
  | { k: 'now' }
  /** "now-2h", "-90m", "now-1d/d", "-1d@d": now moved by whole units, as query tools write it. */
  | { k: 'offset'; steps: { n: number; unit: Unit }[]; round?: Rounding; text: string }
  /** "2 hours ago": an exact duration before now. */
  | { k: 'ago'; n: number; unit: 's' | 'm' | 'h' }
  | { k: 'point'; day: DayRef; clock: Clock; wd?: number; notes: string[] }
  | {
      k: 'day';
      day: DayRef;
      part?: Part;
      /** One of the channel's shifts, on the day it starts. */
      shift?: ShiftSpan;
      ago?: AgoDay;
      wd?: number;
      notes: string[];
      zone?: Zone;
    }
  /** The shift going on now, or the last one that is over (of one name, when `span` is given). */
  | {
      k: 'shift';
      which: 'last' | 'this';
      span?: ShiftSpan;
      count?: number;
      /** Written with "last" (not "previous"): "last night shift" also reads as "last night's shift". */
      saidLast?: true;
      notes: string[];
    }
  | { k: 'span'; from: YMD; to: YMD; notes: string[]; zone?: Zone }
  /** "W12", "week 12", "KW 12": an ISO week whose year is settled against now or the other end. */
  | { k: 'isoWeek'; week: number; text: string }
  /**
   * A moment or a day of a stretch of time: its start or end ("the start of the week", "shift start"), or
   * its first, last or nth day ("the last day of last month", "the 15th of last month").
   */
  | { k: 'edge'; which: 'start' | 'end' | 'firstDay' | 'lastDay' | 'nthDay'; n?: number; of: Endpoint };

export type Unit = 's' | 'm' | 'h' | 'd' | 'w' | 'mo' | 'y';

/** A refusal of the words of one end; `readings` as ParseProblem's, when the words have more than one. */
export class Refusal {
  constructor(
    readonly error: string,
    readonly examples: string[] = [],
    readonly readings: string[] = [],
  ) {}
}

export interface GrammarCtx {
  /** The local date of now in the user's zone. */
  today: YMD;
  order?: DateOrder;
  locale?: string;
  /** The channel's shifts, by start; absent when it declared none. */
  shifts?: ShiftSpan[];
}

/** An endpoint as a range's end is worked out: read, an exact instant, or a day alone. */
export type EP = Endpoint | { k: 'instant'; ns: bigint; zone?: Zone } | { k: 'dayOnly'; day: number };

export type EndpointHit = { ep: Endpoint } | { dayOnly: number } | { refusal: Refusal };

export function span(from: YMD, to: YMD, notes: string[] = []): EndpointHit {
  return { ep: { k: 'span', from, to, notes } };
}

export function refuse(error: string, examples: string[], readings: string[] = []): EndpointHit {
  return { refusal: new Refusal(error, examples, readings) };
}
