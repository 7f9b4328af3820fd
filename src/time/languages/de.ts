// German: "gestern von 9 bis 17 Uhr", "die letzten 3 Tage", "letzte Woche", "seit Montag 8 Uhr",
// "KW 12", "vom 1. bis 3. März", "vor 2 Stunden", "heute bisher", "die Nachtschicht gestern".
import { daysIn, monthAbbr } from '../calendar.js';
import { Refusal } from '../endpoint.js';
import { counted, type Lexicon, unitsOf, weekdaysOf } from './lexicon.js';

const WEEKDAYS = weekdaysOf([
  ['montag'],
  ['dienstag'],
  ['mittwoch'],
  ['donnerstag'],
  ['freitag'],
  ['samstag', 'sonnabend'],
  ['sonntag'],
]);
const WD = Object.keys(WEEKDAYS).join('|');
const PARTS: Record<string, string> = {
  früh: 'morning',
  morgen: 'morning',
  vormittag: 'morning',
  nachmittag: 'afternoon',
  abend: 'evening',
  nacht: 'night',
};
const PART = Object.keys(PARTS).join('|');
const DAYS: Record<string, string> = {
  gestern: 'yesterday',
  heute: 'today',
  vorgestern: 'the day before yesterday',
};
const PERIODS: Record<string, string> = {
  woche: 'week',
  monat: 'month',
  jahr: 'year',
  wochenende: 'weekend',
};
const PERIOD = Object.keys(PERIODS).join('|');
const LAST = '(?:letzte[nrs]?|vergangene[nrs]?|vorige[nrs]?)';
const NEXT = '(?:nächste[nrs]?|naechste[nrs]?|kommende[nrs]?)';

export const de: Lexicon = {
  spaced: true,
  clock24: true,
  rules: [
    [
      'heute nacht',
      () =>
        new Refusal(
          '“heute Nacht” could be the night that ended this morning or the one to come: write “letzte Nacht” for the first, or “tonight” for the second.',
          ['letzte Nacht', 'tonight'],
          ['letzte Nacht', 'tonight'],
        ),
    ],
    ['seit (?:wochenbeginn|wochenanfang|(?:dem )?(?:beginn|anfang) der woche)', () => 'week to date'],
    ['seit (?:monatsbeginn|monatsanfang|(?:dem )?(?:beginn|anfang) des monats)', () => 'month to date'],
    ['seit (?:jahresbeginn|jahresanfang|(?:dem )?(?:beginn|anfang) des jahres)', () => 'year to date'],
    [
      'seit (?:schichtbeginn|schichtanfang|(?:dem )?(?:beginn|anfang) der schicht)',
      () => 'since shift start',
    ],
    [
      `(?:in den |während der |die |den )?(?:letzten|letzte) {N} {U}`,
      (m, h) => pre('last', counted(m, h, 1, 2)),
    ],
    [`(?:in den |die |den )?vergangenen {N} {U}`, (m, h) => pre('past', counted(m, h, 1, 2))],
    ['seit {N} {U}', (m, h) => pre('past', counted(m, h, 1, 2))],
    ['vor {N} {U}', (m, h) => post(counted(m, h, 1, 2), 'ago')],
    [
      `(?:die |in der |während der )${LAST} (stunde|minute)`,
      (m) => `the last ${m[1] === 'stunde' ? 'hour' : 'minute'}`,
    ],
    ['(?:die |in der |während der )letzte[n]? (woche|monat|jahr)', (m) => `the last ${PERIODS[m[1]!]}`],
    ['(?:die |den )?letzten {N} schichten', (m, h) => `last ${h.count(m[1]!)} shifts`],
    [`${LAST} schicht`, () => 'last shift'],
    ['(?:diese[nrs]?|aktuelle[nrs]?|laufende[nrs]?) schicht', () => 'this shift'],
    ['{W}schicht', (m) => `${m[1]} shift`],
    [`vorletzte[nrs]? (${PERIOD})`, (m) => `the ${PERIODS[m[1]!]} before last`],
    [`diese[nrs]? (${PERIOD})`, (m) => `this ${PERIODS[m[1]!]}`],
    [`${LAST} (${PERIOD})`, (m) => `last ${PERIODS[m[1]!]}`],
    [`${NEXT} (${PERIOD})`, (m) => `next ${PERIODS[m[1]!]}`],
    [`(gestern|heute|vorgestern) (${PART})`, (m) => dayPart(m[1]!, m[2]!)],
    [`(${WD}) ?(${PART})`, (m) => `${WEEKDAYS[m[1]!]} ${PARTS[m[2]!]}`],
    [`${LAST} (${WD})`, (m) => `last ${WEEKDAYS[m[1]!]}`],
    [`${NEXT} (${WD})`, (m) => `next ${WEEKDAYS[m[1]!]}`],
    ['(?:kalenderwoche|woche) (\\d{1,2})', (m) => `week ${m[1]}`],
    ['(\\d{1,2})\\. ?{W}\\.?(?: (\\d{4}))?', (m, h) => dayOfMonth(m[1]!, h.month(m[2]!), m[3])],
    ['(\\d{1,2})\\.(\\d{1,2})\\.(?!\\d)', (m) => dayOfMonth(m[1]!, Number(m[2]), undefined)],
    ['(?:um )?(\\d{1,2})\\.(\\d{2}) ?uhr', (m) => `${m[1]!.padStart(2, '0')}:${m[2]}`],
    // "vom 1. bis 3. März": a day of the month the other end names.
    ['(\\d{1,2})\\.(?!\\d)', (m) => m[1]!],
    // "gestern ab 9 Uhr": from then on.
    [`(gestern|heute|vorgestern|${WD}) (?:ab|seit)`, (m) => `since ${DAYS[m[1]!] ?? WEEKDAYS[m[1]!]}`],
  ],
  words: {
    ...WEEKDAYS,
    vorgestern: 'the day before yesterday',
    gestern: 'yesterday',
    heute: 'today',
    morgen: 'tomorrow',
    jetzt: 'now',
    'letzte nacht': 'last night',
    'bis jetzt': 'to now',
    bisher: 'so far',
    bislang: 'so far',
    von: 'from',
    vom: 'from',
    ab: 'since',
    seit: 'since',
    'bis zum': 'to',
    'bis zur': 'to',
    bis: 'to',
    zwischen: 'between',
    und: 'and',
    um: 'at',
    am: 'on',
    mitternacht: 'midnight',
    mittag: 'noon',
    schicht: 'shift',
    die: 'the',
    der: 'the',
    das: 'the',
    den: 'the',
    wochenende: 'weekend',
  },
  units: unitsOf({
    s: 'sekunde sekunden sek',
    m: 'minute minuten min',
    h: 'stunde stunden std',
    d: 'tag tage tagen',
    w: 'woche wochen',
    mo: 'monat monate monaten',
    y: 'jahr jahre jahren',
  }),
  numbers: {
    ein: 1,
    eine: 1,
    einer: 1,
    einem: 1,
    einen: 1,
    zwei: 2,
    drei: 3,
    vier: 4,
    fünf: 5,
    sechs: 6,
    sieben: 7,
    acht: 8,
    neun: 9,
    zehn: 10,
    elf: 11,
    zwölf: 12,
  },
  monthProbe: (w) => `1. ${w}`,
};

const pre = (word: string, rest: string | null) => (rest === null ? null : `${word} ${rest}`);
const post = (rest: string | null, word: string) => (rest === null ? null : `${rest} ${word}`);

function dayPart(day: string, part: string): string {
  const p = PARTS[part]!;
  if (day === 'gestern') return p === 'night' ? 'last night' : `yesterday ${p}`;
  if (day === 'vorgestern') return `the day before yesterday ${p}`;
  return `this ${p}`;
}

/** "3. März 2026", "3.3.": the day of a month, in the grammar's words; null when it is no date. */
export function dayOfMonth(day: string, month: number | undefined, year: string | undefined): string | null {
  const d = Number(day);
  if (month === undefined || month < 1 || month > 12 || d < 1 || d > daysIn(month)) return null;
  return `${d} ${monthAbbr(month)}${year ? ` ${year}` : ''}`;
}
