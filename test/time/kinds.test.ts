// A table per kind of phrase people write (docs/time-ranges.md, "What you can type"), each read in six
// zones at instants on daylight-saving changes and year ends, against Python's zoneinfo (kinds.ts).
import { phraseTable } from './kinds.js';

const SHIFTS = [
  { start: '06:00', name: 'morning' },
  { start: '14:00', name: 'late' },
  { start: '22:00', name: 'night' },
];

phraseTable('offsets from now, as query tools write them', [
  { phrase: 'now-2h', expect: ['now-2h', 'now'] },
  { phrase: 'now-30m to now-10m', expect: ['now-30m', 'now-10m'] },
  { phrase: 'now-30m..now-10m', expect: ['now-30m', 'now-10m'] },
  { phrase: '-90m', expect: ['now-90m', 'now'] },
  { phrase: '-6h to -1h', expect: ['now-6h', 'now-1h'] },
  { phrase: 'now - 2h', expect: ['now-2h', 'now'] },
  { phrase: 'now-45s', expect: ['now-45s', 'now'] },
  { phrase: 'now-1m', expect: ['now-1m', 'now'] },
  { phrase: 'now-3hr', expect: ['now-3h', 'now'] },
  { phrase: 'now-3d', expect: ['now-3d', 'now'] },
  { phrase: '-7d', expect: ['now-7d', 'now'] },
  { phrase: 'now-2wk', expect: ['now-2w', 'now'] },
  { phrase: 'now-2mo', expect: ['now-2mo', 'now'] },
  { phrase: 'now-1M', expect: ['now-1mo', 'now'] },
  { phrase: '-1mon', expect: ['now-1mo', 'now'] },
  { phrase: 'now-1y', expect: ['now-1y', 'now'] },
  { phrase: 'now-1d/d', expect: ['D-1', 'D0'] },
  { phrase: 'now-1M/M', expect: ['M-1', 'M0'] },
  { phrase: 'now-1y/y', expect: ['Y-1', 'Y0'] },
  { phrase: 'now/d', expect: ['D0', 'now'] },
  { phrase: 'now-1d/d to now/d', expect: ['D-1', 'now'] },
  { phrase: '-1d@d to @d', expect: ['D-1', 'D0'] },
  { phrase: '@d', expect: ['D0', 'now'] },
  { phrase: '-1w@w1 to @w1', expect: ['W-1', 'W0'] },
  { phrase: 'now-3h@h to now-1h@h', expect: ['H-3', 'H-1'] },
  { phrase: 'now-0h', expect: 'refused' },
  { phrase: 'now-1w/w', expect: 'refused' }, // tools start weeks on different days
  { phrase: 'now+1h', expect: 'refused' },
]);

phraseTable('ISO 8601 intervals, to the nanosecond', [
  {
    phrase: '2026-03-01T06:00Z/PT12H',
    expect: ['abs 2026-03-01T06:00:00Z', 'abs 2026-03-01T18:00:00Z'],
  },
  {
    phrase: '2026-03-01T06:00:00.123456789+01:00/2026-03-01T18:00:00.987654321+01:00',
    expect: ['abs 2026-03-01T06:00:00.123456789+01:00', 'abs 2026-03-01T18:00:00.987654321+01:00'],
  },
  {
    phrase: 'PT6H30M/2026-03-08T12:00:00-05:00',
    expect: ['abs 2026-03-08T05:30:00-05:00', 'abs 2026-03-08T12:00:00-05:00'],
  },
  {
    phrase: '2026-03-08T06:00:00.5Z/PT1.25S',
    expect: ['abs 2026-03-08T06:00:00.5Z', 'abs 2026-03-08T06:00:01.75Z'],
  },
  { phrase: '2026-03-07/2026-03-08', expect: ['2026-03-07', '2026-03-09'] },
  { phrase: '2026-03-07--2026-03-08', expect: ['2026-03-07', '2026-03-09'] },
  { phrase: '2026-03-07/P2D', expect: ['2026-03-07', '2026-03-09'] },
  { phrase: '2026-03-07T22:00/PT8H', expect: ['2026-03-07 22:00', '2026-03-07 22:00 +8h'] },
  { phrase: '2026-03-07T12:00/P1D', expect: ['2026-03-07 12:00', '2026-03-08 12:00'] },
  { phrase: '2026-10-24T12:00/P1DT1H', expect: ['2026-10-24 12:00', '2026-10-25 12:00 +1h'] },
  { phrase: '2026-03-07T06:00/18:00', expect: ['2026-03-07 06:00', '2026-03-07 18:00'] },
  { phrase: '2026-03-07/08', expect: ['2026-03-07', '2026-03-09'] },
  {
    phrase: '2026-03-07T06:00+05:45/P1D',
    expect: ['abs 2026-03-07T06:00:00+05:45', 'abs 2026-03-08T06:00:00+05:45'],
  },
  { phrase: '2026-W10/2026-W11', expect: ['ISOW2026w10', 'ISOW2026w12'] },
  { phrase: 'PT1H/PT2H', expect: 'refused' },
  { phrase: '2026-02-30/P1D', expect: 'refused' },
]);

phraseTable(
  'so far and to date',
  [
    { phrase: 'today so far', expect: ['D0', 'now'] },
    { phrase: 'so far today', expect: ['D0', 'now'] },
    { phrase: 'this week so far', expect: ['W0', 'now'] },
    { phrase: 'week to date', expect: ['W0', 'now'] },
    { phrase: 'WTD', expect: ['W0', 'now'] },
    { phrase: 'month to date', expect: ['M0', 'now'] },
    { phrase: 'MTD', expect: ['M0', 'now'] },
    { phrase: 'year-to-date', expect: ['Y0', 'now'] },
    { phrase: 'YTD', expect: ['Y0', 'now'] },
    { phrase: 'this shift so far', expect: ['SHIFT', 'now'] },
    { phrase: 'so far this shift', expect: ['SHIFT', 'now'] },
    { phrase: 'since shift start', expect: ['SHIFT', 'now'] },
    { phrase: 'since the start of the shift', expect: ['SHIFT', 'now'] },
    { phrase: 'yesterday so far', expect: 'refused' },
  ],
  { shifts: SHIFTS },
);

phraseTable('week numbers: ISO weeks in the person’s zone', [
  { phrase: '2026-W09', expect: ['ISOW2026w9', 'ISOW2026w10'] },
  { phrase: '2026W09', expect: ['ISOW2026w9', 'ISOW2026w10'] },
  { phrase: 'W9 2026', expect: ['ISOW2026w9', 'ISOW2026w10'] },
  { phrase: 'week 9 of 2026', expect: ['ISOW2026w9', 'ISOW2026w10'] },
  { phrase: 'KW 9/2026', expect: ['ISOW2026w9', 'ISOW2026w10'] },
  { phrase: 'KW09 2026', expect: ['ISOW2026w9', 'ISOW2026w10'] },
  { phrase: '2026-W10-3', expect: ['ISOW2026w10+2d', 'ISOW2026w10+3d'] },
  { phrase: 'week 53 of 2020', expect: ['ISOW2020w53', 'ISOW2021w1'] },
  { phrase: 'W1', expect: ['ISOWR1', 'ISOWR1+7d'] },
  { phrase: 'week 1', expect: ['ISOWR1', 'ISOWR1+7d'] },
  { phrase: 'KW 1', expect: ['ISOWR1', 'ISOWR1+7d'] },
  { phrase: 'CW 1', expect: ['ISOWR1', 'ISOWR1+7d'] },
  { phrase: 'since W1', expect: ['ISOWR1', 'now'] },
  { phrase: 'week 53 of 2025', expect: 'refused' },
  { phrase: 'week 54', expect: 'refused' },
]);

phraseTable('night shifts across midnight: the end is the next time its clock time comes', [
  { phrase: 'yesterday 10pm to 6am', expect: ['D-1 22:00', 'D0 06:00'] },
  { phrase: 'from 23:00 yesterday until 07:00', expect: ['D-1 23:00', 'D0 07:00'] },
  { phrase: 'yesterday 22:00 to 6:00', expect: ['D-1 22:00', 'D0 06:00'] },
  { phrase: 'yesterday 5pm to 9am', expect: ['D-1 17:00', 'D0 09:00'] },
  { phrase: 'yesterday from 9pm to 5:30am', expect: ['D-1 21:00', 'D0 05:30'] },
  { phrase: 'the day before yesterday 9pm to 5am', expect: ['D-2 21:00', 'D-1 05:00'] },
  { phrase: '2026-02-01 22:00 to 06:00', expect: ['2026-02-01 22:00', '2026-02-02 06:00'] },
  { phrase: 'yesterday 8:30 to 4:30', expect: ['D-1 08:30', 'D-1 16:30'] },
  { phrase: '10pm to 6am', expect: 'refused' }, // which night?
  { phrase: 'yesterday 10pm to 10pm', expect: 'refused' },
]);

phraseTable('spans of hours tied to a day or a part of it', [
  { phrase: 'yesterday 8-4', expect: ['D-1 08:00', 'D-1 16:00'] },
  { phrase: '8-4 yesterday', expect: ['D-1 08:00', 'D-1 16:00'] },
  { phrase: 'yesterday between 8 and 4', expect: ['D-1 08:00', 'D-1 16:00'] },
  { phrase: 'today from 2pm-4', expect: ['D0 14:00', 'D0 16:00'] },
  { phrase: 'yesterday 11-1pm', expect: ['D-1 11:00', 'D-1 13:00'] },
  { phrase: 'yesterday 10-6am', expect: ['D-1 22:00', 'D0 06:00'] },
  { phrase: 'yesterday 22-6', expect: ['D-1 22:00', 'D0 06:00'] },
  { phrase: 'yesterday 6-22', expect: ['D-1 06:00', 'D-1 22:00'] },
  { phrase: 'between 6 and 8 this evening', expect: ['D0 18:00', 'D0 20:00'] },
  { phrase: 'this morning 6-8', expect: ['D0 06:00', 'D0 08:00'] },
  { phrase: 'yesterday afternoon 1-5', expect: ['D-1 13:00', 'D-1 17:00'] },
  { phrase: 'last night 11-5', expect: ['D-1 23:00', 'D0 05:00'] },
  { phrase: 'last night 1-5', expect: ['D0 01:00', 'D0 05:00'] },
  { phrase: 'this evening 6pm to 8pm', expect: ['D0 18:00', 'D0 20:00'] },
  { phrase: 'yesterday 1-5', expect: { readings: 2 } },
  { phrase: 'yesterday 8-12', expect: { readings: 2 } },
  { phrase: 'yesterday 12-4', expect: { readings: 2 } },
  { phrase: 'this morning 8pm to 10pm', expect: 'refused' },
]);

phraseTable('calendar spans', [
  { phrase: 'the last day of last month', expect: ['M0-1d', 'M0'] },
  { phrase: 'the first day of last month', expect: ['M-1', 'M-1+1d'] },
  { phrase: 'the 15th of last month', expect: ['M-1+14d', 'M-1+15d'] },
  { phrase: 'the last day of last year', expect: ['Y0-1d', 'Y0'] },
  { phrase: 'the first day of last week', expect: ['W-1', 'W-1+1d'] },
  { phrase: 'the week before last', expect: ['W-2', 'W-1'] },
  { phrase: 'the month before last', expect: ['M-2', 'M-1'] },
  { phrase: 'the weekend before last', expect: ['W-1-2d', 'W-1'] },
  { phrase: 'last weekend', expect: ['W0-2d', 'W0'] },
  { phrase: 'since the start of the week', expect: ['W0', 'now'] },
  { phrase: 'since the beginning of the year', expect: ['Y0', 'now'] },
  { phrase: 'from the start of last month to now', expect: ['M-1', 'now'] },
  { phrase: 'the start of last week to the end of last week', expect: ['W-1', 'W0'] },
  { phrase: 'from Jan to Feb', expect: ['MONR1', 'MONR1+2m'] },
  { phrase: 'Jan-Feb', expect: ['MONR1', 'MONR1+2m'] },
  { phrase: 'from Nov to Feb', expect: ['MONR11', 'MONR11+4m'] },
  { phrase: 'between January and February', expect: ['MONR1', 'MONR1+2m'] },
  { phrase: 'since January', expect: ['MONR1', 'now'] },
  { phrase: 'March to June 2025', expect: ['2025-03-01', '2025-07-01'] },
]);

phraseTable('timestamps as programs print them', [
  {
    phrase: 'Tue Mar 3 14:05:00 PST 2026 to Tue Mar 3 18:05:00 PST 2026',
    expect: ['abs 2026-03-03T14:05:00-08:00', 'abs 2026-03-03T18:05:00-08:00'],
  },
  {
    phrase: 'Tue, 03 Mar 2026 14:05:00 +0000 to Tue, 03 Mar 2026 18:05:00 +0000',
    expect: ['abs 2026-03-03T14:05:00Z', 'abs 2026-03-03T18:05:00Z'],
  },
  { phrase: 'since Tue, 03 Mar 2026 14:05:00 GMT', expect: ['abs 2026-03-03T14:05:00Z', 'now'] },
  { phrase: 'since Tue Mar 3 14:05:00 UTC 2026', expect: ['abs 2026-03-03T14:05:00Z', 'now'] },
  {
    phrase: 'since Tue Mar 03 2026 14:05:00 GMT+0100 (Central European Standard Time)',
    expect: ['abs 2026-03-03T14:05:00+01:00', 'now'],
  },
  { phrase: 'since Tue Mar  3 14:05:00 2026', expect: ['2026-03-03 14:05', 'now'] },
  { phrase: 'since Tue Mar 3 14:05:00 CET 2026', expect: ['abs 2026-03-03T14:05:00+01:00', 'now'] },
  {
    phrase: 'since Tue Mar 3 14:05:00 IST 2026',
    expect: 'refused', // India, Israel or Ireland: taken only where it is the person's own zone's name
    in: { 'Asia/Kolkata': ['abs 2026-03-03T14:05:00+05:30', 'now'] },
  },
  { phrase: 'since Wed Mar 3 14:05:00 UTC 2026', expect: 'refused' }, // 3 March 2026 is a Tuesday
]);

phraseTable(
  'two-digit years where the locale writes them (de-DE: 03.03.26)',
  [
    { phrase: '03.03.26', expect: ['2026-03-03', '2026-03-04'] },
    { phrase: '01.03.26 to 03.03.26', expect: ['2026-03-01', '2026-03-04'] },
    { phrase: '13.02.26', expect: ['2026-02-13', '2026-02-14'] },
    { phrase: '03/03/26', expect: 'refused' }, // not how de-DE writes one
  ],
  { locale: 'de-DE' },
);

phraseTable(
  'two-digit years where the locale writes them (en-US: 3/4/26)',
  [
    { phrase: '3/4/26', expect: ['2026-03-04', '2026-03-05'] },
    { phrase: '12/31/25 to 1/2/26', expect: ['2025-12-31', '2026-01-03'] },
    { phrase: '03.04.26', expect: 'refused' },
  ],
  { locale: 'en-US' },
);

phraseTable(
  'two-digit years are refused where the locale writes four (en-GB)',
  [{ phrase: '03/03/26', expect: 'refused' }],
  { locale: 'en-GB' },
);
