// Dutch: "gisteren van 9 tot 17 uur", "de afgelopen 3 dagen", "vorige week", "sinds maandag 8 uur",
// "week 12", "van 1 tot 3 maart", "2 uur geleden", "vandaag tot nu toe".
import { Refusal } from '../endpoint.js';
import { dayOfMonth } from './de.js';
import { counted, type Lexicon, unitsOf, weekdaysOf } from './lexicon.js';

const WEEKDAYS = weekdaysOf([
  ['maandag'],
  ['dinsdag'],
  ['woensdag'],
  ['donderdag'],
  ['vrijdag'],
  ['zaterdag'],
  ['zondag'],
]);
const WD = Object.keys(WEEKDAYS).join('|');
const PARTS: Record<string, string> = {
  ochtend: 'morning',
  morgen: 'morning',
  middag: 'afternoon',
  avond: 'evening',
  nacht: 'night',
};
const PART = Object.keys(PARTS).join('|');
const pre = (word: string, rest: string | null) => (rest === null ? null : `${word} ${rest}`);

export const nl: Lexicon = {
  spaced: true,
  clock24: true,
  rules: [
    [
      'vannacht',
      () =>
        new Refusal(
          '“vannacht” could be the night that ended this morning or the one to come: write “afgelopen nacht” for the first, or “tonight” for the second.',
          ['afgelopen nacht', 'tonight'],
          ['afgelopen nacht', 'tonight'],
        ),
    ],
    ['(\\d{1,2}) {W}(?: (\\d{4}))?', (m, h) => dayOfMonth(m[1]!, h.month(m[2]!), m[3])],
    [
      '{N} {U} geleden',
      (m, h) => {
        const c = counted(m, h, 1, 2);
        return c === null ? null : `${c} ago`;
      },
    ],
    ['(?:de |in de )?afgelopen {N} {U}', (m, h) => pre('past', counted(m, h, 1, 2))],
    ['(?:de |in de )?laatste {N} {U}', (m, h) => pre('last', counted(m, h, 1, 2))],
    ['(?:het |in het )?afgelopen uur', () => 'the past hour'],
    ['(?:de |in de )afgelopen week', () => 'the last week'],
    ['(?:de )?(?:vorige|laatste) dienst', () => 'last shift'],
    ['(?:deze|de huidige) dienst', () => 'this shift'],
    [
      '(?:gisteren|gister)(ochtend|morgen|middag|avond|nacht)',
      (m) => (PARTS[m[1]!] === 'night' ? 'last night' : `yesterday ${PARTS[m[1]!]}`),
    ],
    [
      `(?:gisteren|gister) (${PART})`,
      (m) => (PARTS[m[1]!] === 'night' ? 'last night' : `yesterday ${PARTS[m[1]!]}`),
    ],
    ['van(ochtend|morgen|middag|avond)', (m) => `this ${PARTS[m[1]!]}`],
    [`(${WD}) ?(${PART})`, (m) => `${WEEKDAYS[m[1]!]} ${PARTS[m[2]!]}`],
    [`(?:vorige|afgelopen) (${WD})`, (m) => `last ${WEEKDAYS[m[1]!]}`],
    [`(?:volgende|komende) (${WD})`, (m) => `next ${WEEKDAYS[m[1]!]}`],
    ['deze week', () => 'this week'],
    ['vorige week', () => 'last week'],
    ['volgende week', () => 'next week'],
    ['deze maand', () => 'this month'],
    ['vorige maand', () => 'last month'],
    ['dit jaar', () => 'this year'],
    ['vorig jaar', () => 'last year'],
    ['dit weekend', () => 'this weekend'],
    ['(?:vorig|afgelopen) weekend', () => 'last weekend'],
    ['(?:afgelopen|vorige) nacht', () => 'last night'],
    ['(\\d{1,2})[.:](\\d{2}) ?uur', (m) => `${m[1]!.padStart(2, '0')}:${m[2]}`],
    ['tot nu toe', () => 'so far'],
  ],
  words: {
    ...WEEKDAYS,
    eergisteren: 'the day before yesterday',
    gisteren: 'yesterday',
    gister: 'yesterday',
    vandaag: 'today',
    morgen: 'tomorrow',
    nu: 'now',
    'tot nu': 'to now',
    sinds: 'since',
    vanaf: 'since',
    van: 'from',
    tot: 'to',
    tussen: 'between',
    en: 'and',
    om: 'at',
    op: 'on',
    middernacht: 'midnight',
    dienst: 'shift',
  },
  units: unitsOf({
    s: 'seconde seconden',
    m: 'minuut minuten min',
    h: 'uur uren',
    d: 'dag dagen',
    w: 'week weken',
    mo: 'maand maanden',
    y: 'jaar jaren',
  }),
  numbers: {
    een: 1,
    één: 1,
    twee: 2,
    drie: 3,
    vier: 4,
    vijf: 5,
    zes: 6,
    zeven: 7,
    acht: 8,
    negen: 9,
    tien: 10,
    elf: 11,
    twaalf: 12,
  },
  monthProbe: (w) => `1 ${w}`,
};
