// chrono-node reads the dates and clock times the grammar finds; the grammar keeps what they mean. These
// pin how chrono's output is taken and guarded (docs/time-ranges.md, "Who reads what").
import { describe, expect, it } from 'vitest';
import { recognise, recogniseAs } from '../../src/time/chrono.js';
import { parseTimeRange, toIso } from '../../src/time/index.js';

describe('what is taken from chrono', () => {
  it('only the components it is certain of: no implied year, noon or zone', () => {
    expect(recognise('monthFirst', 'Nov 1')).toEqual({ month: 11, day: 1 });
    expect(recognise('monthFirst', '1st of November, 2026')).toEqual({ year: 2026, month: 11, day: 1 });
    expect(recognise('monthFirst', '9:30 pm')).toEqual({ hour: 21, minute: 30, meridiem: 1 });
    expect(recognise('monthYear', 'Nov 2025')).toEqual({ year: 2025, month: 11 });
  });

  it('01/11/2025 month first from chrono.strict, day first from chrono.en.GB', () => {
    expect(recognise('monthFirst', '01/11/2025')).toEqual({ year: 2025, month: 1, day: 11 });
    expect(recognise('dayFirst', '01/11/2025')).toEqual({ year: 2025, month: 11, day: 1 });
    // Only one order is a date: both read it the same way, so it is not ambiguous.
    expect(recognise('monthFirst', '13/11/2025')).toEqual(recognise('dayFirst', '13/11/2025'));
  });

  it('nothing when chrono reads only part of the text', () => {
    expect(recognise('monthFirst', 'the 1st of November')).toBeUndefined();
    expect(recognise('monthFirst', '9:15:30.123456789')).toBeUndefined();
    expect(recognise('monthFirst', 'Nov 1 0026')).toBeUndefined();
  });

  it('nothing when chrono is certain of a component the grammar did not ask for', () => {
    expect(recogniseAs('monthFirst', '9am EST', ['hour', 'minute'], ['meridiem'])).toBeUndefined();
    expect(recogniseAs('monthFirst', 'Tue 1 Nov', ['month', 'day'])).toBeUndefined();
    expect(recogniseAs('monthFirst', 'Nov 1 2026', ['month', 'day'])).toBeUndefined();
    expect(recogniseAs('monthFirst', '9am', ['hour', 'minute'], ['meridiem'])).toEqual({
      hour: 9,
      minute: 0,
      meridiem: 0,
    });
  });
});

describe('where the grammar overrules chrono', () => {
  const ctx = { now: new Date('2026-11-22T10:00:00Z'), timeZone: 'UTC' };
  const read = (text: string) => {
    const out = parseTimeRange(text, ctx);
    return out.ok ? [toIso(out.range.startNs), toIso(out.range.endNs)] : out.error;
  };

  it('a fraction of a second is decimal and kept to the nanosecond (chrono reads ".25" as 25 ms)', () => {
    expect(read('Nov 1 17:00:05.25 to 17:00:05.250000001')).toEqual([
      '2026-11-01T17:00:05.25Z',
      '2026-11-01T17:00:05.250000001Z',
    ]);
  });

  it('0am is not a time (chrono reads it as 12am)', () => {
    expect(read('yesterday 0am to 5pm')).toMatch(/“0am” is not a time of day/);
  });

  it('a day a month does not have is refused in the grammar’s words', () => {
    expect(read('Nov 31')).toMatch(/“Nov 31” is not a date: November has at most 30 days/);
    expect(read('Feb 29 2026')).toMatch(/February 2026 has 28 days/);
    expect(read('Nov 35')).toMatch(/November has at most 30 days/); // chrono.casual would read Nov 2035
  });

  it('a yearless 29 Feb is the most recent one', () => {
    expect(read('Feb 29')).toEqual(['2024-02-29T00:00:00Z', '2024-03-01T00:00:00Z']);
  });
});
