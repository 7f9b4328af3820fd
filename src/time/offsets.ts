// Offsets from now as query tools write them: Grafana and Kibana's "now-2h", "now-30m to now-10m",
// "now-1d/d"; Splunk and Sumo Logic's "-90m", "-6h to -1h", "-1d@d". Hours, minutes and seconds are exact
// durations; days, weeks, months and years are calendar steps in the person's zone, as in "last 3 days".
// A capital M is a month, as in Grafana and Kibana (a lower-case m is a minute).
import { type Ctx, instantMs, wallNs } from './context.js';
import { type EndpointHit, Refusal, type Rounding, type Unit } from './endpoint.js';
import { msToNs, nsSubMs, nsToMsFloor } from './exact.js';
import { isWord, type R, type Tok, textOf } from './tokens.js';
import { UNITS } from './units.js';
import { addDays, addMonths, isoWeekday, type Wall, wallAt } from './zone.js';

const MAX_STEP = 1_000_000;
// Splunk's words for a month, beside the grammar's.
const EXTRA: Record<string, Unit> = { mon: 'mo', mons: 'mo' };

/** The unit a token names in an offset: "M" is a month, "m" a minute. */
function unitOf(x: Tok | undefined): Unit | undefined {
  if (!x || x.num) return undefined;
  if (x.raw === 'M') return 'mo';
  return UNITS.get(x.s) ?? EXTRA[x.s];
}

/** "/d", "@d", "@w1" at `i`: how the offset is rounded. */
function rounding(t: Tok[], i: number): R<Rounding | Refusal> {
  const mark = t[i];
  if (!mark || (mark.s !== '/' && mark.s !== '@') || !t[i + 1]?.glued) return [];
  const mode = mark.s === '/' ? 'period' : 'down';
  const [x, day] = [t[i + 1]!, t[i + 2]];
  // Splunk's "@w0" (Sunday) to "@w6"; "@w7" is Sunday again.
  if (mode === 'down' && x.s === 'w' && day?.num && day.glued && /^[0-7]$/.test(day.s)) {
    return [[{ unit: 'w', mode, weekStart: Number(day.s) % 7 || 7 }, i + 3]];
  }
  const unit = unitOf(x);
  if (!unit) return [];
  if (unit === 'w') {
    const written = textOf(t, i, i + 2);
    return [
      [
        new Refusal(
          `“${written}” rounds to a week, and tools start their weeks on different days: write “@w1” to round to Monday 00:00 or “@w0” to Sunday 00:00, or name the week (“this week”, “last week”).`,
          ['last week', 'this week'],
        ),
        i + 2,
      ],
    ];
  }
  return [[{ unit, mode }, i + 2]];
}

/** "-2h", "+1d", "- 30m", "-2 hours" at `i` (a sign, then a count and its unit). */
function steps(t: Tok[], i: number, spaced: boolean): [{ n: number; unit: Unit }[], number] {
  const out: { n: number; unit: Unit }[] = [];
  let j = i;
  for (;;) {
    const sign = t[j];
    const count = t[j + 1];
    if (!sign || (sign.s !== '-' && sign.s !== '+') || !count?.num || (!spaced && !count.glued)) break;
    if (!spaced && j > i && !sign.glued) break;
    const unit = unitOf(t[j + 2]);
    if (!unit || (!spaced && !t[j + 2]!.glued && t[j + 2]!.s.length <= 2)) break;
    const n = count.s.length > 7 ? Number.POSITIVE_INFINITY : Number(count.s);
    out.push({ n: sign.s === '-' ? -n : n, unit });
    j += 3;
  }
  return [out, j];
}

/** Every reading of `t[i..]` as an offset from now. */
export function offsetAt(t: Tok[], i: number): R<EndpointHit> {
  const out: R<EndpointHit> = [];
  const now = isWord(t, i, 'now');
  const bare = !now && (t[i]?.s === '-' || t[i]?.s === '@') && t[i + 1]?.glued;
  if (!now && !bare) return out;
  const [list, j] = steps(t, now ? i + 1 : i, now);
  if (list.length === 0 && !(t[j]?.s === '/' || t[j]?.s === '@')) return out;
  if (now && list.length === 0 && t[j]?.s === '@') return out;
  const text = (e: number) => textOf(t, i, e);
  const bad = list.find((s) => !(Math.abs(s.n) >= 1 && Math.abs(s.n) <= MAX_STEP));
  const hit = (round: Rounding | undefined, e: number): [EndpointHit, number] => [
    bad
      ? {
          refusal: new Refusal(
            `“${text(e)}” does not give a usable count: give a whole number from 1, like “now-2h”.`,
            ['now-2h'],
          ),
        }
      : { ep: { k: 'offset', steps: list, ...(round ? { round } : {}), text: text(e) } },
    e,
  ];
  if (list.length > 0) out.push(hit(undefined, j));
  for (const [r, e] of rounding(t, j)) {
    out.push(r instanceof Refusal ? [{ refusal: r }, e] : hit(r, e));
  }
  return out;
}

// ------------------------------------------------------------------------------------------- instants

const EXACT: Partial<Record<Unit, bigint>> = { s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n };

function wallOf(c: Ctx, ns: bigint): Wall {
  return wallAt(c.tz, nsToMsFloor(ns));
}

/** `ns` moved by `n` units: exact for seconds to hours, calendar steps in the person's zone for the rest. */
function moved(c: Ctx, ns: bigint, n: number, unit: Unit): bigint {
  const exact = EXACT[unit];
  if (exact !== undefined) return ns + BigInt(n) * exact;
  const w = wallOf(c, ns);
  const back =
    unit === 'mo' || unit === 'y'
      ? addMonths(w, n * (unit === 'y' ? 12 : 1))
      : addDays(w, unit === 'w' ? 7 * n : n);
  return msToNs(instantMs(c, back)) + nsSubMs(ns);
}

/** The start of the unit `ns` falls in, in the person's zone (a week from `weekStart`, Monday by default). */
function startOf(c: Ctx, ns: bigint, unit: Unit, weekStart = 1): Wall {
  const w = wallOf(c, ns);
  const day = { year: w.year, month: w.month, day: w.day };
  const zero = { hour: 0, minute: 0, second: 0, millisecond: 0 };
  switch (unit) {
    case 's':
      return { ...w, millisecond: 0 };
    case 'm':
      return { ...w, second: 0, millisecond: 0 };
    case 'h':
      return { ...w, minute: 0, second: 0, millisecond: 0 };
    case 'd':
      return { ...day, ...zero };
    case 'w':
      return addDays({ ...day, ...zero }, -((isoWeekday(w) - weekStart + 7) % 7));
    case 'mo':
      return { ...day, day: 1, ...zero };
    case 'y':
      return { year: w.year, month: 1, day: 1, ...zero };
  }
}

/** The wall time one unit after `w` (a unit's start), counted on the calendar and the clock. */
function next(w: Wall, unit: Unit): Wall {
  if (unit === 'mo' || unit === 'y') return addMonths(w, unit === 'y' ? 12 : 1);
  if (unit === 'd' || unit === 'w') return addDays(w, unit === 'w' ? 7 : 1);
  const d = new Date(0);
  d.setUTCFullYear(w.year, w.month - 1, w.day);
  const add = { s: [0, 0, 1], m: [0, 1, 0], h: [1, 0, 0] }[unit];
  d.setUTCHours(w.hour + add[0]!, w.minute + add[1]!, w.second + add[2]!, 0);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    millisecond: 0,
  };
}

const wallInstant = (c: Ctx, w: Wall): bigint =>
  wallNs(c, { year: w.year, month: w.month, day: w.day }, w.hour, w.minute, w.second, w.millisecond);

/**
 * Where an offset lies: an instant, the start of the unit it is rounded down to ("@d"), or the whole unit
 * it falls in ("/d", a stretch of time like a day).
 */
export function offsetSpan(
  c: Ctx,
  steps: readonly { n: number; unit: Unit }[],
  round: Rounding | undefined,
): { start: bigint; end: bigint; period: boolean } {
  let ns = c.nowNs;
  for (const s of steps) ns = moved(c, ns, s.n, s.unit);
  if (!round) return { start: ns, end: ns, period: false };
  const from = startOf(c, ns, round.unit, round.weekStart);
  const start = wallInstant(c, from);
  if (round.mode === 'down') return { start, end: start, period: false };
  return { start, end: wallInstant(c, next(from, round.unit)), period: true };
}
