// Portuguese: "ontem das 9h às 17h", "os últimos 3 dias", "a semana passada", "desde segunda às 8h",
// "semana 12", "de 1 a 3 de março", "há 2 horas".
import { monthAbbr } from '../calendar.js';
import { dayOfMonth } from './de.js';
import { counted, type Lexicon, unitsOf, weekdaysOf } from './lexicon.js';

const WEEKDAYS = weekdaysOf([
  ['segunda-feira', 'segunda'],
  ['terça-feira', 'terça', 'terca'],
  ['quarta-feira', 'quarta'],
  ['quinta-feira', 'quinta'],
  ['sexta-feira', 'sexta'],
  ['sábado', 'sabado'],
  ['domingo'],
]);
const WD = Object.keys(WEEKDAYS)
  .sort((a, b) => b.length - a.length)
  .join('|');
const PARTS: Record<string, string> = { manhã: 'morning', tarde: 'afternoon', noite: 'night' };
const LAST = '(?:último|últimos|última|últimas|ultimos|ultimas)';
const pre = (word: string, rest: string | null) => (rest === null ? null : `${word} ${rest}`);

export const pt: Lexicon = {
  spaced: true,
  rules: [
    // "das 9h às 17h", "de 1 a 3 de março": "às", "a" and "até" are "to" after "das", "dos" or "de", and
    // "às" is "at" otherwise ("desde segunda às 8h").
    [
      '(?:às|até|a)(?=\\s)',
      (m, _h, before) => (/(?:^|\s)(?:from|das|dos|de)\s/.test(before) ? 'to' : m[0] === 'às' ? 'at' : null),
    ],
    ['(?:das|dos|de)(?=\\s+\\d{1,2}(?!\\d))', () => 'from'],
    ['(\\d{1,2})(?:º)? de {W}(?: de (\\d{4}))?', (m, h) => dayOfMonth(m[1]!, h.month(m[2]!), m[3])],
    [
      '(?:há|faz) {N} {U}',
      (m, h) => {
        const c = counted(m, h, 1, 2);
        return c === null ? null : `${c} ago`;
      },
    ],
    [
      `(?:os |as |nos |nas |durante os |durante as )?${LAST} {N} {U}`,
      (m, h) => pre('last', counted(m, h, 1, 2)),
    ],
    [`(?:a |na |durante a )?${LAST} hora`, () => 'the last hour'],
    [`(?:a |na |durante a )${LAST} semana`, () => 'the last week'],
    ['(?:o |a )?(?:último turno|turno anterior)', () => 'last shift'],
    ['(?:este turno|o turno atual)', () => 'this shift'],
    ['esta semana', () => 'this week'],
    ['(?:a )?semana passada', () => 'last week'],
    ['(?:a )?próxima semana', () => 'next week'],
    ['este mês', () => 'this month'],
    ['(?:o )?mês passado', () => 'last month'],
    ['este ano', () => 'this year'],
    ['(?:o )?ano passado', () => 'last year'],
    ['este fim de semana', () => 'this weekend'],
    ['(?:o )?fim de semana passado', () => 'last weekend'],
    [
      '(?:esta|hoje (?:de |à )?)(manhã|tarde|noite)',
      (m) => (m[1] === 'noite' ? 'tonight' : `this ${PARTS[m[1]!]}`),
    ],
    [
      'ontem (?:de |à )?(manhã|tarde|noite)',
      (m) => (m[1] === 'noite' ? 'last night' : `yesterday ${PARTS[m[1]!]}`),
    ],
    [`(?:na |no )?(${WD}) passad[ao]`, (m) => `last ${WEEKDAYS[m[1]!]}`],
    [`(?:na |no )?próxim[ao] (${WD})`, (m) => `next ${WEEKDAYS[m[1]!]}`],
    ['semana (\\d{1,2})', (m) => `week ${m[1]}`],
    ['(\\d{1,2}) ?h ?(\\d{2})', (m) => `${m[1]}:${m[2]}`],
    ['(\\d{1,2}) ?h(?![\\p{L}])', (m) => `${m[1]}:00`],
    [
      'de {W}',
      (m, h) => {
        const mo = h.month(m[1]!);
        return mo === undefined ? null : `from ${monthAbbr(mo)}`;
      },
    ],
  ],
  words: {
    ...WEEKDAYS,
    anteontem: 'the day before yesterday',
    ontem: 'yesterday',
    hoje: 'today',
    amanhã: 'tomorrow',
    agora: 'now',
    'até agora': 'to now',
    desde: 'since',
    até: 'to',
    entre: 'between',
    e: 'and',
    às: 'at',
    'meio-dia': 'noon',
    'meia-noite': 'midnight',
    o: '',
    a: '',
    os: '',
    as: '',
    turno: 'shift',
  },
  units: unitsOf({
    s: 'segundo segundos',
    m: 'minuto minutos min',
    h: 'hora horas',
    d: 'dia dias',
    w: 'semana semanas',
    mo: 'mês meses mes',
    y: 'ano anos',
  }),
  numbers: {
    um: 1,
    uma: 1,
    dois: 2,
    duas: 2,
    três: 3,
    tres: 3,
    quatro: 4,
    cinco: 5,
    seis: 6,
    sete: 7,
    oito: 8,
    nove: 9,
    dez: 10,
    onze: 11,
    doze: 12,
  },
  monthProbe: (w) => `1 de ${w}`,
};
