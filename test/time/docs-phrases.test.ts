// Every form docs/time-ranges.md presents as accepted ("What you can type": the table and the bullet lists
// under it) is read by the parser. The page itself is read here, so a form added to it is tested with it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseTimeRanges } from '../../src/time/index.js';

const page = readFileSync(new URL('../../docs/time-ranges.md', import.meta.url), 'utf8');

function section(title: string): string {
  const from = page.indexOf(`## ${title}`);
  if (from < 0) throw new Error(`no section “${title}” in docs/time-ranges.md`);
  const next = page.indexOf('\n## ', from + 1);
  return page.slice(from, next < 0 ? undefined : next);
}

const backticked = (text: string): string[] => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

const tableRows = (text: string): string[][] =>
  text
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
    .slice(1) // the header
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );

/** Bullets (with their nested lines) as one string each. */
function bullets(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (/^- /.test(line)) out.push(line.slice(2));
    else if (/^\s+\S/.test(line) && out.length > 0) out[out.length - 1] += ` ${line.trim()}`;
  }
  return out;
}

/**
 * The bullets list pieces of a phrase (a separator, a filler word, a time, a zone); each piece is shown in a
 * whole phrase of its kind, chosen by the words that introduce it. Every phrase returned must be accepted.
 */
const FRAMES: [RegExp, (piece: string) => string[]][] = [
  [
    /^Separators/,
    (s) =>
      s.includes('…')
        ? [s.replace('…', 'yesterday 9am').replace('…', '5pm')]
        : [`yesterday 9am ${s} 5pm`, `Nov 1 ${s} Nov 3`],
  ],
  [/before a rolling window/, (w) => [`${w} last 3 days`, `${w} past 24 hours`]],
  [/before a day/, (w) => [`${w} Friday`, `since ${w} Nov 1`]],
  [/before a time/, (w) => [`yesterday ${w} 9am to 5pm`]],
  [
    /^Quotes/,
    (q) => {
      const [open, close = open] = q.split(' ');
      return [`${open}yesterday 9am to 5pm${close}`, `${open}last 3 days`, `last 3 days${close}`];
    },
  ],
  [/^Times:/, (t) => [`yesterday 00:00 to ${t}`, `since yesterday ${t === 'midnight' ? '00:00' : t}`]],
  [
    /zone written after a time/,
    (z) => [`yesterday 9am ${z} to 5pm ${z}`, `yesterday 9am to 5pm ${z}`, `Nov 1 09:00 ${z} - 17:00`],
  ],
  [/^ISO 8601 with/, (z) => [`2026-11-01T09:00:00.123456789${z} to 2026-11-01T17:00:00${z}`]],
  [/^An ISO date and time without a zone/, (t) => [`${t} to 2026-11-01T17:00`, `since ${t}`]],
];

/** The clauses of a bullet, each with the pieces it lists, and the phrases that show them. */
function bulletPhrases(bullet: string): { piece: string; phrases: string[] }[] {
  const out: { piece: string; phrases: string[] }[] = [];
  // A clause ends at a ";" or a full stop followed by a space, or where a nested bullet begins.
  for (const clause of bullet.split(/;\s|\.\s+|\s- /)) {
    const pieces = backticked(clause);
    // The zone abbreviations are listed as plain words.
    const named = /one of ([A-Z, ]+?)(?:\.|$)/.exec(clause)?.[1]?.split(/,\s*(?:and\s+)?/) ?? [];
    if (pieces.length + named.length === 0) continue;
    const frame = FRAMES.find(([introduces]) => introduces.test(clause.trim()));
    if (!frame) throw new Error(`the test has no phrase to show the pieces of “${clause}” in`);
    for (const piece of [...pieces, ...named.map((n) => n.trim())]) {
      out.push({ piece, phrases: frame[1](piece) });
    }
  }
  return out;
}

function listedForms(): { where: string; phrases: string[] }[] {
  const text = section('What you can type');
  const forms: { where: string; phrases: string[] }[] = [];
  for (const [kind, examples] of tableRows(text)) {
    for (const example of backticked(examples!)) {
      // "(separate with `;` or new lines)": a separator between the row's own examples.
      const phrases = /^\W+$/.test(example) ? [`Nov 1-3${example} Nov 10 9am-5pm`] : [example];
      forms.push({ where: `${kind} ${example}`, phrases });
    }
  }
  for (const bullet of bullets(text)) {
    for (const { piece, phrases } of bulletPhrases(bullet)) forms.push({ where: piece, phrases });
  }
  return forms;
}

const NOW = new Date('2026-11-25T12:00:00Z');

describe('every form docs/time-ranges.md lists is accepted', () => {
  const forms = listedForms();

  it('finds the forms on the page', () => {
    const all = forms.flatMap((f) => f.phrases);
    expect(all.length).toBeGreaterThan(100);
    for (const phrase of ['yesterday 9am to 5pm', 'since 2026-11-01T12:00:00Z', '1793512800 to 1793541600']) {
      expect(all).toContain(phrase);
    }
  });

  it.each(['UTC', 'America/Los_Angeles', 'Asia/Kolkata'])('in %s', (timeZone) => {
    const refused: string[] = [];
    for (const { where, phrases } of forms) {
      for (const phrase of phrases) {
        const out = parseTimeRanges(phrase, { now: NOW, timeZone });
        if (!out.ok) refused.push(`${where}: “${phrase}” → ${out.error}`);
        else for (const r of out.ranges) expect(r.endNs > r.startNs, phrase).toBe(true);
      }
    }
    expect(refused).toEqual([]);
  });
});

describe('every example docs/time-ranges.md gives in another language is read, for a person who writes it', () => {
  const LOCALES: Record<string, string> = {
    de: 'de-DE',
    fr: 'fr-FR',
    es: 'es-ES',
    pt: 'pt-BR',
    nl: 'nl-NL',
    ja: 'ja-JP',
  };
  const rows = tableRows(section('In your language')).map(([language, examples]) => ({
    locale: LOCALES[/`(\w\w)`/.exec(language!)?.[1] ?? '']!,
    phrases: backticked(examples!),
  }));

  it('finds every language on the page', () => {
    expect(rows.map((r) => r.locale).sort()).toEqual(Object.values(LOCALES).sort());
    expect(rows.flatMap((r) => r.phrases).length).toBeGreaterThan(60);
  });

  it.each(['UTC', 'Europe/Berlin', 'Asia/Tokyo'])('in %s', (timeZone) => {
    const refused: string[] = [];
    const shifts = [
      { start: '06:00', name: 'frueh' },
      { start: '14:00', name: 'spaet' },
      { start: '22:00', name: 'nacht' },
    ];
    for (const { locale, phrases } of rows) {
      for (const phrase of phrases) {
        const out = parseTimeRanges(phrase, { now: NOW, timeZone, locale, shifts });
        if (!out.ok) refused.push(`${locale}: “${phrase}” → ${out.error}`);
      }
    }
    expect(refused).toEqual([]);
  });
});
