// What a reading knows of its moment: now, the person's zone and today there, and what the grammar is told.
import { plusDays, type YMD } from './calendar.js';
import type { GrammarCtx } from './endpoint.js';
import { msToNs, nsToMsFloor } from './exact.js';
import { type Language, languageOf } from './languages/index.js';
import { dateOrderFor } from './locale.js';
import { shiftSpans } from './shifts.js';
import type { ParseContext } from './types.js';
import { isValidTimeZone, type Wall, wallAt, wallToInstantMs } from './zone.js';

/** The service counts nanoseconds since 1970 in an unsigned string, and in a signed 64-bit integer. */
export const MIN_NS = 0n;
export const MAX_NS = 9_223_372_036_854_775_807n;

export interface Ctx {
  /** The language of the person's locale, when their ranges may be written in it (languages/). */
  lang?: Language;
  nowNs: bigint;
  nowMs: number;
  tz: string;
  today: YMD;
  nowWall: Wall;
  g: GrammarCtx;
}

/**
 * Why a text is not read. `readings`: when it has more than one reading, each of them written so that it
 * reads as typed (the surfaces offer them to click or type); `examples` are phrases that work.
 */
export class ParseProblem {
  constructor(
    readonly message: string,
    readonly examples: string[] = [],
    readonly readings: string[] = [],
  ) {}
}

/** Nothing in the text was read as any part of a time range. */
export class NotARange extends ParseProblem {}

export function makeCtx(ctx: ParseContext): Ctx | string {
  if (!ctx || !isValidTimeZone(ctx.timeZone)) {
    return `“${String(ctx?.timeZone)}” is not a time zone I know (use an IANA name such as Europe/Berlin).`;
  }
  let nowNs: bigint;
  if (typeof ctx.now === 'bigint') nowNs = ctx.now;
  else if (ctx.now instanceof Date && Number.isFinite(ctx.now.getTime())) nowNs = msToNs(ctx.now.getTime());
  else return 'The reference time is not a valid instant.';
  const nowMs = nsToMsFloor(nowNs);
  if (!Number.isFinite(nowMs) || Math.abs(nowMs) > 8.64e15)
    return 'The reference time is not a valid instant.';
  const nowWall = wallAt(ctx.timeZone, nowMs);
  const today = { year: nowWall.year, month: nowWall.month, day: nowWall.day };
  const order = dateOrderFor(ctx.locale);
  const shifts = shiftSpans(ctx.shifts);
  const lang = languageOf(ctx.locale);
  return {
    ...(lang ? { lang } : {}),
    nowNs,
    nowMs,
    tz: ctx.timeZone,
    today,
    nowWall,
    g: {
      today,
      ...(order ? { order } : {}),
      ...(ctx.locale && order ? { locale: ctx.locale } : {}),
      ...(shifts ? { shifts } : {}),
    },
  };
}

export const OUT_OF_REACH =
  'That range reaches outside what the service can store (1 Jan 1970 to 11 Apr 2262). Give a range within it, like “2025-11-01 to 2025-11-03”.';

/** wallToInstantMs, for the years Date can hold; far beyond them the range is refused anyway. */
export function instantMs(c: Ctx, w: Wall): number {
  if (!(Math.abs(w.year) < 200_000)) throw new ParseProblem(OUT_OF_REACH);
  return wallToInstantMs(c.tz, w);
}

export function wallNs(
  c: Ctx,
  d: YMD,
  hour = 0,
  minute = 0,
  second = 0,
  millisecond = 0,
  subNs = 0n,
): bigint {
  const day = hour >= 24 ? plusDays(d, Math.floor(hour / 24)) : d;
  return msToNs(instantMs(c, { ...day, hour: hour % 24, minute, second, millisecond })) + subNs;
}
