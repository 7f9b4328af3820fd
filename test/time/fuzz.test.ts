// Random and mutated text never throws and always gets a well-formed answer. How long it takes is measured
// by the benchmark (bench/parse.ts), not here: the machines are shared, so tests never assert on time.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzStrings } from '../../bench/parse.js';
import {
  MAX_NS,
  parseTimeRange,
  parseTimeRanges,
  type RangeOutcome,
  type RangesOutcome,
} from '../../src/time/index.js';
import { SAMPLE_PHRASES } from '../../src/time/phrases.js';
import { runsInThisZone } from './runs.js';

const ZONES = [
  'UTC',
  'America/New_York',
  'Asia/Kolkata',
  'Europe/Berlin',
  'America/Havana',
  'Pacific/Chatham',
];

const context = fc.record({
  now: fc
    .integer({ min: Date.parse('1971-01-01T00:00:00Z'), max: Date.parse('2100-01-01T00:00:00Z') })
    .map((ms) => new Date(ms)),
  timeZone: fc.constantFrom(...ZONES),
  requirePast: fc.boolean(),
  locale: fc.constantFrom(undefined, 'en-US', 'de-DE', 'fr-FR', 'es-ES', 'ja-JP', 'xx'),
});

function wellFormed(out: RangeOutcome | RangesOutcome, requirePast: boolean, nowMs: number) {
  if (out.ok) {
    const ranges = 'range' in out ? [out.range] : out.ranges;
    for (const r of ranges) {
      expect(r.startNs).toBeGreaterThanOrEqual(0n);
      expect(r.startNs).toBeLessThan(r.endNs);
      expect(r.endNs).toBeLessThanOrEqual(MAX_NS);
      if (requirePast) expect(r.endNs).toBeLessThanOrEqual(BigInt(nowMs) * 1_000_000n);
    }
  } else {
    expect(typeof out.error).toBe('string');
    expect(out.error.length).toBeGreaterThan(0);
    expect(out.examples.length).toBeGreaterThan(0);
  }
}

function check(
  text: string,
  c: { now: Date; timeZone: string; requirePast: boolean; locale: string | undefined },
) {
  const ctx = {
    now: c.now,
    timeZone: c.timeZone,
    requirePast: c.requirePast,
    ...(c.locale ? { locale: c.locale } : {}),
  };
  wellFormed(parseTimeRange(text, ctx), c.requirePast, c.now.getTime());
  wellFormed(parseTimeRanges(text, ctx), c.requirePast, c.now.getTime());
}

/** A sample phrase with characters and words inserted, deleted, repeated or swapped. */
const mutated = fc
  .tuple(
    fc.constantFrom(...SAMPLE_PHRASES),
    fc.array(
      fc.tuple(
        fc.nat(),
        fc.constantFrom('insert', 'delete', 'repeat', 'swap', 'upper'),
        fc.string({ unit: 'grapheme', maxLength: 4 }),
      ),
      { maxLength: 5 },
    ),
  )
  .map(([phrase, edits]) => {
    let s = phrase;
    for (const [n, op, chunk] of edits) {
      const at = s.length === 0 ? 0 : n % (s.length + 1);
      if (op === 'insert') s = s.slice(0, at) + chunk + s.slice(at);
      else if (op === 'delete') s = s.slice(0, at) + s.slice(at + 1 + (n % 3));
      else if (op === 'repeat') s = `${s.slice(0, at)}${s.slice(at)}${s.slice(at)}`.slice(0, 250);
      else if (op === 'swap') s = s.split(' ').reverse().join(' ');
      else s = s.slice(0, at) + s.slice(at).toUpperCase();
    }
    return s;
  });

/** Word salad from the grammar's own words, with odd separators. */
const salad = fc
  .array(
    fc.constantFrom(
      'last',
      'past',
      'the',
      'since',
      'between',
      'and',
      'to',
      '-',
      '..',
      'night',
      'weekend',
      'Monday',
      'Nov',
      '1st',
      '31',
      '9am',
      '17:00',
      'midnight',
      'EST',
      'IST',
      '+05:30',
      '01/11/2025',
      '2026-11-01',
      '1793512800',
      'now',
      'today',
      '3',
      'days',
      ';',
      '\n',
    ),
    { maxLength: 20 },
  )
  .chain((words) => fc.constantFrom(' ', '', '  ', '-').map((sep) => words.join(sep)));

describe('fuzzing', () => {
  it('random text never throws and always gets a well-formed answer', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 260 }), context, (text, c) => check(text, c)),
      { numRuns: runsInThisZone(1000) },
    );
  });

  it('mutated phrases never throw and always get a well-formed answer', () => {
    fc.assert(
      fc.property(mutated, context, (text, c) => check(text, c)),
      { numRuns: runsInThisZone(2000) },
    );
  });

  it('word salad from the grammar never throws and always gets a well-formed answer', () => {
    fc.assert(
      fc.property(salad, context, (text, c) => check(text, c)),
      { numRuns: runsInThisZone(2000) },
    );
  });

  it('the benchmark’s fuzz strings never throw either', () => {
    const c = {
      now: new Date('2026-11-02T03:30:00Z'),
      timeZone: 'Europe/Berlin',
      requirePast: true,
      locale: 'en-GB',
    };
    for (const text of fuzzStrings(1000, 0x5eed)) check(text, c);
  });

  it('non-string input is refused, not thrown on', () => {
    for (const bad of [undefined, null, 42, {}, [], Symbol.iterator.toString()]) {
      const out = parseTimeRange(bad as unknown as string, { now: new Date(), timeZone: 'UTC' });
      expect(out.ok).toBe(false);
    }
  });
});
