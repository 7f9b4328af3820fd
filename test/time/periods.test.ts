// Named periods, weekday spans, "today" as an end, filler words and the service's bounds: every phrase ×
// five zones × reference instants on a Monday, on both daylight-saving changes, at a month end and at the
// year end. Expected instants come from hand-written specs evaluated by test/support/zone-oracle.ts (no Intl,
// no code from src/time); "W-7 09:00" is 09:00 local on the Monday of last week, "D0 12:00|now" is 12:00
// today, or now while that part of the day is still going on.
import { describe, expect, it } from 'vitest';
import { parseTimeRange, toIso } from '../../src/time/index.js';
import { isoZToNs, localWall, pairNs, type TestZone } from '../support/zone-oracle.js';

const ZONES: TestZone[] = ['UTC', 'America/New_York', 'Asia/Kolkata', 'Europe/Berlin', 'Europe/London'];
type Pair = readonly [string, string];
type Want = Pair | { refused: RegExp };
type PerZone = { all: Want } & Partial<Record<TestZone, Want>>;
type Row = readonly [phrase: string, want: Want | PerZone];

const refused = (pattern: RegExp): Want => ({ refused: pattern });
const z = (all: Want, over: Partial<Record<TestZone, Want>>): PerZone => ({ all, ...over });

// Valid at every reference in every zone: relative specs follow the local date.
const COMMON: Row[] = [
  ['today', ['D0 00:00', 'now']],
  ['yesterday', ['D-1 00:00', 'D0 00:00']],
  ['tomorrow', ['D+1 00:00', 'D+2 00:00']],
  ['yesterday to today', ['D-1 00:00', 'now']],
  ['from yesterday 9am until today', ['D-1 09:00', 'now']],
  ['last night', ['D-1 22:00', 'D0 06:00|now']],
  ['yesterday night', ['D-1 22:00', 'D0 06:00|now']],
  ['tonight', ['D0 22:00', 'D+1 06:00|now']],
  ['this morning', ['D0 06:00', 'D0 12:00|now']],
  ['this afternoon', ['D0 12:00', 'D0 18:00|now']],
  ['this evening', ['D0 18:00', 'D0 22:00|now']],
  ['yesterday morning', ['D-1 06:00', 'D-1 12:00']],
  ['yesterday afternoon', ['D-1 12:00', 'D-1 18:00']],
  ['yesterday evening', ['D-1 18:00', 'D-1 22:00']],
  ['tomorrow morning', ['D+1 06:00', 'D+1 12:00']],
  ['since last night', ['D-1 22:00', 'now']],
  ['this week', ['W0 00:00', 'now']],
  ['last week', ['W-7 00:00', 'W0 00:00']],
  ['previous week', ['W-7 00:00', 'W0 00:00']],
  ['the previous week', ['W-7 00:00', 'W0 00:00']],
  ['next week', ['W+7 00:00', 'W+14 00:00']],
  ['last week to now', ['W-7 00:00', 'now']],
  ['since last week', ['W-7 00:00', 'now']],
  ['this weekend', ['W+5 00:00', 'W+7 00:00|now']],
  ['last weekend', ['W-2 00:00', 'W0 00:00']],
  ['the last weekend', ['W-2 00:00', 'W0 00:00']],
  ['next weekend', ['W+12 00:00', 'W+14 00:00']],
  ['this month', ['M0', 'now']],
  ['last month', ['M-1', 'M0']],
  ['next month', ['M+1', 'M+2']],
  ['this year', ['Y0', 'now']],
  ['last year', ['Y-1', 'Y0']],
  ['next year', ['Y+1', 'Y+2']],
  ['the last 3 days', ['now-3d', 'now']],
  ['the past 24 hours', ['now-24h', 'now']],
  ['for the past week', ['now-7d', 'now']],
  ['over the last 2 days', ['now-2d', 'now']],
  ['within the past 90 minutes', ['now-90m', 'now']],
  ['the previous 2 weeks', ['now-14d', 'now']],
  ['past year', ['now-1y', 'now']],
  ['last 2 years', ['now-2y', 'now']],
  ['yesterday 9pm to midnight', ['D-1 21:00', 'D0 00:00']],
  ['midnight to 6am', ['D0 00:00', 'D0 06:00']],
  ['last day', refused(/could mean yesterday or the last 24 hours: write “yesterday” or “past 24 hours”/)],
  ['this day', refused(/write “today”/)],
  ['next day', refused(/write “tomorrow”/)],
  ['the last week', refused(/calendar week or the past 7 days: write “last week”.* or “past 7 days”/)],
  ['in the last month', refused(/calendar month or the past month: write “last month” or “past month”/)],
  ['the next year', refused(/calendar year or the coming year/)],
  ['weekend', refused(/this weekend or the last one: write “last weekend” or “this weekend”/)],
  ['the weekend', refused(/write “last weekend” or “this weekend”/)],
  ['morning', refused(/needs a day: write “yesterday morning”/)],
  ['night', refused(/write “last night”/)],
  ['last evening', refused(/write “yesterday evening” or “this evening”/)],
  ['next morning', refused(/write “yesterday morning” or “this morning”/)],
  ['this night', refused(/write “last night” or “tonight”/)],
  ['November', refused(/names a month but no day or year/)],
  ['last November', refused(/more than one November: give the year/)],
  ['the 3rd', refused(/“3” on its own is not a date: give its month/)],
  ['yesterday midnight', refused(/midnight could be the start or the end of that day/)],
  ['yesterday 10pm to 2am', ['D-1 22:00', 'D0 02:00']],
  ['1969-12-31 to 1970-01-02', refused(/before 1 Jan 1970 00:00 UTC, and the service keeps nothing earlier/)],
  ['Dec 31 1969 to Jan 2 1970', refused(/before 1 Jan 1970/)],
  ['last 60 years', refused(/before 1 Jan 1970/)],
  ['last 1000000 years', refused(/outside what the service can store/)],
  ['1970-01-01T00:00:00Z to 1970-01-01T00:00:01Z', ['1970-01-01T00:00:00Z', '1970-01-01T00:00:01Z']],
  [
    '2262-04-11T23:47:16.854775806Z to 2262-04-11T23:47:16.854775807Z',
    ['2262-04-11T23:47:16.854775806Z', '2262-04-11T23:47:16.854775807Z'],
  ],
  [
    '2262-04-11T23:47:16.854775806Z to 2262-04-11T23:47:16.854775808Z',
    refused(/after 11 Apr 2262 23:47 UTC, the latest time the service can store/),
  ],
  ['2286-11-20T17:46:39Z to 9999999999999999999', refused(/after 11 Apr 2262/)],
];

// Monday 23 Nov 2026 14:00 UTC: 09:00 in New York, 15:00 in Berlin, 19:30 in Kolkata; Monday everywhere.
const MONDAY: Row[] = [
  ['Monday 9am to Wednesday 5pm', ['W-7 09:00', 'W-5 17:00']],
  ['Monday to Wednesday', ['W-7 00:00', 'W-4 00:00']],
  ['Wednesday 5pm to Monday 9am', ['W-5 17:00', 'W0 09:00']],
  ['Friday to Monday', ['W-3 00:00', 'now']],
  ['Friday 5pm to Monday 8am', ['W-3 17:00', 'W0 08:00']],
  ['Saturday 10pm to Sunday 2am', ['W-2 22:00', 'W-1 02:00']],
  ['Monday 9am to 5pm', z(['W-7 09:00', 'W-7 17:00'], { 'Asia/Kolkata': ['W0 09:00', 'W0 17:00'] })],
  ['between 9am and 5pm Monday', z(['W-7 09:00', 'W-7 17:00'], { 'Asia/Kolkata': ['W0 09:00', 'W0 17:00'] })],
  ['Monday', ['W0 00:00', 'now']],
  ['this Monday', ['W0 00:00', 'now']],
  ['Sunday', ['W-1 00:00', 'W0 00:00']],
  ['since Monday 8am', ['W0 08:00', 'now']],
  ['last Monday', ['W-7 00:00', 'W-6 00:00']],
  ['next Friday', ['W+4 00:00', 'W+5 00:00']],
  ['this Friday', refused(/could be the Friday just gone or the coming one/)],
  ['Monday night', ['W-7 22:00', 'W-6 06:00']],
  ['Sunday night', ['W-1 22:00', 'W0 06:00']],
  ['Sun 22 Nov 09:00 – 17:00', ['2026-11-22 09:00', '2026-11-22 17:00']],
  ['Mon 23 Nov', ['W0 00:00', 'now']],
  ['Tue 23 Nov', refused(/23 Nov 2026 is a Monday, not a Tuesday/)],
  ['Nov 2025', ['2025-11-01 00:00', '2025-12-01 00:00']],
  ['Nov 20 to today', ['2026-11-20 00:00', 'now']],
  ['Nov 23', ['2026-11-23 00:00', 'now']],
  ['Nov 24', ['2025-11-24 00:00', '2025-11-25 00:00']],
  ['Nov 22 to Nov 24', ['2026-11-22 00:00', '2026-11-25 00:00']],
  ['Nov 24 to Nov 22', refused(/“Nov 22” does not come after “Nov 24”/)],
  ['Dec 30 to Jan 2', ['2025-12-30 00:00', '2026-01-03 00:00']],
  ['yesterday 9am EST to 5pm EST', ['2026-11-22T14:00:00Z', '2026-11-22T22:00:00Z']],
  ['yesterday 9:00 +05:30 to 17:00 +05:30', ['2026-11-22T03:30:00Z', '2026-11-22T11:30:00Z']],
  ['9am IST to 5pm IST', z(refused(/more than one time zone/), { 'Asia/Kolkata': ['D0 09:00', 'D0 17:00'] })],
];

// 2026-03-29T00:40Z, Europe's spring forward at 01:00Z: Berlin 01:40 CET (02:00–03:00 will not exist),
// London 00:40 GMT (01:00–02:00 will not exist), New York still on Saturday 20:40 EDT, Kolkata 06:10.
const EU_SPRING: Row[] = [
  ['today 1am to 4am', ['D0 01:00', 'D0 04:00']],
  [
    'today 2:30am to 3:30am',
    z(['D0 02:30', 'D0 03:30'], { 'Europe/Berlin': refused(/not after the start|give the end its day/) }),
  ],
  [
    'Mar 28 to Mar 29',
    z(['2026-03-28 00:00', 'now'], { 'America/New_York': ['2026-03-28 00:00', '2026-03-30 00:00'] }),
  ],
];

// 2026-11-01T05:30Z, New York at 01:30 EDT in the hour that repeats at 06:00Z.
const NY_FALL: Row[] = [
  ['today 1am to 2am', ['D0 01:00', 'D0 02:00']],
  ['today 1:30am to 1:45am', ['D0 01:30', 'D0 01:45']],
  ['Oct 31 6pm to Nov 1 3am', ['2026-10-31 18:00', '2026-11-01 03:00']],
];

// 2026-12-31T23:30Z: still Thursday 31 Dec in UTC, London and New York (18:30); already Friday 1 Jan 2027
// in Berlin (00:30) and Kolkata (05:00).
const YEAR_END: Row[] = [
  [
    'Dec 31',
    z(['2026-12-31 00:00', 'now'], {
      'Europe/Berlin': ['2026-12-31 00:00', '2027-01-01 00:00'],
      'Asia/Kolkata': ['2026-12-31 00:00', '2027-01-01 00:00'],
    }),
  ],
  [
    'Jan 1',
    z(['2026-01-01 00:00', '2026-01-02 00:00'], {
      'Europe/Berlin': ['2027-01-01 00:00', 'now'],
      'Asia/Kolkata': ['2027-01-01 00:00', 'now'],
    }),
  ],
  [
    'Dec 30 to Jan 1',
    z(['2026-12-30 00:00', '2027-01-02 00:00'], {
      'Europe/Berlin': ['2026-12-30 00:00', 'now'],
      'Asia/Kolkata': ['2026-12-30 00:00', 'now'],
    }),
  ],
  ['Dec 2026', ['2026-12-01 00:00', '2027-01-01 00:00|now']],
];

// Saturday 28 Feb 2026 12:20 UTC (07:20 in New York, 17:50 in Kolkata): a month end in a year without 29 Feb.
const MONTH_END: Row[] = [
  ['Feb 28 to Mar 1', ['2026-02-28 00:00', '2026-03-02 00:00']],
  ['the 28th of February 2026', ['2026-02-28 00:00', 'now']],
  ['Feb 30', refused(/“Feb 30” is not a date: February has at most 29 days/)],
  ['Feb 29 2026', refused(/“Feb 29 2026” is not a date: February 2026 has 28 days/)],
  ['2026-02-29', refused(/February 2026 has 28 days/)],
];

// Sunday 22 Nov 2026 10:00 UTC, the end-to-end harness's clock (05:00 in New York).
const SUNDAY: Row[] = [
  ['Monday 9am to Wednesday 5pm', ['W0 09:00', 'W+2 17:00']],
  ['Friday to Sunday', ['W+4 00:00', 'now']],
  ['Saturday night', ['W+5 22:00', 'W+6 06:00|now']],
  ['last Sunday', ['W-1 00:00', 'W0 00:00']],
];

const REFERENCES: { label: string; now: string; dates: Record<TestZone, string>; rows: Row[] }[] = [
  {
    label: 'Monday',
    now: '2026-11-23T14:00:00Z',
    dates: dates('2026-11-23', '2026-11-23', '2026-11-23', '2026-11-23', '2026-11-23'),
    rows: [...COMMON, ...MONDAY],
  },
  {
    label: 'EU spring forward',
    now: '2026-03-29T00:40:00Z',
    dates: dates('2026-03-29', '2026-03-28', '2026-03-29', '2026-03-29', '2026-03-29'),
    rows: [...COMMON, ...EU_SPRING],
  },
  {
    label: 'New York fall back',
    now: '2026-11-01T05:30:00Z',
    dates: dates('2026-11-01', '2026-11-01', '2026-11-01', '2026-11-01', '2026-11-01'),
    rows: [...COMMON, ...NY_FALL],
  },
  {
    label: 'year end',
    now: '2026-12-31T23:30:00Z',
    dates: dates('2026-12-31', '2026-12-31', '2027-01-01', '2027-01-01', '2026-12-31'),
    rows: [...COMMON, ...YEAR_END],
  },
  {
    label: 'month end',
    now: '2026-02-28T12:20:00Z',
    dates: dates('2026-02-28', '2026-02-28', '2026-02-28', '2026-02-28', '2026-02-28'),
    rows: [...COMMON, ...MONTH_END],
  },
  {
    label: 'harness Sunday',
    now: '2026-11-22T10:00:00Z',
    dates: dates('2026-11-22', '2026-11-22', '2026-11-22', '2026-11-22', '2026-11-22'),
    rows: [...COMMON, ...SUNDAY],
  },
];

function dates(utc: string, ny: string, kolkata: string, berlin: string, london: string) {
  return {
    UTC: utc,
    'America/New_York': ny,
    'Asia/Kolkata': kolkata,
    'Europe/Berlin': berlin,
    'Europe/London': london,
  };
}

function wantFor(w: Want | PerZone, zone: TestZone): Want {
  if ('all' in w) return w[zone] ?? w.all;
  return w;
}

describe('named periods, weekday spans and bounds', () => {
  for (const ref of REFERENCES) {
    const now = isoZToNs(ref.now);
    const nowDate = new Date(ref.now);
    for (const zone of ZONES) {
      describe(`${ref.label} (${ref.now}) in ${zone}`, () => {
        it('the oracle agrees with the hand-written local date', () => {
          expect(localWall(zone, Number(now / 1_000_000n)).date).toBe(ref.dates[zone]);
        });
        it.each(ref.rows)('%s', (phrase, w) => {
          const want = wantFor(w, zone);
          const out = parseTimeRange(phrase, { now: nowDate, timeZone: zone });
          if ('refused' in want) {
            if (out.ok) throw new Error(`${phrase}: expected a refusal, got ${toIso(out.range.startNs)}`);
            expect(out.error).toMatch(want.refused);
            // Every refusal offers a correct example first.
            const example = parseTimeRange(out.examples[0] ?? '', { now: nowDate, timeZone: zone });
            expect(example.ok ? 'ok' : example.error, out.examples[0]).toBe('ok');
            return;
          }
          if (!out.ok) throw new Error(`${phrase}: ${out.error}`);
          const [start, end] = pairNs(want, zone, now);
          expect({ start: toIso(out.range.startNs), end: toIso(out.range.endNs) }).toEqual({
            start: toIso(start),
            end: toIso(end),
          });
        });
      });
    }
  }
});
