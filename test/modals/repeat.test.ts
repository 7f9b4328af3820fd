import { describe, expect, it } from 'vitest';
import { checkRepeat, isFixedRange } from '../../src/core/forms/repeat.js';

const o = { zone: 'Europe/London', now: Date.UTC(2026, 10, 27, 5, 0) };

describe('a form’s Repeat', () => {
  it('reads a "when" as /tsai schedule does, and words an unreadable one with an example', () => {
    expect(checkRepeat('  every weekday at 06:00 ', o)).toEqual({
      ok: true,
      whenText: 'every weekday at 06:00',
    });
    expect(checkRepeat('0 6 * * 1-5', o).ok).toBe(true);
    const bad = checkRepeat('whenever', o);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatch(/For example: every weekday at 06:00$/);
  });

  it('tells a range of fixed dates from one read again at each run', () => {
    expect(isFixedRange('Nov 1 to Nov 3', o)).toBe(true);
    expect(isFixedRange('2026-11-20 to 2026-11-21', o)).toBe(true);
    expect(isFixedRange('last 8 hours', o)).toBe(false);
    expect(isFixedRange('yesterday', o)).toBe(false);
    expect(isFixedRange('', o)).toBe(false);
    expect(isFixedRange('not a range', o)).toBe(false);
  });
});
