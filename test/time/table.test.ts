// Phrase table: every phrase × every zone × reference instants around DST changes and local midnight.
// Expected instants come from hand-written specs evaluated by test/support/zone-oracle.ts (no Intl, no
// code from src/time), e.g. "D-1 09:00" = 09:00 local on the day before the local date of `now`.
import { describe, expect, it } from 'vitest';
import { parseTimeRange, toIso } from '../../src/time/index.js';
import {
  addDaysToDate,
  isoZToNs,
  localToUtcMs,
  localWall,
  mondayOf,
  type TestZone,
} from '../support/zone-oracle.js';

type Zone4 = Exclude<TestZone, 'Europe/London'>;
const ZONES: Zone4[] = ['UTC', 'America/New_York', 'Asia/Kolkata', 'Europe/Berlin'];
type Pair = [string, string];
type Expect = Pair | Record<Zone4, Pair>;
type Case = [phrase: string, expected: Expect];

function perZone(utc: Pair, ny: Pair, kolkata: Pair, berlin: Pair): Record<Zone4, Pair> {
  return { UTC: utc, 'America/New_York': ny, 'Asia/Kolkata': kolkata, 'Europe/Berlin': berlin };
}

function perZoneDate(utc: string, ny: string, kolkata: string, berlin: string): Record<Zone4, string> {
  return { UTC: utc, 'America/New_York': ny, 'Asia/Kolkata': kolkata, 'Europe/Berlin': berlin };
}

function expectedNs(spec: string, zone: TestZone, nowNs: bigint): bigint {
  const nowMs = Number(nowNs / 1_000_000n);
  const subMs = nowNs % 1_000_000n;
  const today = localWall(zone, nowMs).date;
  if (spec === 'now') return nowNs;
  const exact = /^now-(\d+)([smh])$/.exec(spec);
  if (exact) {
    const m = exact;
    const unit = { s: 1n, m: 60n, h: 3600n }[m[2] as 's' | 'm' | 'h'];
    return nowNs - BigInt(m[1]!) * unit * 1_000_000_000n;
  }
  const calendar = /^now-(\d+)(d|mo)$/.exec(spec);
  if (calendar) {
    const m = calendar;
    const { date, time } = localWall(zone, nowMs);
    let back: string;
    if (m[2] === 'd') back = addDaysToDate(date, -Number(m[1]));
    else {
      const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
      const total = y * 12 + (mo - 1) - Number(m[1]);
      back = `${Math.floor(total / 12)}-${String((total % 12) + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
    }
    return BigInt(localToUtcMs(zone, `${back} ${time}`)) * 1_000_000n + subMs;
  }
  const relative = /^([DW])(-?\d+) (\d\d:\d\d)$/.exec(spec);
  if (relative) {
    const m = relative;
    const base = m[1] === 'D' ? today : mondayOf(today);
    return BigInt(localToUtcMs(zone, `${addDaysToDate(base, Number(m[2]))} ${m[3]}`)) * 1_000_000n;
  }
  if (/^\d{4}-\d\d-\d\d \d\d:\d\d$/.test(spec)) return BigInt(localToUtcMs(zone, spec)) * 1_000_000n;
  if (spec.endsWith('Z')) return isoZToNs(spec);
  throw new Error(`bad spec ${spec}`);
}

const DAY: Pair = ['D-1 00:00', 'D0 00:00'];
const WORKDAY_YESTERDAY: Pair = ['D-1 09:00', 'D-1 17:00'];
const NOV1_3: Pair = ['2026-11-01 00:00', '2026-11-04 00:00'];
const NOV1_WORK: Pair = ['2026-11-01 09:00', '2026-11-01 17:00'];
const OCT30: Pair = ['2026-10-30 00:00', '2026-10-31 00:00'];
const EPOCH_PAIR: Pair = ['2026-11-01T06:00:00Z', '2026-11-01T14:00:00Z'];

// Reference 1: 2026-11-02T03:30Z. New York fell back 21.5 h earlier and is still on Sunday 1 Nov 22:30 EST;
// UTC and Kolkata (09:00 IST) are on Monday 2 Nov, so "yesterday" differs between zones.
const TABLE_NOV: Case[] = [
  ['today', ['D0 00:00', 'now']],
  ['TODAY', ['D0 00:00', 'now']],
  ['yesterday', DAY],
  ['this week', ['W0 00:00', 'now']],
  ['last week', ['W-7 00:00', 'W0 00:00']],
  ['previous week', ['W-7 00:00', 'W0 00:00']],
  ['this month', ['2026-11-01 00:00', 'now']],
  ['last month', ['2026-10-01 00:00', '2026-11-01 00:00']],
  ['last 3 days', ['now-3d', 'now']],
  ['last 7 days', ['now-7d', 'now']],
  ['past week', ['now-7d', 'now']],
  ['past 2 weeks', ['now-14d', 'now']],
  ['past day', ['now-1d', 'now']],
  ['past 24 hours', ['now-24h', 'now']],
  ['last 24h', ['now-24h', 'now']],
  ['last 90 minutes', ['now-90m', 'now']],
  ['last hour', ['now-1h', 'now']],
  ['past 15 mins', ['now-15m', 'now']],
  ['last 30 seconds', ['now-30s', 'now']],
  ['in the last 2 hours', ['now-2h', 'now']],
  ['last 2 months', ['now-2mo', 'now']],
  ['yesterday 9am to 5pm', WORKDAY_YESTERDAY],
  ['yesterday 9am until 5pm', WORKDAY_YESTERDAY],
  ['yesterday 9am till 5pm', WORKDAY_YESTERDAY],
  ['yesterday 9am through 5pm', WORKDAY_YESTERDAY],
  ['yesterday 9am - 5pm', WORKDAY_YESTERDAY],
  ['yesterday 9am – 5pm', WORKDAY_YESTERDAY],
  ['yesterday 9am — 5pm', WORKDAY_YESTERDAY],
  ['yesterday 9am..5pm', WORKDAY_YESTERDAY],
  ['between 9am and 5pm yesterday', WORKDAY_YESTERDAY],
  ['“yesterday 9am to 5pm”', WORKDAY_YESTERDAY],
  ['"yesterday 9am to 5pm"', WORKDAY_YESTERDAY],
  ['‘last 3 days’', ['now-3d', 'now']],
  ['“yesterday 9am to 5pm"', WORKDAY_YESTERDAY],
  ['  Yesterday 9AM   to 5PM ', WORKDAY_YESTERDAY],
  ['yesterday 9:30am to 4:45pm', ['D-1 09:30', 'D-1 16:45']],
  ['yesterday noon to 6pm', ['D-1 12:00', 'D-1 18:00']],
  ['yesterday 5pm to today 1am', ['D-1 17:00', 'D0 01:00']],
  ['9am to 5pm', ['D0 09:00', 'D0 17:00']],
  ['yesterday 9am to now', ['D-1 09:00', 'now']],
  ['since yesterday', ['D-1 00:00', 'now']],
  ['since yesterday 8am', ['D-1 08:00', 'now']],
  ['since Monday', ['W0 00:00', 'now']],
  [
    'since Monday 8am',
    perZone(['W-7 08:00', 'now'], ['W0 08:00', 'now'], ['W0 08:00', 'now'], ['W-7 08:00', 'now']),
  ],
  ['since Oct 30', ['2026-10-30 00:00', 'now']],
  ['since 2026-11-01T12:00:00Z', ['2026-11-01T12:00:00Z', 'now']],
  ['from Nov 1 to Nov 3', NOV1_3],
  ['Nov 1 - Nov 3', NOV1_3],
  ['Nov 1-3', NOV1_3],
  ['Nov 1 to 3', NOV1_3],
  ['2026-11-01 to 2026-11-03', NOV1_3],
  [
    '2026-10-31..2026-11-01',
    perZone(
      ['2026-10-31 00:00', '2026-11-02 00:00'],
      ['2026-10-31 00:00', 'now'], // Nov 1 is still going on in New York: as an end it means now
      ['2026-10-31 00:00', '2026-11-02 00:00'],
      ['2026-10-31 00:00', '2026-11-02 00:00'],
    ),
  ],
  ['Nov 1 9:00 - 17:00', NOV1_WORK],
  ['Nov 1 9am-5pm', NOV1_WORK],
  ['2026-11-01T09:00 to 2026-11-01T17:00', NOV1_WORK],
  ['2026-11-01 09:00 to 2026-11-01 17:00', NOV1_WORK],
  ['Oct 31 22:00 to Nov 1 02:00', ['2026-10-31 22:00', '2026-11-01 02:00']],
  ['Nov 1 1:30am to 3am', ['2026-11-01 01:30', '2026-11-01 03:00']],
  ['Nov 1 01:00 - 01:59', ['2026-11-01 01:00', '2026-11-01 01:59']],
  ['Oct 30 9am to Nov 1 5pm', ['2026-10-30 09:00', '2026-11-01 17:00']],
  ['Mar 8 2026 2:30am to 4am', ['2026-03-08 02:30', '2026-03-08 04:00']],
  ['Mar 8 2026 1:00 - 3:30', ['2026-03-08 01:00', '2026-03-08 03:30']],
  ['Mar 7 2026 to Mar 9 2026', ['2026-03-07 00:00', '2026-03-10 00:00']],
  ['2026-03-08', ['2026-03-08 00:00', '2026-03-09 00:00']],
  [
    'Nov 1',
    perZone(
      ['2026-11-01 00:00', '2026-11-02 00:00'],
      ['2026-11-01 00:00', 'now'], // still running in New York
      ['2026-11-01 00:00', '2026-11-02 00:00'],
      ['2026-11-01 00:00', '2026-11-02 00:00'],
    ),
  ],
  ['Oct 30', OCT30],
  ['October 30th', OCT30],
  ['Friday', OCT30],
  ['last Friday', OCT30],
  ['2026-11-01T09:00:00Z to 2026-11-01T17:00:00Z', ['2026-11-01T09:00:00Z', '2026-11-01T17:00:00Z']],
  [
    '2026-11-01T09:00:00.123456789Z to 2026-11-01T17:00:00.987654321+05:30',
    ['2026-11-01T09:00:00.123456789Z', '2026-11-01T11:30:00.987654321Z'],
  ],
  [
    'between 2026-11-01T09:00-05:00 and 2026-11-01T17:00-05:00',
    ['2026-11-01T14:00:00Z', '2026-11-01T22:00:00Z'],
  ],
  ['1793512800 to 1793541600', EPOCH_PAIR],
  ['1793512800000 - 1793541600000', EPOCH_PAIR],
  ['1793512800000000 .. 1793541600000000', EPOCH_PAIR],
  [
    '1793512800123456789 to 1793541600987654321',
    ['2026-11-01T06:00:00.123456789Z', '2026-11-01T14:00:00.987654321Z'],
  ],
];

// Reference 2: 2026-03-08T20:15Z. New York sprang forward at 07:00Z that day (16:15 EDT);
// Kolkata is already on Monday 9 Mar 01:45, UTC on Sunday 8 Mar.
const TABLE_MAR: Case[] = [
  ['today', ['D0 00:00', 'now']],
  ['yesterday', DAY],
  ['this week', ['W0 00:00', 'now']],
  ['last week', ['W-7 00:00', 'W0 00:00']],
  ['last 3 days', ['now-3d', 'now']],
  ['last 7 days', ['now-7d', 'now']],
  ['past 24 hours', ['now-24h', 'now']],
  ['last 90 minutes', ['now-90m', 'now']],
  ['yesterday 9am to 5pm', WORKDAY_YESTERDAY],
  ['between 9am and 5pm yesterday', WORKDAY_YESTERDAY],
  ['today 1am to 4am', ['D0 01:00', 'D0 04:00']],
  ['today 2:30am to 5am', ['D0 02:30', 'D0 05:00']],
  ['since yesterday', ['D-1 00:00', 'now']],
  [
    'since Monday 8am',
    perZone(['W0 08:00', 'now'], ['W0 08:00', 'now'], ['W-7 08:00', 'now'], ['W0 08:00', 'now']),
  ],
  [
    'Mar 7 to Mar 8',
    perZone(
      ['2026-03-07 00:00', 'now'], // Mar 8 is today: as an end it means now
      ['2026-03-07 00:00', 'now'],
      ['2026-03-07 00:00', '2026-03-09 00:00'], // already Mar 9 in Kolkata
      ['2026-03-07 00:00', 'now'],
    ),
  ],
  ['this month', ['2026-03-01 00:00', 'now']],
  ['last month', ['2026-02-01 00:00', '2026-03-01 00:00']],
];

// Reference 3: a nanosecond-precise now, 2026-07-15T03:10:00.123456789Z (New York: Tue 14 Jul 23:10 EDT).
const TABLE_JUL: Case[] = [
  ['today', ['D0 00:00', 'now']],
  ['yesterday', DAY],
  ['last 24h', ['now-24h', 'now']],
  ['last 3 days', ['now-3d', 'now']],
  ['past 90 minutes', ['now-90m', 'now']],
  ['this week', ['W0 00:00', 'now']],
  ['since yesterday 8am', ['D-1 08:00', 'now']],
  ['yesterday 9am to 5pm', WORKDAY_YESTERDAY],
];

// Reference 4: 2026-10-25T00:30Z, Berlin at 02:30 CEST half an hour before it falls back (02:00-03:00
// happens twice); New York is still on Saturday 24 Oct 20:30 EDT.
const TABLE_OCT: Case[] = [
  ['today', ['D0 00:00', 'now']],
  ['yesterday', DAY],
  ['last 3 hours', ['now-3h', 'now']],
  ['last 2 days', ['now-2d', 'now']],
  ['this week', ['W0 00:00', 'now']],
  // A date without a year is the most recent one: in New York Oct 25 has not come yet, so it is 2025's.
  [
    'Oct 25 2:30am to 3:30am',
    perZone(
      ['2026-10-25 02:30', '2026-10-25 03:30'],
      ['2025-10-25 02:30', '2025-10-25 03:30'],
      ['2026-10-25 02:30', '2026-10-25 03:30'],
      ['2026-10-25 02:30', '2026-10-25 03:30'],
    ),
  ],
  [
    'Oct 25 1am to 4am',
    perZone(
      ['2026-10-25 01:00', '2026-10-25 04:00'],
      ['2025-10-25 01:00', '2025-10-25 04:00'],
      ['2026-10-25 01:00', '2026-10-25 04:00'],
      ['2026-10-25 01:00', '2026-10-25 04:00'],
    ),
  ],
  [
    'Oct 24 to Oct 25',
    perZone(
      ['2026-10-24 00:00', 'now'],
      ['2026-10-24 00:00', '2026-10-26 00:00'], // Oct 25 is still to come in New York
      ['2026-10-24 00:00', 'now'],
      ['2026-10-24 00:00', 'now'],
    ),
  ],
  ['yesterday 9am to 5pm', WORKDAY_YESTERDAY],
  ['since yesterday 8pm', ['D-1 20:00', 'now']],
];

const REFERENCES: { now: bigint; localDates: Record<Zone4, string>; table: Case[] }[] = [
  {
    now: isoZToNs('2026-11-02T03:30:00Z'),
    localDates: perZoneDate('2026-11-02', '2026-11-01', '2026-11-02', '2026-11-02'),
    table: TABLE_NOV,
  },
  {
    now: isoZToNs('2026-03-08T20:15:00Z'),
    localDates: perZoneDate('2026-03-08', '2026-03-08', '2026-03-09', '2026-03-08'),
    table: TABLE_MAR,
  },
  {
    now: isoZToNs('2026-07-15T03:10:00.123456789Z'),
    localDates: perZoneDate('2026-07-15', '2026-07-14', '2026-07-15', '2026-07-15'),
    table: TABLE_JUL,
  },
  {
    now: isoZToNs('2026-10-25T00:30:00Z'),
    localDates: perZoneDate('2026-10-25', '2026-10-24', '2026-10-25', '2026-10-25'),
    table: TABLE_OCT,
  },
];

describe('phrase table', () => {
  it('has at least 60 phrases for the first reference instant', () => {
    expect(new Set(TABLE_NOV.map(([p]) => p)).size).toBeGreaterThanOrEqual(60);
  });

  for (const ref of REFERENCES) {
    for (const zone of ZONES) {
      const label = `${toIso(ref.now)} in ${zone}`;
      it(`oracle agrees with the hand-written local date (${label})`, () => {
        const want = ref.localDates[zone];
        expect(localWall(zone, Number(ref.now / 1_000_000n)).date).toBe(want);
      });
      describe(label, () => {
        it.each(ref.table)('%s', (phrase, expected) => {
          const pair = Array.isArray(expected) ? expected : expected[zone];
          const want = {
            start: toIso(expectedNs(pair[0], zone, ref.now)),
            end: toIso(expectedNs(pair[1], zone, ref.now)),
          };
          const nowArg = ref.now % 1_000_000n === 0n ? new Date(Number(ref.now / 1_000_000n)) : ref.now;
          const out = parseTimeRange(phrase, { now: nowArg, timeZone: zone });
          if (!out.ok) throw new Error(`${phrase}: ${out.error}`);
          expect({ start: toIso(out.range.startNs), end: toIso(out.range.endNs) }).toEqual(want);
        });
      });
    }
  }
});
