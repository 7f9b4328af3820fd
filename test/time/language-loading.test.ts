// A language's chrono parser is loaded the first time someone whose Slack language it is writes a range
// English does not read: nobody else pays for it (this file runs alone, with its own module state).
import { expect, it } from 'vitest';
import { languageLoaded } from '../../src/time/chrono.js';
import { parseTimeRange } from '../../src/time/index.js';

it('loads a language only for the people who write in it, and only when English does not read them', () => {
  const now = new Date('2026-03-04T10:00:00Z');
  const langs = ['de', 'fr', 'es', 'pt', 'nl', 'ja'] as const;
  expect(parseTimeRange('yesterday 9am to 5pm', { now, timeZone: 'Europe/Berlin', locale: 'de-DE' }).ok).toBe(
    true,
  );
  expect(parseTimeRange('gestern', { now, timeZone: 'Europe/Berlin', locale: 'en-GB' }).ok).toBe(false);
  expect(langs.filter(languageLoaded)).toEqual([]);
  expect(parseTimeRange('3. März 2026', { now, timeZone: 'Europe/Berlin', locale: 'de-DE' }).ok).toBe(true);
  expect(langs.filter(languageLoaded)).toEqual(['de']);
});
