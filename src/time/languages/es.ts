// Spanish: "ayer de 9 a 17", "los últimos 3 días", "la semana pasada", "desde el lunes a las 8",
// "semana 12", "del 1 al 3 de marzo", "hace 2 horas", "en lo que va del mes".
import { monthAbbr } from '../calendar.js';
import { dayOfMonth } from './de.js';
import { counted, type Lexicon, unitsOf, weekdaysOf } from './lexicon.js';

const WEEKDAYS = weekdaysOf([
  ['lunes'],
  ['martes'],
  ['miércoles', 'miercoles'],
  ['jueves'],
  ['viernes'],
  ['sábado', 'sabado'],
  ['domingo'],
]);
const WD = Object.keys(WEEKDAYS).join('|');
const PARTS: Record<string, string> = { mañana: 'morning', tarde: 'afternoon', noche: 'night' };
const LAST = '(?:último|últimos|última|últimas|ultimos|ultimas)';
const pre = (word: string, rest: string | null) => (rest === null ? null : `${word} ${rest}`);

export const es: Lexicon = {
  spaced: true,
  rules: [
    // "desde el lunes hasta el miércoles", "desde las 9 a las 17": "desde" with an end is "from"; but
    // "desde el lunes a las 8" is since Monday at 8.
    ['desde(?=\\s.*\\shasta\\s)', () => 'from'],
    ['desde(?=\\s+las?\\s+\\d\\S*\\s+(?:a|al)\\s)', () => 'from'],
    ['(?:de|del)(?=\\s+(?:las?\\s+)?\\d{1,2}(?!\\d))', () => 'from'],
    // "de 9 a 17": "a" is "to" after a start, and "at" before a time otherwise ("desde el lunes a las 8").
    [
      '(?:al|a)(?=\\s)',
      (m, _h, before) =>
        /(?:^|\s)(?:from|de|del)\s/.test(before)
          ? 'to'
          : /^\s+las?\s/.test(m.input.slice(m.index + m[0].length))
            ? 'at'
            : null,
    ],
    ['(\\d{1,2}) de {W}(?: de (\\d{4}))?', (m, h) => dayOfMonth(m[1]!, h.month(m[2]!), m[3])],
    ['desde hace {N} {U}', (m, h) => pre('past', counted(m, h, 1, 2))],
    [
      'hace {N} {U}',
      (m, h) => {
        const c = counted(m, h, 1, 2);
        return c === null ? null : `${c} ago`;
      },
    ],
    [
      `(?:los |las |en los |en las |durante los |durante las )?${LAST} {N} {U}`,
      (m, h) => pre('last', counted(m, h, 1, 2)),
    ],
    [`(?:la |en la |durante la )?${LAST} hora`, () => 'the last hour'],
    [`(?:la |en la |durante la )${LAST} semana`, () => 'the last week'],
    [
      'en lo que va (?:de la |del |de )?(semana|mes|año)',
      (m) => `${({ semana: 'week', mes: 'month', año: 'year' } as Record<string, string>)[m[1]!]} to date`,
    ],
    ['(?:el |la )?(?:último turno|turno anterior)', () => 'last shift'],
    ['(?:este turno|el turno actual)', () => 'this shift'],
    ['esta semana', () => 'this week'],
    ['(?:la )?semana (?:pasada|anterior)', () => 'last week'],
    ['(?:la )?(?:próxima semana|semana que viene)', () => 'next week'],
    ['este mes', () => 'this month'],
    ['(?:el )?mes (?:pasado|anterior)', () => 'last month'],
    ['este año', () => 'this year'],
    ['(?:el )?año (?:pasado|anterior)', () => 'last year'],
    ['este fin de semana', () => 'this weekend'],
    ['(?:el )?fin de semana pasado', () => 'last weekend'],
    ['esta (mañana|tarde|noche)', (m) => (m[1] === 'noche' ? 'tonight' : `this ${PARTS[m[1]!]}`)],
    [
      'ayer (?:por la |en la )?(mañana|tarde|noche)',
      (m) => (m[1] === 'noche' ? 'last night' : `yesterday ${PARTS[m[1]!]}`),
    ],
    [`(?:el )?(${WD}) (?:pasado|anterior)`, (m) => `last ${WEEKDAYS[m[1]!]}`],
    [`(?:el )?(?:próximo (${WD})|(${WD}) que viene)`, (m) => `next ${WEEKDAYS[(m[1] ?? m[2])!]}`],
    ['semana (\\d{1,2})', (m) => `week ${m[1]}`],
    ['las (\\d{1,2})(?::(\\d{2}))? de la (mañana|madrugada)', (m) => `${m[1]}:${m[2] ?? '00'}am`],
    [
      'las (\\d{1,2})(?::(\\d{2}))? de la (tarde|noche)',
      (m) => (m[1] === '12' && m[3] === 'noche' ? 'midnight' : `${m[1]}:${m[2] ?? '00'}pm`),
    ],
    ['(\\d{1,2})(?::(\\d{2}))? de la (mañana|madrugada)', (m) => `${m[1]}:${m[2] ?? '00'}am`],
    [
      '(\\d{1,2})(?::(\\d{2}))? de la (tarde|noche)',
      (m) => (m[1] === '12' && m[3] === 'noche' ? 'midnight' : `${m[1]}:${m[2] ?? '00'}pm`),
    ],
    ['las (\\d{1,2})(?::(\\d{2}))?', (m) => `${m[1]}:${m[2] ?? '00'}`],
    // "de 9 a 17", "desde el lunes hasta el miércoles": where a range starts and where it ends.
    [
      '(?:de|del) {W}',
      (m, h) => {
        const mo = h.month(m[1]!);
        return mo === undefined ? null : `from ${monthAbbr(mo)}`;
      },
    ],
  ],
  words: {
    ...WEEKDAYS,
    anteayer: 'the day before yesterday',
    'antes de ayer': 'the day before yesterday',
    ayer: 'yesterday',
    hoy: 'today',
    mañana: 'tomorrow',
    ahora: 'now',
    anoche: 'last night',
    'hasta ahora': 'to now',
    'hasta la fecha': 'so far',
    desde: 'since',
    hasta: 'to',
    entre: 'between',
    y: 'and',
    al: 'to',
    mediodía: 'noon',
    medianoche: 'midnight',
    el: '',
    la: '',
    los: '',
    las: '',
    turno: 'shift',
  },
  units: unitsOf({
    s: 'segundo segundos',
    m: 'minuto minutos min',
    h: 'hora horas',
    d: 'día días dia dias',
    w: 'semana semanas',
    mo: 'mes meses',
    y: 'año años',
  }),
  numbers: {
    un: 1,
    uno: 1,
    una: 1,
    dos: 2,
    tres: 3,
    cuatro: 4,
    cinco: 5,
    seis: 6,
    siete: 7,
    ocho: 8,
    nueve: 9,
    diez: 10,
    once: 11,
    doce: 12,
  },
  monthProbe: (w) => `1 de ${w}`,
};
