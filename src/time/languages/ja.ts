// Japanese: "昨日9時から17時まで", "過去3日間", "先週", "月曜日9時以降", "第12週", "3月1日から3月3日まで",
// "2時間前から今まで". Written without spaces, so phrases match wherever they are.
import { monthAbbr } from '../calendar.js';
import { counted, type Lexicon, weekdaysOf } from './lexicon.js';

const WEEKDAYS = weekdaysOf([
  ['月曜日', '月曜'],
  ['火曜日', '火曜'],
  ['水曜日', '水曜'],
  ['木曜日', '木曜'],
  ['金曜日', '金曜'],
  ['土曜日', '土曜'],
  ['日曜日', '日曜'],
]);
const UNITS: Record<string, string> = {
  秒: 'seconds',
  秒間: 'seconds',
  分: 'minutes',
  分間: 'minutes',
  時間: 'hours',
  日: 'days',
  日間: 'days',
  週: 'weeks',
  週間: 'weeks',
  か月: 'months',
  ヶ月: 'months',
  カ月: 'months',
  ヵ月: 'months',
  か月間: 'months',
  ヶ月間: 'months',
  年: 'years',
  年間: 'years',
};
const sp = (s: string) => ` ${s} `;

export const ja: Lexicon = {
  spaced: false,
  // "9時以降", "月曜日から" with no end: since then.
  reorder: (text) => text.replace(/^(.+?)(?:以降|から)$/u, 'since $1'),
  rules: [
    [
      '過去{N}{U}',
      (m, h) => {
        const c = counted(m, h, 1, 2);
        return c === null ? null : sp(`past ${c}`);
      },
    ],
    [
      '直近{N}{U}',
      (m, h) => {
        const c = counted(m, h, 1, 2);
        return c === null ? null : sp(`last ${c}`);
      },
    ],
    [
      '{N}{U}前',
      (m, h) => {
        const c = counted(m, h, 1, 2);
        return c === null ? null : sp(`${c} ago`);
      },
    ],
    ['第(\\d{1,2})週', (m) => sp(`week ${m[1]}`)],
    ['(\\d{4})年(\\d{1,2})月(?!\\d)', (m) => sp(`${monthAbbr(Number(m[2]))} ${m[1]}`)],
    [
      '(\\d{1,2})月(?![\\d日])',
      (m) => (Number(m[1]) >= 1 && Number(m[1]) <= 12 ? sp(monthAbbr(Number(m[1]))) : null),
    ],
  ],
  words: {
    ...Object.fromEntries(Object.entries(WEEKDAYS).map(([k, v]) => [k, sp(v)])),
    一昨日: sp('the day before yesterday'),
    おととい: sp('the day before yesterday'),
    昨日: sp('yesterday'),
    きのう: sp('yesterday'),
    今日: sp('today'),
    きょう: sp('today'),
    明日: sp('tomorrow'),
    今朝: sp('this morning'),
    昨夜: sp('last night'),
    昨晩: sp('last night'),
    今夜: sp('tonight'),
    今晩: sp('tonight'),
    先週末: sp('last weekend'),
    今週末: sp('this weekend'),
    先週: sp('last week'),
    今週: sp('this week'),
    来週: sp('next week'),
    先月: sp('last month'),
    今月: sp('this month'),
    来月: sp('next month'),
    去年: sp('last year'),
    昨年: sp('last year'),
    今年: sp('this year'),
    来年: sp('next year'),
    今まで: sp('now'),
    これまで: sp('so far'),
    今: sp('now'),
    から: sp('to'),
    まで: ' ',
    '〜': sp('to'),
    '~': sp('to'),
    正午: sp('noon'),
    前回のシフト: sp('last shift'),
    今回のシフト: sp('this shift'),
  },
  units: UNITS,
  numbers: {},
};
