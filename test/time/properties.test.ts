// Property tests: phrases generated from a small grammar of the forms the module claims to understand,
// in many zones (odd offsets, daylight saving at midnight, 30-minute shifts) and at reference instants
// around daylight-saving changes, month ends and year ends. Each result must be what an independent oracle
// (test/support/range-oracle.ts: Intl only) says: the same range, or a refusal where it refuses.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_NS, parseTimeRange, toIso } from '../../src/time/index.js';
import {
  type Clock,
  type DaySpec,
  type End,
  type Meaning,
  type OracleCtx,
  oracle,
  type Part,
  type Unit,
} from '../support/range-oracle.js';
import { runsInThisZone } from './runs.js';

const ZONES = [
  'UTC',
  'America/New_York',
  'Europe/Berlin',
  'Europe/London',
  'Asia/Kolkata',
  'Asia/Kathmandu', // +05:45
  'America/St_Johns', // -03:30 with daylight saving
  'Australia/Lord_Howe', // daylight saving of 30 minutes
  'Pacific/Chatham', // +12:45/+13:45
  'America/Havana', // changes at midnight: some days start at 01:00
  'America/Santiago', // changes at 24:00
  'Asia/Tokyo',
  'Pacific/Kiritimati', // +14
  'Pacific/Pago_Pago', // -11
];

// Instants near which things change: daylight saving in the zones above, month and year ends.
const BASES = [
  '2026-03-08T07:00:00Z', // US spring forward
  '2026-11-01T06:00:00Z', // US fall back
  '2026-03-29T01:00:00Z', // EU spring forward
  '2026-10-25T01:00:00Z', // EU fall back
  '2026-04-04T15:00:00Z', // Lord Howe back
  '2026-10-03T15:30:00Z', // Lord Howe forward
  '2026-03-08T05:00:00Z', // Havana forward at midnight
  '2026-11-01T05:00:00Z', // Havana back
  '2026-04-05T03:00:00Z', // Santiago back
  '2026-09-06T04:00:00Z', // Santiago forward
  '2026-12-31T23:30:00Z',
  '2027-01-01T12:00:00Z',
  '2026-02-28T23:00:00Z',
  '2028-02-29T12:00:00Z',
  '2026-01-31T12:00:00Z',
  '2026-11-22T10:00:00Z',
  '2026-11-23T14:00:00Z',
].map((s) => Date.parse(s));

const LOCALES = [undefined, 'en-US', 'en-GB', 'de-DE', 'en-IN', 'ja-JP', 'en'];

// Written out here, not taken from the grammar: the phrases are what a person types, so a misspelt name
// in the grammar fails these properties instead of agreeing with them.
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

interface Phrase {
  text: string;
  meaning: Meaning;
}

const pad = (n: number) => String(n).padStart(2, '0');
const ord = (d: number) =>
  d % 10 === 1 && d !== 11 ? 'st' : d % 10 === 2 && d !== 12 ? 'nd' : d % 10 === 3 && d !== 13 ? 'rd' : 'th';

/** Upper, lower or title case, and sometimes extra spaces: the meaning must not change. */
const casing = fc.constantFrom<(s: string) => string>(
  (s) => s,
  (s) => s.toLowerCase(),
  (s) => s.toUpperCase(),
  (s) => `  ${s.replace(/ /g, '  ')} `,
);

const weekdayName = fc
  .tuple(fc.integer({ min: 1, max: 7 }), fc.boolean())
  .map(([wd, short]) => ({ wd, name: short ? WEEKDAYS[wd - 1]!.slice(0, 3) : WEEKDAYS[wd - 1]! }));

const monthName = (m: number, style: number) =>
  style % 2 === 0 ? MONTHS[m - 1]! : MONTHS[m - 1]!.slice(0, 3);

const clock: fc.Arbitrary<{ c: Clock; text: string }> = fc
  .tuple(
    fc.integer({ min: 0, max: 23 }),
    fc.constantFrom(0, 0, 15, 30, 45, 59),
    fc.integer({ min: 0, max: 3 }),
  )
  .map(([h, mi, style]) => {
    const text = style === 0 ? pad(h) : String(h);
    const written = text.startsWith('0') || h >= 13 ? '24' : 'dial';
    if (style <= 1) return { c: { h, mi, written }, text: `${text}:${pad(mi)}` } as const;
    const c = { h, mi, written: 'ampm' } as const;
    const h12 = h % 12 === 0 ? 12 : h % 12;
    const suffix = h < 12 ? 'am' : 'pm';
    const minutes = mi === 0 && style === 2 ? '' : `:${pad(mi)}`;
    return { c, text: `${h12}${minutes}${style === 3 ? ' ' : ''}${suffix}` };
  });

const year = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 2024, max: 2027 }) },
  { weight: 1, arbitrary: fc.constant(1969) },
);

/** A day in any of the forms the grammar knows, with its meaning. */
const day: fc.Arbitrary<{ spec: DaySpec; text: string }> = fc.oneof(
  fc.constantFrom(
    { spec: { k: 'rel', n: 0 } as DaySpec, text: 'today' },
    { spec: { k: 'rel', n: -1 } as DaySpec, text: 'yesterday' },
    { spec: { k: 'rel', n: 1 } as DaySpec, text: 'tomorrow' },
  ),
  weekdayName.map(({ wd, name }) => ({ spec: { k: 'weekday', wd } as DaySpec, text: name })),
  weekdayName.map(({ wd, name }) => ({ spec: { k: 'lastWeekday', wd } as DaySpec, text: `last ${name}` })),
  fc
    .tuple(
      year,
      fc.integer({ min: 1, max: 12 }),
      fc.integer({ min: 1, max: 28 }),
      fc.integer({ min: 0, max: 5 }),
    )
    .map(([y, m, d, style]) => {
      const spec: DaySpec = { k: 'date', y, m, d };
      const texts = [
        `${y}-${pad(m)}-${pad(d)}`,
        `${monthName(m, style)} ${d} ${y}`,
        `${d} ${monthName(m, style)} ${y}`,
        `${monthName(m, 0)} ${d}${ord(d)}, ${y}`,
        `the ${d}${ord(d)} of ${monthName(m, 0)} ${y}`,
        `${y}/${pad(m)}/${pad(d)}`,
      ];
      return { spec, text: texts[style]! };
    }),
  fc
    .tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }), fc.integer({ min: 0, max: 2 }))
    .map(([m, d, style]) => {
      const spec: DaySpec = { k: 'md', m, d };
      const texts = [
        `${monthName(m, 1)} ${d}`,
        `${d} ${monthName(m, 0)}`,
        `${monthName(m, 0)} ${d}${ord(d)}`,
      ];
      return { spec, text: texts[style]! };
    }),
  fc
    .tuple(
      fc.integer({ min: 1, max: 31 }),
      fc.integer({ min: 1, max: 31 }),
      // Years from 1970: an ambiguous date offers its readings as examples, which must then be usable.
      fc.option(fc.integer({ min: 2024, max: 2027 }), { nil: undefined }),
      fc.constantFrom('/', '.', '-'),
      fc.boolean(),
    )
    .map(([a, b, y, sep, padded]) => {
      const p = (n: number) => (padded ? pad(n) : String(n));
      const s = y === undefined ? '/' : sep;
      const spec: DaySpec = y === undefined ? { k: 'numeric', a, b } : { k: 'numeric', a, b, y };
      return { spec, text: `${p(a)}${s}${p(b)}${y === undefined ? '' : `${s}${y}`}` };
    }),
);

const part = fc.constantFrom<Part>('morning', 'afternoon', 'evening', 'night');

/** One end: a whole day, part of a day, or a time on a day (in either order). */
const end: fc.Arbitrary<{ e: End; text: string }> = fc.oneof(
  day.map(({ spec, text }) => ({ e: { day: spec } as End, text })),
  fc.tuple(day, part).map(([d, p]) => ({ e: { day: d.spec, part: p } as End, text: `${d.text} ${p}` })),
  fc.tuple(day, clock, fc.integer({ min: 0, max: 2 })).map(([d, t, order]) => ({
    e: { day: d.spec, time: t.c } as End,
    text:
      order === 0 ? `${d.text} ${t.text}` : order === 1 ? `${t.text} ${d.text}` : `${d.text} at ${t.text}`,
  })),
);

const separator = fc.constantFrom(' to ', ' until ', ' - ', ' – ', ' through ');

const UNITS: [Unit, string[], string[]][] = [
  ['s', ['second'], ['seconds', 'secs', 's']],
  ['m', ['minute'], ['minutes', 'mins', 'min']],
  ['h', ['hour', 'hr'], ['hours', 'hrs', 'h']],
  ['d', ['day'], ['days', 'd']],
  ['w', ['week', 'wk'], ['weeks', 'wks']],
  ['mo', ['month'], ['months', 'mo']],
  ['y', ['year', 'yr'], ['years', 'yrs']],
];
const WORDS = [
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
];

const rolling: fc.Arbitrary<Phrase> = fc
  .tuple(
    fc.constantFrom('', 'the ', 'in the ', 'over the ', 'for the ', 'within the ', 'during the '),
    fc.constantFrom('last', 'past', 'previous'),
    fc.integer({ min: 1, max: 400 }),
    fc.integer({ min: 0, max: UNITS.length - 1 }),
    fc.integer({ min: 0, max: 2 }),
  )
  .map(([filler, rel, n, u, style]) => {
    const [unit, singular, plural] = UNITS[u]!;
    const count = style === 2 && n <= 12 ? WORDS[n - 1]! : String(n);
    const words = n === 1 && style !== 1 ? singular : plural;
    const w = words[style % words.length]!;
    const glue = w.length <= 2 && /^\d/.test(count) && style === 0 ? '' : ' ';
    return { text: `${filler}${rel} ${count}${glue}${w}`, meaning: { k: 'rolling', n, unit } };
  });

const pastUnit: fc.Arbitrary<Phrase> = fc
  .tuple(fc.constantFrom('', 'the ', 'in the '), fc.integer({ min: 0, max: UNITS.length - 1 }))
  .map(([filler, u]) => {
    const [unit, singular] = UNITS[u]!;
    return { text: `${filler}past ${singular[0]}`, meaning: { k: 'rolling', n: 1, unit } };
  });

const calendar: fc.Arbitrary<Phrase> = fc
  .tuple(
    fc.constantFrom<[string, -1 | 0 | 1]>(['this', 0], ['last', -1], ['previous', -1], ['next', 1]),
    fc.constantFrom('week', 'weekend', 'month', 'year'),
  )
  .map(([[word, rel], unit]) => ({
    text: `${word === 'previous' ? 'the ' : ''}${word} ${unit}`,
    meaning: { k: 'calendar', rel, unit: unit as 'week' },
  }));

const namedParts: fc.Arbitrary<Phrase> = fc.constantFrom<Phrase>(
  { text: 'last night', meaning: { k: 'single', end: { day: { k: 'rel', n: -1 }, part: 'night' } } },
  { text: 'tonight', meaning: { k: 'single', end: { day: { k: 'rel', n: 0 }, part: 'night' } } },
  { text: 'this morning', meaning: { k: 'single', end: { day: { k: 'rel', n: 0 }, part: 'morning' } } },
  { text: 'this afternoon', meaning: { k: 'single', end: { day: { k: 'rel', n: 0 }, part: 'afternoon' } } },
  { text: 'this evening', meaning: { k: 'single', end: { day: { k: 'rel', n: 0 }, part: 'evening' } } },
);

const refusedForms = fc.constantFrom(
  'last day',
  'this day',
  'next day',
  'the last week',
  'in the last month',
  'over the last year',
  'the next week',
  'weekend',
  'the weekend',
  'morning',
  'tonight morning',
  'this night',
  'last evening',
  'next afternoon',
  'November',
  'last March',
  'the 3rd',
  'yesterday midnight',
  '9am',
  'yesterday 5pm',
  'since now',
);

const single: fc.Arbitrary<Phrase> = end.map(({ e, text }) => ({ text, meaning: { k: 'single', end: e } }));

const since: fc.Arbitrary<Phrase> = end.map(({ e, text }) => ({
  text: `since ${text}`,
  meaning: { k: 'since', from: e },
}));

const rangeOf: fc.Arbitrary<Phrase> = fc
  .tuple(end, fc.oneof(end, fc.constant(null), fc.constant('today' as const)), separator, fc.boolean())
  .map(([s, e, sep, from]) => {
    const endPart: { e: End; text: string } =
      e === null
        ? { e: { now: true }, text: 'now' }
        : e === 'today'
          ? { e: { day: { k: 'rel', n: 0 } }, text: 'today' }
          : e;
    return {
      text: `${from ? 'from ' : ''}${s.text}${sep}${endPart.text}`,
      meaning: { k: 'range', start: s.e, end: endPart.e },
    };
  });

const iso = (day: string, time: string) => /^\d{4}-\d\d-\d\d$/.test(day) && /^\d\d:\d\d$/.test(time);

/** "Monday 9am to 5pm", "between 9am and 5pm yesterday": both ends on one day. */
const sameDay: fc.Arbitrary<Phrase> = fc
  .tuple(day, clock, clock, separator, fc.boolean())
  .map(([d, a, b, sep, between]) => ({
    text: between ? `between ${a.text} and ${b.text} ${d.text}` : `${d.text} ${a.text}${sep}${b.text}`,
    meaning: {
      k: 'range',
      // An ISO date and a time with two-digit hours ("2026-11-01 12:00") are one ISO date-time: 24-hour.
      start: { day: d.spec, time: iso(d.text, a.text) && !between ? { ...a.c, written: '24' } : a.c },
      end: { sameDay: true, time: b.c },
    },
  }));

/** Weekday spans: "Monday 9am to Wednesday 5pm", "Friday to Monday", "Sat night to Sun morning". */
const weekdaySpan: fc.Arbitrary<Phrase> = fc
  .tuple(
    weekdayName,
    weekdayName,
    fc.option(clock, { nil: undefined }),
    fc.option(clock, { nil: undefined }),
    separator,
  )
  .map(([a, b, ta, tb, sep]) => ({
    text: `${a.name}${ta ? ` ${ta.text}` : ''}${sep}${b.name}${tb ? ` ${tb.text}` : ''}`,
    meaning: {
      k: 'range',
      start: { day: { k: 'weekday', wd: a.wd }, ...(ta ? { time: ta.c } : {}) },
      end: { day: { k: 'weekday', wd: b.wd }, ...(tb ? { time: tb.c } : {}) },
    },
  }));

/** Exact ISO instants, from before 1970 to after what a signed 64-bit nanosecond count can hold. */
const exact: fc.Arbitrary<Phrase> = fc
  .tuple(
    fc.bigInt({ min: -400_000_000_000_000_000n, max: 9_300_000_000_000_000_000n }),
    fc.bigInt({ min: 1n, max: 400_000_000_000_000_000n }),
    fc.boolean(),
  )
  .map(([start, len, epoch]) => {
    const a = start;
    const b = start + len;
    const iso = (ns: bigint) => toIso(ns);
    const asText = (ns: bigint) =>
      epoch && ns >= 1_000_000_000_000_000_000n && ns <= 9_999_999_999_999_999_999n ? ns.toString() : iso(ns);
    const meaning: Meaning = { k: 'exact', startNs: a, endNs: b };
    return { text: `${asText(a)} to ${asText(b)}`, meaning };
  })
  .filter((p) => !/^[+-]|to [+-]/.test(p.text)); // toIso has no form for years beyond 9999 or before 0

const phrase: fc.Arbitrary<Phrase> = fc.oneof(
  { weight: 3, arbitrary: rolling },
  { weight: 1, arbitrary: pastUnit },
  { weight: 2, arbitrary: calendar },
  { weight: 1, arbitrary: namedParts },
  { weight: 1, arbitrary: refusedForms.map((text): Phrase => ({ text, meaning: { k: 'refused' } })) },
  { weight: 4, arbitrary: single },
  { weight: 2, arbitrary: since },
  { weight: 5, arbitrary: rangeOf },
  { weight: 3, arbitrary: sameDay },
  { weight: 3, arbitrary: weekdaySpan },
  { weight: 1, arbitrary: exact },
);

const context = fc.record({
  tz: fc.constantFrom(...ZONES),
  nowMs: fc
    .tuple(fc.constantFrom(...BASES), fc.integer({ min: -3 * 24 * 60, max: 3 * 24 * 60 }))
    .map(([base, minutes]) => base + minutes * 60_000),
  locale: fc.constantFrom(...LOCALES),
  requirePast: fc.boolean(),
});

const RUNS = runsInThisZone(4000);

function run(p: Phrase, c: OracleCtx, style: (s: string) => string) {
  const text = style(p.text);
  const out = parseTimeRange(text, {
    now: new Date(c.nowMs),
    timeZone: c.tz,
    requirePast: c.requirePast,
    ...(c.locale ? { locale: c.locale } : {}),
  });
  return { text, out, want: oracle(p.meaning, c) };
}

describe('generated phrases', () => {
  it('agree with the independent oracle: the same range, or a refusal where it refuses', () => {
    fc.assert(
      fc.property(phrase, context, casing, (p, c, style) => {
        const { text, out, want } = run(p, c, style);
        const got = out.ok
          ? { ok: true, start: toIso(out.range.startNs), end: toIso(out.range.endNs) }
          : { ok: false };
        const expected = want.ok
          ? { ok: true, start: toIso(want.startNs), end: toIso(want.endNs) }
          : { ok: false };
        expect(got, `${text} | ${out.ok ? '' : out.error} | oracle: ${want.ok ? 'ok' : want.why}`).toEqual(
          expected,
        );
      }),
      { numRuns: RUNS },
    );
  });

  it('every accepted range starts at or after 1970, before its end, within 2262, and in the past where required', () => {
    fc.assert(
      fc.property(phrase, context, (p, c) => {
        const { out } = run(p, c, (s) => s);
        if (!out.ok) return;
        expect(out.range.startNs).toBeGreaterThanOrEqual(0n);
        expect(out.range.startNs).toBeLessThan(out.range.endNs);
        expect(out.range.endNs).toBeLessThanOrEqual(MAX_NS);
        if (c.requirePast) expect(out.range.endNs).toBeLessThanOrEqual(BigInt(c.nowMs) * 1_000_000n);
      }),
      { numRuns: RUNS },
    );
  });

  it('every refusal says what is wrong and offers a first example that is accepted', () => {
    fc.assert(
      fc.property(phrase, context, (p, c) => {
        const { out } = run(p, c, (s) => s);
        if (out.ok) return;
        expect(out.error.length).toBeGreaterThan(10);
        const example = out.examples[0]!;
        const again = parseTimeRange(example, {
          now: new Date(c.nowMs),
          timeZone: c.tz,
          ...(c.locale ? { locale: c.locale } : {}),
        });
        expect(again.ok ? 'ok' : again.error, example).toBe('ok');
      }),
      { numRuns: RUNS },
    );
  });
});
