// French: "hier de 9h à 17h", "les 3 derniers jours", "la semaine dernière", "depuis lundi 8h",
// "semaine 12", "du 1er au 3 mars", "il y a 2 heures", "aujourd'hui jusqu'ici", "depuis le début du mois".
import { monthAbbr as monthName } from '../calendar.js';
import { Refusal } from '../endpoint.js';
import { dayOfMonth } from './de.js';
import { counted, type Lexicon, unitsOf, weekdaysOf } from './lexicon.js';

const WEEKDAYS = weekdaysOf([
  ['lundi'],
  ['mardi'],
  ['mercredi'],
  ['jeudi'],
  ['vendredi'],
  ['samedi'],
  ['dimanche'],
]);
const WD = Object.keys(WEEKDAYS).join('|');
const PARTS: Record<string, string> = {
  matin: 'morning',
  matinée: 'morning',
  'après-midi': 'afternoon',
  soir: 'evening',
  soirée: 'evening',
  nuit: 'night',
};
const PART = Object.keys(PARTS).join('|');
const LAST = '(?:dernier|derniers|dernière|dernières)';

export const fr: Lexicon = {
  spaced: true,
  clock24: true,
  rules: [
    [
      'cette nuit',
      () =>
        new Refusal(
          '“cette nuit” could be the night that ended this morning or the one to come: write “la nuit dernière” for the first, or “tonight” for the second.',
          ['la nuit dernière', 'tonight'],
          ['la nuit dernière', 'tonight'],
        ),
    ],
    ["à partir d(?:e|')", () => 'since'],
    [
      "jusqu'(?:à|au)(?: (maintenant|présent))?",
      (m) => (m[1] === 'maintenant' ? 'to now' : m[1] ? 'so far' : 'to'),
    ],
    ['à ce jour', () => 'so far'],
    // "de 9h à 17h": "à" is "to" after "de" or "du", and "at" otherwise ("depuis hier à 9h").
    ['à', (_m, _h, before) => (/(?:^|\s)(?:(?:from|de|du)\s+|d')\S/.test(before) ? 'to' : 'at')],
    // "de 9h", "du 1er", "de mars": where a range starts.
    ["(?:de|du|d') ?(?=\\d)", () => 'from'],
    [
      "(?:de|d') ?{W}",
      (m, h) => {
        const month = h.month(m[1]!);
        return month === undefined ? null : `from ${monthName(month)}`;
      },
    ],
    ['depuis le (?:début|commencement) de la semaine', () => 'week to date'],
    ['depuis le (?:début|commencement) du mois', () => 'month to date'],
    ["depuis le (?:début|commencement) de l'année", () => 'year to date'],
    ["depuis le (?:début|commencement) (?:du poste|de l'équipe|du quart)", () => 'since shift start'],
    [
      `(?:les |ces |durant les |pendant les |au cours des |sur les )?{N} ${LAST} {U}`,
      (m, h) => pre('last', counted(m, h, 1, 2)),
    ],
    [
      `(?:les |ces |durant les |pendant les |au cours des |sur les )?${LAST} {N} {U}`,
      (m, h) => pre('last', counted(m, h, 1, 2)),
    ],
    ['depuis {N} {U}', (m, h) => pre('past', counted(m, h, 1, 2))],
    ['il y a {N} {U}', (m, h) => post(counted(m, h, 1, 2), 'ago')],
    [
      '(?:la |au cours de la |pendant la |durant la )?dernière (heure|minute)',
      (m) => `the last ${m[1] === 'heure' ? 'hour' : 'minute'}`,
    ],
    ['(?:la |au cours de la |pendant la |durant la )dernière semaine', () => 'the last week'],
    ['(?:le |au cours du |pendant le |durant le )dernier mois', () => 'the last month'],
    ['(?:la |au cours de la |pendant la |durant la )dernière année', () => 'the last year'],
    ['(?:le |la )?(?:dernier poste|dernière équipe|dernier quart)', () => 'last shift'],
    ["(?:ce poste|cette équipe|ce quart|le poste actuel|l'équipe actuelle)", () => 'this shift'],
    ["(?:le |la |l')?(?:poste|équipe) (?:de |du )?{W}", (m) => `the ${m[1]} shift`],
    ['cette semaine', () => 'this week'],
    ['(?:la )?semaine (?:dernière|passée)', () => 'last week'],
    ['(?:la )?semaine prochaine', () => 'next week'],
    ['ce mois(?:-ci)?', () => 'this month'],
    ['(?:le )?mois (?:dernier|passé)', () => 'last month'],
    ['(?:le )?mois prochain', () => 'next month'],
    ['cette année', () => 'this year'],
    ["(?:l'année|l'an) (?:dernière|dernier|passée|passé)", () => 'last year'],
    ["(?:l'année|l'an) (?:prochaine|prochain)", () => 'next year'],
    ['ce week-?end', () => 'this weekend'],
    ['(?:le )?week-?end (?:dernier|passé)', () => 'last weekend'],
    ['(?:le )?week-?end prochain', () => 'next weekend'],
    ['(?:la )?nuit dernière', () => 'last night'],
    [
      `hier (?:dans la |en )?(${PART})`,
      (m) => (PARTS[m[1]!] === 'night' ? 'last night' : `yesterday ${PARTS[m[1]!]}`),
    ],
    [`avant-hier (?:dans la |en )?(${PART})`, (m) => `the day before yesterday ${PARTS[m[1]!]}`],
    ['(?:ce|cet|cette) (matin|matinée|après-midi|soir|soirée)', (m) => `this ${PARTS[m[1]!]}`],
    [`(${WD}) (${PART})`, (m) => `${WEEKDAYS[m[1]!]} ${PARTS[m[2]!]}`],
    [`(${WD}) (?:dernier|passé)`, (m) => `last ${WEEKDAYS[m[1]!]}`],
    [`(${WD}) prochain`, (m) => `next ${WEEKDAYS[m[1]!]}`],
    ['(?:semaine|sem\\.?) ?(\\d{1,2})', (m) => `week ${m[1]}`],
    ['s(\\d{1,2})', (m) => `W${m[1]}`],
    ['(\\d{1,2})(?:er)? {W}(?: (\\d{4}))?', (m, h) => dayOfMonth(m[1]!, h.month(m[2]!), m[3])],
    ['(\\d{1,2}) ?h ?(\\d{2})', (m) => `${m[1]!.padStart(2, '0')}:${m[2]}`],
    ['(\\d{1,2}) ?h(?![\\p{L}])', (m) => `${m[1]!.padStart(2, '0')}:00`],
    ['(\\d{1,2})er(?![\\p{L}])', (m) => m[1]!],
  ],
  words: {
    ...WEEKDAYS,
    'avant-hier': 'the day before yesterday',
    hier: 'yesterday',
    "aujourd'hui": 'today',
    demain: 'tomorrow',
    maintenant: 'now',
    "jusqu'ici": 'so far',
    depuis: 'since',
    au: 'to',
    entre: 'between',
    et: 'and',
    du: 'from',
    midi: 'noon',
    minuit: 'midnight',
    le: '',
    la: '',
    les: '',
    'week-end': 'weekend',
  },
  units: unitsOf({
    s: 'seconde secondes sec',
    m: 'minute minutes min',
    h: 'heure heures',
    d: 'jour jours',
    w: 'semaine semaines',
    mo: 'mois',
    y: 'an ans année années',
  }),
  numbers: {
    un: 1,
    une: 1,
    deux: 2,
    trois: 3,
    quatre: 4,
    cinq: 5,
    six: 6,
    sept: 7,
    huit: 8,
    neuf: 9,
    dix: 10,
    onze: 11,
    douze: 12,
    quinze: 15,
    vingt: 20,
    trente: 30,
  },
  monthProbe: (w) => `1 ${w}`,
};

const pre = (word: string, rest: string | null) => (rest === null ? null : `${word} ${rest}`);
const post = (rest: string | null, word: string) => (rest === null ? null : `${rest} ${word}`);
