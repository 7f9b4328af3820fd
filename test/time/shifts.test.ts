// A channel's shifts, as docs/time-ranges.md lists the phrases (its "Shifts" tables, read from the page),
// checked against an independent oracle in Kathmandu (+05:45), Adelaide (+09:30/+10:30) and New York,
// at instants on daylight-saving changes, where a night shift is 7 or 9 hours long.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatShifts, parseShifts, parseTimeRange, type Shift } from '../../src/time/index.js';
import {
  type LocalDate,
  type Oracle,
  oracleAt,
  type RuleZone,
  ruleWallMs,
  shiftDate,
  weekdayOfDate,
} from '../support/rule-zone-oracle.js';

const page = readFileSync(new URL('../../docs/time-ranges.md', import.meta.url), 'utf8');
const backticked = (text: string): string[] => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

function shiftsSection(): string {
  const from = page.indexOf('## Shifts');
  const to = page.indexOf('\n## ', from + 1);
  if (from < 0) throw new Error('no “Shifts” section in docs/time-ranges.md');
  return page.slice(from, to);
}

/** The first column of each table in the section, cell by cell: [accepted, refused]. */
function tables(): [string[], string[]] {
  const found: string[][] = [];
  let current: string[] | undefined;
  for (const line of shiftsSection().split('\n')) {
    if (!line.startsWith('|')) {
      current = undefined;
      continue;
    }
    if (/^\|\s*-/.test(line)) continue;
    if (!current) {
      current = [];
      found.push(current); // the header row
      continue;
    }
    current.push(line.split('|')[1]!.trim());
  }
  if (found.length !== 2) throw new Error('expected two tables under “Shifts”');
  return [found[0]!, found[1]!];
}

const DECLARED = 'morning@06:00,late@14:00,night@22:00';
const SHIFTS = (parseShifts(DECLARED) as { ok: true; shifts: Shift[] }).shifts;
const STARTS: [string, string][] = [
  ['morning', '06:00'],
  ['late', '14:00'],
  ['night', '22:00'],
];

interface Boundary {
  name: string;
  day: LocalDate;
  ms: number;
}

/** Every shift start from fifteen days back to tomorrow, in time order (each shift ends at the next one). */
function boundaries(o: Oracle): Boundary[] {
  const out: Boundary[] = [];
  for (let k = -15; k <= 1; k++) {
    const day = shiftDate(o.today, k);
    for (const [name, hhmm] of STARTS) out.push({ name, day, ms: ruleWallMs(o.zone, day, hhmm) });
  }
  return out;
}

const toNs = (ms: number) => BigInt(ms) * 1_000_000n;
const sameDay = (a: LocalDate, b: LocalDate) => a.y === b.y && a.m === b.m && a.d === b.d;
const nowMs = (o: Oracle) => Number(o.nowNs / 1_000_000n);

/** The shift of `name` that starts on the day `days` from today: to the next start, cut to now. */
function onDay(o: Oracle, days: number, name: string): [bigint, bigint] {
  const b = boundaries(o);
  const day = shiftDate(o.today, days);
  const i = b.findIndex((x) => x.name === name && sameDay(x.day, day));
  return [toNs(b[i]!.ms), b[i + 1]!.ms > nowMs(o) ? o.nowNs : toNs(b[i + 1]!.ms)];
}

/** The latest start at or before now: the shift going on; the one before it is the last one over. */
function lastOver(o: Oracle, name?: string): [bigint, bigint] {
  const b = boundaries(o);
  const ends = b.map((x, i) => ({ x, end: b[i + 1]?.ms ?? Number.POSITIVE_INFINITY }));
  const over = ends.filter(({ x, end }) => end <= nowMs(o) && (!name || x.name === name)).at(-1)!;
  return [toNs(over.x.ms), toNs(over.end)];
}

/** The `n` shifts over most recently: from the start of the earliest to the end of the latest. */
function lastN(o: Oracle, n: number): [bigint, bigint] {
  const b = boundaries(o);
  const over = b.filter((_, i) => i + 1 < b.length && b[i + 1]!.ms <= nowMs(o));
  const last = b.indexOf(over.at(-1)!);
  return [toNs(over[over.length - n]!.ms), toNs(b[last + 1]!.ms)];
}

function going(o: Oracle): [bigint, bigint] {
  const b = boundaries(o).filter((x) => x.ms <= nowMs(o));
  return [toNs(b.at(-1)!.ms), o.nowNs];
}

/** The most recent `weekday` (1 = Monday) on which the shift has begun. */
function onWeekday(o: Oracle, weekday: number, name: string): [bigint, bigint] {
  for (let k = 0; k < 7; k++) {
    const day = shiftDate(o.today, -k);
    if (weekdayOfDate(day) !== weekday) continue;
    const r = onDay(o, -k, name);
    if (r[0] < o.nowNs) return r;
  }
  throw new Error('no such day');
}

const EXPECTED: Record<string, (o: Oracle) => [bigint, bigint]> = {
  'last shift': (o) => lastOver(o),
  'the last shift': (o) => lastOver(o),
  'the previous shift': (o) => lastOver(o),
  'this shift': (o) => going(o),
  'the current shift': (o) => going(o),
  'since shift start': (o) => going(o),
  'since the start of the shift': (o) => going(o),
  'this shift so far': (o) => going(o),
  'the night shift yesterday': (o) => onDay(o, -1, 'night'),
  "yesterday's night shift": (o) => onDay(o, -1, 'night'),
  'the morning shift on Tuesday': (o) => onWeekday(o, 2, 'morning'),
  'the late shift on Tuesday': (o) => onWeekday(o, 2, 'late'),
  'the night shift the day before yesterday': (o) => onDay(o, -2, 'night'),
  'the 22:00 shift yesterday': (o) => onDay(o, -1, 'night'),
  'last late shift': (o) => lastOver(o, 'late'),
  'last 3 shifts': (o) => lastN(o, 3),
  'the last 2 shifts': (o) => lastN(o, 2),
  'the previous morning shift': (o) => lastOver(o, 'morning'),
  'since last shift': (o) => [lastOver(o)[0], o.nowNs],
  'since the morning shift yesterday': (o) => [onDay(o, -1, 'morning')[0], o.nowNs],
  'the night shift on Monday to the morning shift on Tuesday': (o) => {
    // The most recent such span that is over: the Tuesday at most six days after the Monday.
    for (let k = 0; k < 14; k++) {
      const day = shiftDate(o.today, -k);
      if (weekdayOfDate(day) !== 1) continue;
      const start = onDay(o, -k, 'night')[0];
      const end = onDay(o, -k + 1, 'morning')[1];
      if (end <= o.nowNs && onDay(o, -k + 1, 'morning')[0] < o.nowNs) return [start, end];
    }
    throw new Error('no such span');
  },
};

const ns = (iso: string, extra = 0n) => BigInt(Date.parse(iso)) * 1_000_000n + extra;

const NOWS: [RuleZone, bigint][] = [
  ['America/New_York', ns('2026-11-01T12:00:00Z')], // Sun 07:00 EST: the night shift just over was 9 h
  ['America/New_York', ns('2026-03-08T12:00:00Z', 5n)], // Sun 08:00 EDT: the night shift just over was 7 h
  ['America/New_York', ns('2026-11-25T20:30:00Z')], // Wed 15:30 EST: an ordinary afternoon
  ['Australia/Adelaide', ns('2026-10-04T00:00:00Z')], // Sun 10:30 ACDT: last night's shift was 7 h
  ['Australia/Adelaide', ns('2026-04-05T01:00:00Z')], // Sun 10:30 ACST: last night's shift was 9 h
  ['Asia/Kathmandu', ns('2026-11-25T03:00:00Z', 42n)], // Wed 08:45
  ['Asia/Kathmandu', ns('2026-11-24T20:00:00Z')], // Wed 01:45, in the night shift that began on Tuesday
];

describe('shifts as the docs list them', () => {
  const [acceptedCells, refused] = tables();
  const accepted = acceptedCells.flatMap(backticked);

  it('every phrase the page lists has an expectation here, and no other', () => {
    expect([...accepted].sort()).toEqual(Object.keys(EXPECTED).sort());
    expect(refused.length).toBeGreaterThanOrEqual(4);
  });

  it.each(NOWS.map(([zone, now]) => [zone, new Date(Number(now / 1_000_000n)).toISOString(), now] as const))(
    'in %s at %s',
    (zone, _iso, now) => {
      const o = oracleAt(zone, now);
      for (const phrase of accepted) {
        const out = parseTimeRange(phrase, { now, timeZone: zone, requirePast: true, shifts: SHIFTS });
        expect(out.ok ? '' : out.error, phrase).toBe('');
        if (!out.ok) continue;
        expect([out.range.startNs, out.range.endNs], phrase).toEqual(EXPECTED[phrase]!(o));
      }
    },
  );

  it('a night shift across a daylight-saving change is 9 or 7 hours long, and says which shift it is', () => {
    const hours = (r: { startNs: bigint; endNs: bigint }) =>
      Number((r.endNs - r.startNs) / 3_600_000_000_000n);
    const fall = parseTimeRange('last shift', {
      now: ns('2026-11-01T12:00:00Z'),
      timeZone: 'America/New_York',
      shifts: SHIFTS,
    });
    expect(fall.ok && [hours(fall.range), fall.range.note]).toEqual([9, 'night shift = 22:00–06:00']);
    const spring = parseTimeRange('the night shift yesterday', {
      now: ns('2026-10-04T00:00:00Z'),
      timeZone: 'Australia/Adelaide',
      shifts: SHIFTS,
    });
    expect(spring.ok && hours(spring.range)).toBe(7);
  });

  // At 03:00 local, the night shift that began last night is still going on.
  const nights: [RuleZone, bigint][] = [
    ['America/New_York', ns('2026-11-25T08:00:00Z')],
    ['Australia/Adelaide', ns('2026-11-24T16:30:00Z')],
    ['Asia/Kathmandu', ns('2026-11-24T21:15:00Z')],
  ];

  it.each(nights)(
    'in %s: each refusal the page lists is refused, with a phrase that works as typed',
    (zone, now) => {
      for (const cell of refused) {
        const withShifts = !/without shifts/.test(cell);
        const text = backticked(cell)[0]!;
        const ctx = { now, timeZone: zone, requirePast: true, ...(withShifts ? { shifts: SHIFTS } : {}) };
        const out = parseTimeRange(text, ctx);
        expect(out.ok, text).toBe(false);
        if (out.ok) continue;
        expect(out.error, text).not.toMatch(/could not read/);
        const fix = parseTimeRange(out.examples[0]!, ctx);
        expect(fix.ok, `${text} → ${out.examples[0]}`).toBe(true);
      }
    },
  );

  it.each(nights)(
    'in %s: “the previous night shift” is the last one over, with no second reading',
    (zone, now) => {
      const out = parseTimeRange('the previous night shift', { now, timeZone: zone, shifts: SHIFTS });
      expect(out.ok && [out.range.startNs, out.range.endNs]).toEqual(lastOver(oracleAt(zone, now), 'night'));
    },
  );

  it('without shifts, a shift phrase says how to declare them', () => {
    const out = parseTimeRange('last shift', { now: ns('2026-11-25T08:00:00Z'), timeZone: 'Asia/Kathmandu' });
    expect(!out.ok && out.error).toContain('/tsai use shifts=06:00,14:00,22:00');
  });

  it('shifts without names are called by their start', () => {
    const shifts = (parseShifts('06:00,14:00,22:00') as { ok: true; shifts: Shift[] }).shifts;
    const now = ns('2026-11-25T03:00:00Z');
    const o = oracleAt('Asia/Kathmandu', now);
    const out = parseTimeRange('the 06:00 shift yesterday', { now, timeZone: 'Asia/Kathmandu', shifts });
    expect(out.ok && [out.range.startNs, out.range.endNs]).toEqual([
      o.wall(-1, '06:00'),
      o.wall(-1, '14:00'),
    ]);
  });
});

describe('declaring shifts', () => {
  it('reads starts and names, sorted by start', () => {
    expect(parseShifts('night@22:00, morning@6:00 ,late@14:00')).toEqual({
      ok: true,
      shifts: [
        { start: '06:00', name: 'morning' },
        { start: '14:00', name: 'late' },
        { start: '22:00', name: 'night' },
      ],
    });
    expect(formatShifts(SHIFTS)).toBe(DECLARED);
  });

  it.each([
    ['', 'No shifts given'],
    ['6am,2pm', 'does not give a start'],
    ['06:00,06:00', 'same time'],
    ['x@06:00,14:00', 'Name every shift'],
    ['day@06:00,day@18:00', 'same name'],
    ['last@06:00,b@18:00', 'cannot name a shift'],
    ['night-1@06:00', 'one word of letters'],
    ['25:00', 'does not give a start'],
  ])('refuses %j, with an example', (text, why) => {
    const out = parseShifts(text);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.error).toContain(why);
    expect(out.error).toContain('shifts=06:00,14:00,22:00');
  });
});
