// The one reader, as every surface and a sentence's words ask it: exact, ambiguous with each reading as
// a phrase that reads as typed, refused, or no range at all; and where the ranges of a longer text are.
import { describe, expect, it } from 'vitest';
import {
  describeRange,
  findTimeRanges,
  parseTimeRange,
  parseTimeRanges,
  readTimeRange,
} from '../../src/time/index.js';

const now = new Date('2026-03-04T10:00:00Z'); // Wednesday 11:00 in Berlin
const ctx = { now, timeZone: 'Europe/Berlin' };

describe('readTimeRange', () => {
  it('says exact, ambiguous, refused or none', () => {
    expect(readTimeRange('yesterday 8-4', ctx).kind).toBe('exact');
    expect(readTimeRange('yesterday 1-5', ctx)).toMatchObject({
      kind: 'ambiguous',
      readings: ['yesterday 1am to 5am', 'yesterday 1pm to 5pm'],
    });
    expect(readTimeRange('Nov 31', ctx).kind).toBe('refused');
    expect(readTimeRange('a model on temperature', ctx).kind).toBe('none');
  });

  it.each([
    'yesterday 1-5',
    'yesterday 8-12',
    'yesterday 12-4',
    'yesterday 11:00 to 11:30',
    '10pm to 6am',
    'last day',
    'the last week',
    'weekend',
    'this Friday',
    '01/11/2025',
    'since 3 days ago',
    '2 weeks ago',
  ])('every reading of %j reads exactly as typed, and each is a different range', (phrase) => {
    const r = readTimeRange(phrase, ctx);
    if (r.kind === 'exact') return; // "yesterday 11:00 to 11:30" has one reading: it is not ambiguous
    expect(r.kind).toBe('ambiguous');
    if (r.kind !== 'ambiguous') return;
    expect(r.readings.length).toBeGreaterThanOrEqual(2);
    const ranges = r.readings.map((x) => parseTimeRange(x, ctx));
    for (const [k, o] of ranges.entries()) expect(o.ok, r.readings[k]).toBe(true);
    const spans = new Set(ranges.map((o) => (o.ok ? `${o.range.startNs}-${o.range.endNs}` : '')));
    expect(spans.size).toBe(ranges.length);
    // The refusal says each reading in words the person can check against what they meant.
    for (const x of r.readings) expect(r.error).toContain(`“${x}”`);
  });

  it('offers only the readings that read in the context: a future one is no reading where data must exist', () => {
    const r = parseTimeRange('10pm to 6am', { ...ctx, requirePast: true });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.readings).toEqual(['yesterday 10pm to 6am']);
  });

  it('a refusal lists the readings first among its examples', () => {
    const r = parseTimeRange('yesterday 1-5', ctx);
    if (r.ok) throw new Error('expected a refusal');
    expect(r.readings).toEqual(['yesterday 1am to 5am', 'yesterday 1pm to 5pm']);
    expect(r.examples.slice(0, 2)).toEqual(r.readings);
  });

  it('with several ranges, each reading is the whole text with that range read so', () => {
    const r = parseTimeRanges('Mar 1; yesterday 1-5', ctx);
    if (r.ok) throw new Error('expected a refusal');
    expect(r.readings).toEqual(['Mar 1; yesterday 1am to 5am', 'Mar 1; yesterday 1pm to 5pm']);
    for (const x of r.readings!) expect(parseTimeRanges(x, ctx).ok).toBe(true);
  });

  it('says how a span of hours was read, in the echo', () => {
    const r = parseTimeRange('yesterday 8-4', ctx);
    if (!r.ok) throw new Error(r.error);
    expect(describeRange(r.range, 'Europe/Berlin', { now })).toBe(
      'Tue 3 Mar 08:00 – 16:00 CET (07:00–15:00 UTC) [8–4 = 08:00–16:00]',
    );
  });
});

describe('findTimeRanges', () => {
  it('finds where a range is in a sentence, and reads it as readTimeRange does', () => {
    const text = 'train a model on temperature at Pump A using last week';
    const [found, ...more] = findTimeRanges(text, ctx);
    expect(more).toEqual([]);
    expect(found).toMatchObject({ text: 'last week', from: text.indexOf('last week'), to: text.length });
    expect(found!.reading).toEqual(readTimeRange('last week', ctx));
  });

  it('finds each range, the longest first, leaves punctuation and quotes out, and keeps ambiguous ones', () => {
    const text = 'score pump 3 on "yesterday 1-5", then compare the week before last with now-2h.';
    const found = findTimeRanges(text, ctx);
    expect(found.map((f) => [f.text, f.reading.kind])).toEqual([
      ['yesterday 1-5', 'ambiguous'],
      ['the week before last', 'exact'],
      ['now-2h', 'exact'],
    ]);
    for (const f of found) expect(text.slice(f.from, f.to)).toBe(f.text);
  });

  it('finds nothing where there is no range, and in the person’s language where that is theirs', () => {
    expect(findTimeRanges('I may need help with pump 3', ctx)).toEqual([]);
    const german = findTimeRanges('trainiere ein Modell mit den Daten der letzten 3 Tage', {
      ...ctx,
      locale: 'de-DE',
    });
    expect(german.map((f) => f.text)).toEqual(['der letzten 3 Tage']);
  });
});
