// Day/month order of numeric dates follows the user's Slack locale; with no known region, a date that
// reads both ways is refused with both readings and the forms that cannot be misread.
import { describe, expect, it } from 'vitest';
import { dateOrderFor, describeRange, parseTimeRange, toIso } from '../../src/time/index.js';
import { localToUtcMs, type TestZone } from '../support/zone-oracle.js';

describe('dateOrderFor', () => {
  it.each([
    ['en-US', 'MDY'],
    ['es-US', 'MDY'],
    ['en-PH', 'MDY'],
    ['en_US', 'MDY'],
    ['EN-us', 'MDY'],
    ['en-GB', 'DMY'],
    ['en-IN', 'DMY'],
    ['de-DE', 'DMY'],
    ['fr-FR', 'DMY'],
    ['pt-BR', 'DMY'],
    ['es-LA', 'DMY'],
    ['es-419', 'DMY'],
    ['zh-Hant-HK', 'DMY'],
    ['en-CA', undefined], // both orders in everyday use
    ['fr-CA', undefined],
    ['ja-JP', undefined], // year first
    ['zh-CN', undefined],
    ['ko-KR', undefined],
    ['en', undefined], // no region
    ['de', undefined],
    ['', undefined],
    ['<script>', undefined],
    [undefined, undefined],
  ])('%j → %s', (locale, order) => {
    expect(dateOrderFor(locale)).toBe(order);
  });
});

const NOW = new Date('2026-11-22T10:00:00Z');

type Day = string; // local date YYYY-MM-DD: the whole day

function day(zone: TestZone, date: Day): { start: string; end: string } {
  const next = new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return {
    start: new Date(localToUtcMs(zone, `${date} 00:00`)).toISOString().replace('.000', ''),
    end: new Date(localToUtcMs(zone, `${next} 00:00`)).toISOString().replace('.000', ''),
  };
}

const USERS: [TestZone, string | undefined][] = [
  ['Europe/Berlin', 'de-DE'],
  ['Asia/Kolkata', 'en-IN'],
  ['Europe/London', 'en-GB'],
  ['America/New_York', 'en-US'],
  ['Europe/Berlin', undefined],
  ['America/New_York', 'en-CA'],
];

const ORDER_OF: Record<string, 'DMY' | 'MDY'> = {
  'de-DE': 'DMY',
  'en-IN': 'DMY',
  'en-GB': 'DMY',
  'en-US': 'MDY',
};

// [text, day-first reading, month-first reading]: null where that reading is not a date.
const CASES: [string, Day | null, Day | null][] = [
  ['01/11/2025', '2025-11-01', '2025-01-11'],
  ['1/11/2025', '2025-11-01', '2025-01-11'],
  ['01.11.2025', '2025-11-01', '2025-01-11'],
  ['01-11-2025', '2025-11-01', '2025-01-11'],
  ['11/01/2025', '2025-01-11', '2025-11-01'],
  ['02/03/2026', '2026-03-02', '2026-02-03'],
  ['13/11/2025', '2025-11-13', null],
  ['11/13/2025', null, '2025-11-13'],
  ['31/12/2025', '2025-12-31', null],
  ['05/05/2025', '2025-05-05', '2025-05-05'],
  ['1/11', '2026-11-01', '2026-01-11'], // without a year: the most recent one
  ['13/11', '2026-11-13', null],
];

describe('numeric dates by region', () => {
  for (const [zone, locale] of USERS) {
    const order = locale ? ORDER_OF[locale] : undefined;
    describe(`${locale ?? 'no locale'} in ${zone}`, () => {
      it.each(CASES)('%s', (text, dayFirst, monthFirst) => {
        const out = parseTimeRange(text, { now: NOW, timeZone: zone, ...(locale ? { locale } : {}) });
        const ambiguous = dayFirst !== null && monthFirst !== null && dayFirst !== monthFirst;
        if (ambiguous && !order) {
          if (out.ok) throw new Error(`${text}: expected a refusal`);
          expect(out.error).toContain('could be');
          expect(out.error).toContain("I don't know which order your region uses");
          // The examples spell out both readings in forms that cannot be misread, day first first.
          const readings = out.examples.slice(0, monthFirst && /\d{4}/.test(text) ? 4 : 2).map((example) => {
            const again = parseTimeRange(example, { now: NOW, timeZone: zone });
            if (!again.ok) throw new Error(`${example}: ${again.error}`);
            return { start: toIso(again.range.startNs), end: toIso(again.range.endNs) };
          });
          expect(readings[0]).toEqual(day(zone, dayFirst));
          expect(readings).toContainEqual(day(zone, monthFirst));
          return;
        }
        const want = ambiguous ? (order === 'DMY' ? dayFirst : monthFirst) : (dayFirst ?? monthFirst);
        if (!out.ok) throw new Error(`${text}: ${out.error}`);
        expect({ start: toIso(out.range.startNs), end: toIso(out.range.endNs) }).toEqual(day(zone, want!));
        if (ambiguous) expect(out.range.note).toMatch(order === 'DMY' ? /day first/ : /month first/);
        else expect(out.range.note ?? '').not.toMatch(/first/);
      });
    });
  }
});

describe('numeric dates that are never ambiguous or never dates', () => {
  const ctx = { now: NOW, timeZone: 'Europe/Berlin' };
  it.each(['2025-11-01', '2025/11/01', '2025.11.01', '1 Nov 2025', 'Nov 1 2025', 'November 1st, 2025'])(
    '%s is 1 Nov 2025 without a locale',
    (text) => {
      const out = parseTimeRange(text, ctx);
      if (!out.ok) throw new Error(out.error);
      expect(toIso(out.range.startNs)).toBe('2025-10-31T23:00:00Z');
      expect(out.range.note).toBeUndefined();
    },
  );

  it.each([
    ['31/02/2025', /not a date in either day\/month order/],
    ['13/13/2025', /not a date in either day\/month order/],
    ['01/11/25', /2-digit year; write the year in full/],
    ['2025-13-01', /not a date/],
  ])('%s is refused', (text, pattern) => {
    const out = parseTimeRange(text, { ...ctx, locale: 'de-DE' });
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.error).toMatch(pattern);
  });

  it('the echo says which way a date was read', () => {
    const out = parseTimeRange('01/11/2025 to 03/11/2025', { ...ctx, locale: 'en-GB' });
    if (!out.ok) throw new Error(out.error);
    expect(describeRange(out.range, 'Europe/Berlin', { now: NOW })).toBe(
      'Sat 1 Nov 2025 00:00 – Tue 4 Nov 2025 00:00 CET (Fri 31 Oct 2025 23:00 – Mon 3 Nov 2025 23:00 UTC) [01/11/2025 = 1 Nov 2025 (day first, as in en-GB); 03/11/2025 = 3 Nov 2025 (day first, as in en-GB)]',
    );
  });
});
