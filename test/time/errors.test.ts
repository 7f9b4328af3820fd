import { describe, expect, it } from 'vitest';
import { isValidTimeZone, parseTimeRange } from '../../src/time/index.js';

const now = new Date('2026-11-02T03:30:00Z');
const ctx = { now, timeZone: 'America/New_York' };

function errorOf(text: string, extra: { requirePast?: boolean; timeZone?: string } = {}) {
  const out = parseTimeRange(text, { ...ctx, ...extra });
  if (out.ok) throw new Error(`expected an error for “${text}”`);
  expect(out.examples.length).toBeGreaterThan(0);
  return out.error;
}

describe('errors', () => {
  it('every example offered in errors is itself accepted', () => {
    const out = parseTimeRange('blah', ctx);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    for (const ex of out.examples) expect(parseTimeRange(ex, ctx).ok, ex).toBe(true);
  });

  it('at the stroke of local midnight, a refusal offers only examples that read at that moment', () => {
    // "today" is empty at midnight: "this day" must not send the person to it then.
    const midnight = { now: new Date('2026-11-02T05:00:00Z'), timeZone: 'America/New_York' };
    const out = parseTimeRange('this day', midnight);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(parseTimeRange('today', midnight).ok).toBe(false);
    expect(out.examples).not.toContain('today');
    expect(out.examples.length).toBeGreaterThan(0);
    for (const ex of out.examples) expect(parseTimeRange(ex, midnight).ok, ex).toBe(true);
  });

  it.each(['', '   ', '""', '“ ”'])('empty text %j', (text) => {
    expect(errorOf(text)).toMatch(/no time range/i);
  });

  it.each(['blah blah', 'the other day', 'last 3 fortnights', 'asdf to qwer'])('gibberish %j', (text) => {
    expect(errorOf(text)).toContain('could not read');
  });

  it.each([
    ['yesterday 9am to 5pm please', 'please'],
    ['last 3 days or so', 'or so'],
    ['yesterday at lunch', 'at lunch'],
  ])('partial parse %j names what was not understood', (text, rest) => {
    const e = errorOf(text);
    expect(e).toMatch(/only read part/);
    expect(e).toContain(rest);
  });

  it.each(['today 5pm to yesterday 9am', 'Nov 3 to Nov 1', '2026-11-01T10:00:00Z to 2026-11-01T09:00:00Z'])(
    'end before start %j',
    (text) => {
      expect(errorOf(text)).toMatch(/end .* is not after the start/);
    },
  );

  it('end equal to start is an error too', () => {
    expect(errorOf('2026-11-01T10:00:00Z to 2026-11-01T10:00:00Z')).toMatch(/not after the start/);
  });

  it.each(['Nov 1 to Nov 3', 'tomorrow 9am to 5pm', 'yesterday 9am to today 11pm'])(
    'future end is refused when requirePast %j',
    (text) => {
      expect(parseTimeRange(text, ctx).ok).toBe(true);
      expect(errorOf(text, { requirePast: true })).toMatch(/ends in the future/);
    },
  );

  it.each(['today', 'last 3 days', 'yesterday 9am to now', 'this week'])(
    'ranges ending now are past: %j',
    (text) => {
      expect(parseTimeRange(text, { ...ctx, requirePast: true }).ok).toBe(true);
    },
  );

  it.each([
    ['yesterday 9am', /single point in time/],
    ['2026-11-01T09:00:00Z', /single instant/],
    ['12345678 to 1793541600', /10 digits .*13 .*16 .*19/],
    ['2026-11-01T09:00:00.1234567891Z to 2026-11-01T10:00:00Z', /more than 9 fractional digits/],
    ['2026-13-01T09:00:00Z to 2026-11-01T10:00:00Z', /not a valid date/],
    ['2026-11-01T09:00:00+25:00 to 2026-11-01T10:00:00Z', /invalid UTC offset/],
    ['November', /no day/],
    ['Nov 1 to Nov 35', /“Nov 35” is not a date: November has at most 30 days/],
    ['from Nov 1', /has no end/],
    ['between 9am and', /between <start> and <end>/],
    ['last 0 days', /not a usable count/],
    ['since tomorrow', /not after the start/],
  ])('%j', (text, pattern) => {
    expect(errorOf(text)).toMatch(pattern);
  });

  it('rejects an unknown zone and an invalid now', () => {
    expect(errorOf('today', { timeZone: 'Mars/Base' })).toMatch(/not a time zone/);
    const out = parseTimeRange('today', { now: new Date(Number.NaN), timeZone: 'UTC' });
    expect(out.ok).toBe(false);
  });

  it('refuses overlong text without trying to parse it', () => {
    expect(errorOf(`yesterday 9am to 5pm ${'x'.repeat(300)}`)).toMatch(/too long/);
  });

  it.each(['32-1 Sept', '33-9rd June'])('a bare start day its month does not have: %j', (text) => {
    expect(errorOf(text)).toMatch(/is not a date/);
  });

  it('never throws on hostile input', () => {
    for (const text of ['\u0000', '-'.repeat(500), '9'.repeat(40), '..', ';', '–', 'between and', 'since']) {
      expect(() => parseTimeRange(text, ctx)).not.toThrow();
      expect(parseTimeRange(text, ctx).ok).toBe(false);
    }
  });
});

describe('isValidTimeZone', () => {
  it.each([
    ['Asia/Kolkata', true],
    ['America/New_York', true],
    ['UTC', true],
    ['Mars/Base', false],
    ['', false],
    ['Not A Zone', false],
  ])('%j → %s', (tz, valid) => {
    expect(isValidTimeZone(tz)).toBe(valid);
  });
});
