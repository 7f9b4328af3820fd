// Ranges written in the person's Slack language, read by the same rules as English: a table per language,
// in six zones at instants on daylight-saving changes, against Python's zoneinfo (kinds.ts); and what is
// refused, and that nobody pays for a language they do not write in.
import { describe, expect, it } from 'vitest';
import { parseTimeRange, readTimeRange } from '../../src/time/index.js';
import { phraseTable } from './kinds.js';

const SHIFTS = [
  { start: '06:00', name: 'frueh' },
  { start: '14:00', name: 'spaet' },
  { start: '22:00', name: 'nacht' },
];

phraseTable(
  'German (de-DE)',
  [
    { phrase: 'gestern von 9 bis 17 Uhr', expect: ['D-1 09:00', 'D-1 17:00'] },
    { phrase: 'gestern 9 bis 17 Uhr', expect: ['D-1 09:00', 'D-1 17:00'] },
    { phrase: 'zwischen 9 und 17 Uhr gestern', expect: ['D-1 09:00', 'D-1 17:00'] },
    { phrase: 'gestern 14.30 Uhr bis 16 Uhr', expect: ['D-1 14:30', 'D-1 16:00'] },
    { phrase: 'gestern 22 bis 6 Uhr', expect: ['D-1 22:00', 'D0 06:00'] },
    { phrase: 'die letzten 3 Tage', expect: ['now-3d', 'now'] },
    { phrase: 'in den letzten zwei Stunden', expect: ['now-2h', 'now'] },
    { phrase: 'die letzten 24 Stunden', expect: ['now-24h', 'now'] },
    { phrase: 'seit 3 Stunden', expect: ['now-3h', 'now'] },
    { phrase: 'vor 2 Stunden bis jetzt', expect: ['now-2h', 'now'] },
    { phrase: 'letzte Woche', expect: ['W-1', 'W0'] },
    { phrase: 'vorletzte Woche', expect: ['W-2', 'W-1'] },
    { phrase: 'letzten Monat', expect: ['M-1', 'M0'] },
    { phrase: 'letztes Jahr', expect: ['Y-1', 'Y0'] },
    { phrase: 'diese Woche', expect: ['W0', 'now'] },
    { phrase: 'seit Monatsbeginn', expect: ['M0', 'now'] },
    { phrase: 'seit Jahresbeginn', expect: ['Y0', 'now'] },
    { phrase: 'heute bisher', expect: ['D0', 'now'] },
    { phrase: 'gestern', expect: ['D-1', 'D0'] },
    { phrase: 'vorgestern', expect: ['D-2', 'D-1'] },
    { phrase: 'gestern Abend', expect: ['D-1 18:00', 'D-1 22:00'] },
    { phrase: 'letzte Nacht', expect: ['D-1 22:00', 'cut D0 06:00'] },
    { phrase: 'seit gestern 8 Uhr', expect: ['D-1 08:00', 'now'] },
    { phrase: 'gestern ab 9 Uhr', expect: ['D-1 09:00', 'now'] },
    { phrase: 'KW 9 2026', expect: ['ISOW2026w9', 'ISOW2026w10'] },
    { phrase: 'Kalenderwoche 1', expect: ['ISOWR1', 'ISOWR1+7d'] },
    { phrase: 'vom 1. bis 3. März 2026', expect: ['2026-03-01', '2026-03-04'] },
    { phrase: '3. Februar 2026 bis 5. Februar 2026', expect: ['2026-02-03', '2026-02-06'] },
    { phrase: 'vom 1.2. bis 3.2.', expect: ['MONR2', 'MONR2+3d'] },
    { phrase: '03.02.26', expect: ['2026-02-03', '2026-02-04'] },
    { phrase: 'Januar 2026', expect: ['2026-01-01', '2026-02-01'] },
    { phrase: 'von Januar bis Februar', expect: ['MONR1', 'MONR1+2m'] },
    { phrase: 'seit Schichtbeginn', expect: ['SHIFT', 'now'] },
    { phrase: 'die Nachtschicht vorgestern', expect: ['D-2 22:00', 'D-1 06:00'] },
    { phrase: 'gestern 1 bis 5 Uhr', expect: ['D-1 01:00', 'D-1 05:00'] },
    { phrase: 'heute Nacht', expect: { readings: 2 } },
    { phrase: 'die letzte Woche', expect: { readings: 2 } },
    { phrase: 'gestern von 9 bis', expect: 'refused' },
  ],
  { locale: 'de-DE', shifts: SHIFTS },
);

phraseTable(
  'French (fr-FR)',
  [
    { phrase: 'hier de 9h à 17h', expect: ['D-1 09:00', 'D-1 17:00'] },
    { phrase: 'hier de 22h à 6h', expect: ['D-1 22:00', 'D0 06:00'] },
    { phrase: 'entre 9h et 17h hier', expect: ['D-1 09:00', 'D-1 17:00'] },
    { phrase: 'hier de 9h30 à 17h', expect: ['D-1 09:30', 'D-1 17:00'] },
    { phrase: 'les 3 derniers jours', expect: ['now-3d', 'now'] },
    { phrase: 'les dernières 24 heures', expect: ['now-24h', 'now'] },
    { phrase: 'la dernière heure', expect: ['now-1h', 'now'] },
    { phrase: 'depuis 3 heures', expect: ['now-3h', 'now'] },
    { phrase: 'la semaine dernière', expect: ['W-1', 'W0'] },
    { phrase: 'le mois dernier', expect: ['M-1', 'M0'] },
    { phrase: "l'année dernière", expect: ['Y-1', 'Y0'] },
    { phrase: 'cette semaine', expect: ['W0', 'now'] },
    { phrase: 'le week-end dernier', expect: ['W0-2d', 'W0'] },
    { phrase: 'depuis le début du mois', expect: ['M0', 'now'] },
    { phrase: "aujourd'hui jusqu'ici", expect: ['D0', 'now'] },
    { phrase: 'hier', expect: ['D-1', 'D0'] },
    { phrase: 'avant-hier', expect: ['D-2', 'D-1'] },
    { phrase: 'hier soir', expect: ['D-1 18:00', 'D-1 22:00'] },
    { phrase: 'la nuit dernière', expect: ['D-1 22:00', 'cut D0 06:00'] },
    { phrase: 'depuis hier à 9h', expect: ['D-1 09:00', 'now'] },
    { phrase: 'semaine 9 2026', expect: ['ISOW2026w9', 'ISOW2026w10'] },
    { phrase: 'S1', expect: ['ISOWR1', 'ISOWR1+7d'] },
    { phrase: 'du 1er au 3 février 2026', expect: ['2026-02-01', '2026-02-04'] },
    { phrase: 'du 1er au 3 février', expect: ['MONR2', 'MONR2+3d'] },
    { phrase: 'depuis le 3 février 2026 à 14h', expect: ['2026-02-03 14:00', 'now'] },
    { phrase: 'de janvier à février', expect: ['MONR1', 'MONR1+2m'] },
    { phrase: 'janvier 2026', expect: ['2026-01-01', '2026-02-01'] },
    { phrase: 'cette nuit', expect: { readings: 2 } },
    { phrase: 'la dernière semaine', expect: { readings: 2 } },
    { phrase: 'hier de 1h à 5h', expect: ['D-1 01:00', 'D-1 05:00'] },
    { phrase: 'hier quelque part', expect: 'refused' },
  ],
  { locale: 'fr-FR' },
);

phraseTable(
  'Spanish (es-ES)',
  [
    { phrase: 'ayer de 9 a 17', expect: ['D-1 09:00', 'D-1 17:00'] },
    { phrase: 'ayer de las 9 de la mañana a las 5 de la tarde', expect: ['D-1 09:00', 'D-1 17:00'] },
    { phrase: 'ayer desde las 9 a las 17', expect: ['D-1 09:00', 'D-1 17:00'] },
    { phrase: 'los últimos 3 días', expect: ['now-3d', 'now'] },
    { phrase: 'la semana pasada', expect: ['W-1', 'W0'] },
    { phrase: 'del 1 al 3 de febrero de 2026', expect: ['2026-02-01', '2026-02-04'] },
    { phrase: 'hace 2 horas hasta ahora', expect: ['now-2h', 'now'] },
    { phrase: 'en lo que va del mes', expect: ['M0', 'now'] },
    { phrase: 'ayer por la tarde', expect: ['D-1 12:00', 'D-1 18:00'] },
    { phrase: 'anoche', expect: ['D-1 22:00', 'cut D0 06:00'] },
  ],
  { locale: 'es-ES' },
);

phraseTable(
  'Portuguese (pt-BR)',
  [
    { phrase: 'ontem das 9h às 17h', expect: ['D-1 09:00', 'D-1 17:00'] },
    { phrase: 'os últimos 3 dias', expect: ['now-3d', 'now'] },
    { phrase: 'a semana passada', expect: ['W-1', 'W0'] },
    { phrase: 'de 1 a 3 de fevereiro de 2026', expect: ['2026-02-01', '2026-02-04'] },
    { phrase: 'há 2 horas até agora', expect: ['now-2h', 'now'] },
    { phrase: 'ontem à noite', expect: ['D-1 22:00', 'cut D0 06:00'] },
  ],
  { locale: 'pt-BR' },
);

phraseTable(
  'Dutch (nl-NL)',
  [
    { phrase: 'gisteren van 9 tot 17 uur', expect: ['D-1 09:00', 'D-1 17:00'] },
    { phrase: 'de afgelopen 3 dagen', expect: ['now-3d', 'now'] },
    { phrase: 'vorige week', expect: ['W-1', 'W0'] },
    { phrase: 'van 1 tot 3 februari 2026', expect: ['2026-02-01', '2026-02-04'] },
    { phrase: '2 uur geleden tot nu', expect: ['now-2h', 'now'] },
    { phrase: 'vandaag tot nu toe', expect: ['D0', 'now'] },
    { phrase: 'gisteravond', expect: ['D-1 18:00', 'D-1 22:00'] },
    { phrase: 'vannacht', expect: { readings: 2 } },
  ],
  { locale: 'nl-NL' },
);

phraseTable(
  'Japanese (ja-JP)',
  [
    { phrase: '昨日9時から17時まで', expect: ['D-1 09:00', 'D-1 17:00'] },
    { phrase: '昨日９時から１７時まで', expect: ['D-1 09:00', 'D-1 17:00'] },
    { phrase: '過去3日間', expect: ['now-3d', 'now'] },
    { phrase: '先週', expect: ['W-1', 'W0'] },
    { phrase: '2026年2月1日から2026年2月3日まで', expect: ['2026-02-01', '2026-02-04'] },
    { phrase: '2時間前から今まで', expect: ['now-2h', 'now'] },
    { phrase: '第1週', expect: ['ISOWR1', 'ISOWR1+7d'] },
    { phrase: '昨日', expect: ['D-1', 'D0'] },
  ],
  { locale: 'ja-JP' },
);

describe('other languages', () => {
  const now = new Date('2026-03-04T10:00:00Z');

  it('are read only where they are the person’s Slack language: to anyone else, German is not a range', () => {
    expect(
      parseTimeRange('gestern von 9 bis 17 Uhr', { now, timeZone: 'Europe/Berlin', locale: 'en-GB' }).ok,
    ).toBe(false);
    expect(parseTimeRange('gestern von 9 bis 17 Uhr', { now, timeZone: 'Europe/Berlin' }).ok).toBe(false);
    expect(parseTimeRange('hier de 9h à 17h', { now, timeZone: 'Europe/Paris', locale: 'de-DE' }).ok).toBe(
      false,
    );
  });

  it('English keeps working for a person whose language is another one, read exactly as for anyone', () => {
    const de = parseTimeRange('yesterday 9am to 5pm', { now, timeZone: 'Europe/Berlin', locale: 'de-DE' });
    const en = parseTimeRange('yesterday 9am to 5pm', { now, timeZone: 'Europe/Berlin', locale: 'en-GB' });
    expect(de).toEqual(en);
  });

  it('an English range refused in English is not read again in the language, where its words mean something else', () => {
    // In German "am" is "on": "12:15 am 1/1" would become 12:15 on 1 Jan, a range the person never wrote.
    const at = { now: new Date(1772953200000), timeZone: 'UTC' };
    for (const text of ['between 00:15 and 12:15 am 1/1', '1/1 00:15 to 12:15 am']) {
      const de = parseTimeRange(text, { ...at, locale: 'de-DE' });
      expect(de, text).toMatchObject({ ok: false, error: expect.stringMatching(/^The end .* is not after/) });
      expect(de, text).toEqual(parseTimeRange(text, { ...at, locale: 'en-GB' }));
    }
    const german = parseTimeRange('zwischen 00:15 und 12:15 am 1.1.', { ...at, locale: 'de-DE' });
    expect(german.ok && new Date(Number(german.range.endNs / 1_000_000n)).toISOString()).toBe(
      '2026-01-01T12:15:00.000Z',
    );
  });

  it('a refusal says what the words were read as, in the grammar’s words, and why', () => {
    const r = readTimeRange('gestern von 9 bis', { now, timeZone: 'Europe/Berlin', locale: 'de-DE' });
    expect(r.kind).not.toBe('exact');
    if (r.kind !== 'exact') expect(r.error).toMatch(/^I read “gestern von 9 bis” as “yesterday from 9 to”\./);
  });

  it('a phrase the language uses both ways offers each reading in words that read as typed', () => {
    const r = readTimeRange('heute Nacht', { now, timeZone: 'Europe/Berlin', locale: 'de-DE' });
    expect(r).toMatchObject({ kind: 'ambiguous', readings: ['letzte Nacht', 'tonight'] });
  });

  it('a day and month written with a slash are read in the region’s order, asked where it does not say one, whatever follows them', () => {
    const ask = (text: string) => readTimeRange(text, { now, timeZone: 'Asia/Tokyo', locale: 'ja-JP' });
    for (const text of ['1/2', '1/2 1:00 am - 02:30', '1/2 12:00 am - 00:30'])
      expect(ask(text), text).toMatchObject({ kind: 'ambiguous' });
    const gb = parseTimeRange('1/2 1:00 am - 02:30', { now, timeZone: 'Europe/London', locale: 'en-GB' });
    expect(gb.ok && new Date(Number(gb.range.startNs / 1_000_000n)).toISOString()).toBe(
      '2026-02-01T01:00:00.000Z',
    );
  });
});
