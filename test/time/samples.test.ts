import { expect, it } from 'vitest';
import { parseTimeRange } from '../../src/time/index.js';
import { LANGUAGE_PHRASES, SAMPLE_PHRASES } from '../../src/time/phrases.js';

// The bench and the docs rely on every sample phrase being accepted in every zone.
it.each(['UTC', 'America/New_York', 'Asia/Kolkata', 'Europe/Berlin', 'Australia/Lord_Howe'])(
  'every sample phrase parses in %s',
  (timeZone) => {
    for (const text of SAMPLE_PHRASES) {
      const out = parseTimeRange(text, { now: new Date('2026-11-02T03:30:00Z'), timeZone });
      expect(out.ok ? 'ok' : out.error, text).toBe('ok');
    }
    for (const { text, locale } of LANGUAGE_PHRASES) {
      const out = parseTimeRange(text, { now: new Date('2026-11-02T03:30:00Z'), timeZone, locale });
      expect(out.ok ? 'ok' : out.error, text).toBe('ok');
    }
  },
);

it('a bare weekday is the most recent one, a weekday with "next" stays in the future', () => {
  const now = new Date('2026-11-02T03:30:00Z'); // Sunday 1 Nov 22:30 in New York
  const ctx = { now, timeZone: 'America/New_York' };
  const bare = parseTimeRange('Monday', ctx);
  const next = parseTimeRange('next Friday', ctx);
  if (!bare.ok || !next.ok) throw new Error('expected both to parse');
  expect(bare.range.startNs).toBeLessThan(BigInt(now.getTime()) * 1_000_000n);
  expect(next.range.startNs).toBeGreaterThan(BigInt(now.getTime()) * 1_000_000n);
});
