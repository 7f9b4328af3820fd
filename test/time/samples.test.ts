import { expect, it } from 'vitest';
import { parseTimeRange } from '../../src/time/index.js';
import { SAMPLE_PHRASES } from '../../src/time/phrases.js';

// The bench and the docs rely on every sample phrase being accepted in every zone.
it.each(['UTC', 'America/New_York', 'Asia/Kolkata', 'Europe/Berlin', 'Australia/Lord_Howe'])(
  'every sample phrase parses in %s',
  (timeZone) => {
    for (const text of SAMPLE_PHRASES) {
      const out = parseTimeRange(text, { now: new Date('2026-11-02T03:30:00Z'), timeZone });
      expect(out.ok ? 'ok' : out.error, text).toBe('ok');
    }
  },
);
