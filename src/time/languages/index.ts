// Ranges written in the person's own language (their Slack locale: German, French, Spanish, Portuguese,
// Dutch or Japanese) are read by the same grammar under the same rules: the words that shape a range
// ("gestern", "bis", "les 3 derniers jours", "先週") are put in the grammar's English by a small lexicon
// per language, and the dates and times between them are read by chrono-node's parser for that language
// ("3. März 2026", "14h30", "9時30分"), which says which month a word names. Whatever neither reads is left
// as written, so the grammar refuses it: nothing is guessed. Replies stay in English.
import { monthAbbr } from '../calendar.js';
import { type Fields, type Language, recogniseWritten } from '../chrono.js';
import { Refusal } from '../endpoint.js';
import { de } from './de.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { ja } from './ja.js';
import type { Helpers, Lexicon, Said } from './lexicon.js';
import { nl } from './nl.js';
import { pt } from './pt.js';

export type { Language } from '../chrono.js';

const LEXICONS: Record<Language, Lexicon> = { de, fr, es, pt, nl, ja };

/** The language of a Slack locale ("de-DE", "fr_CA", "ja") whose ranges are read in it; undefined for others. */
export function languageOf(locale: string | undefined): Language | undefined {
  const lang = /^([a-z]{2})(?:[-_]|$)/i.exec(locale ?? '')?.[1]?.toLowerCase();
  return lang && lang in LEXICONS ? (lang as Language) : undefined;
}

interface Seg {
  t: string;
  /** Already the grammar's English. */
  en: boolean;
}

interface Compiled {
  rules: [RegExp, (m: RegExpExecArray, before: string) => Said][];
}

const compiled = new Map<Language, Compiled>();

function compile(lang: Language): Compiled {
  let c = compiled.get(lang);
  if (!c) {
    const lx = LEXICONS[lang];
    const units = Object.keys(lx.units).sort((a, b) => b.length - a.length);
    const numbers = Object.keys(lx.numbers).sort((a, b) => b.length - a.length);
    const [b, e] = lx.spaced ? ['(?<![\\p{L}\\p{N}])', '(?![\\p{L}\\p{N}])'] : ['', ''];
    // A pattern that ends by looking ahead says itself what may follow it.
    const expand = (src: string) =>
      b +
      src
        .replaceAll('{N}', `(\\d+|${numbers.join('|')})`)
        .replaceAll('{U}', `(${units.join('|')})`)
        .replaceAll('{W}', '([\\p{L}]+)')
        .replaceAll(' ', '\\s*') +
      (/\(\?[=!][^()]*\)$/.test(src) ? '' : e);
    const words = Object.keys(lx.words).sort((x, y) => y.length - x.length);
    const rules: Compiled['rules'] = lx.rules.map(([src, say]) => [
      new RegExp(expand(src), 'giu'),
      (m: RegExpExecArray, before: string) => say(m, helpers(lang), before),
    ]);
    rules.push([
      new RegExp(`${b}(${words.map(escapeRegExp).join('|').replaceAll(' ', '\\s+')})${e}`, 'giu'),
      (m) => lx.words[m[1]!.replace(/\s+/g, ' ')] ?? null,
    ]);
    c = { rules };
    compiled.set(lang, c);
  }
  return c;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function helpers(lang: Language): Helpers {
  const lx = LEXICONS[lang];
  return {
    count: (w) => (/^\d+$/.test(w) ? Number(w) : lx.numbers[w.toLowerCase()]),
    unit: (w) => lx.units[w.toLowerCase()],
    month: (w) => {
      if (!lx.monthProbe || w.length < 3) return undefined;
      const f = recogniseWritten(lang, lx.monthProbe(w));
      return f && !f.end && f.start.day === 1 && f.start.hour === undefined ? f.start.month : undefined;
    },
  };
}

/** Each segment not yet in English, with the rule's matches in it put in English (`before`: all that precedes). */
function apply(segs: Seg[], re: RegExp, say: (m: RegExpExecArray, before: string) => Said): Seg[] | Refusal {
  const out: Seg[] = [];
  let done = '';
  for (const seg of segs) {
    if (seg.en) {
      out.push(seg);
      done += ` ${seg.t} `;
      continue;
    }
    let from = 0;
    re.lastIndex = 0;
    for (let m = re.exec(seg.t); m; m = re.exec(seg.t)) {
      if (m[0] === '') {
        re.lastIndex++;
        continue;
      }
      const said = say(m, done + seg.t.slice(0, m.index));
      if (said instanceof Refusal) return said;
      if (said === null) continue;
      out.push({ t: seg.t.slice(from, m.index), en: false }, { t: said, en: true });
      from = m.index + m[0].length;
    }
    out.push({ t: seg.t.slice(from), en: false });
    done += seg.t;
  }
  return out;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A date or time chrono read, in words the grammar reads the same way. */
function english(f: Fields, clock24: boolean): string {
  const parts: string[] = [];
  if (f.month !== undefined && f.day !== undefined) {
    parts.push(`${f.day} ${monthAbbr(f.month)}${f.year === undefined ? '' : ` ${f.year}`}`);
  }
  if (f.hour !== undefined) {
    // A time chrono knows the half of the day of, or one in a language that writes the 24-hour clock ("5 Uhr"),
    // is given with its leading zero; another ("9時") keeps its hour as written, so that the grammar's rules
    // for a time that may be in either half of the day apply to it.
    const fixed = clock24 || f.meridiem !== undefined || f.hour === 0 || f.hour >= 13;
    const hour = fixed ? pad(f.hour) : String(f.hour);
    parts.push(`${hour}:${pad(f.minute ?? 0)}${f.second === undefined ? '' : `:${pad(f.second)}`}`);
  }
  return parts.join(' ');
}

/** The words left between the lexicon's: a date or time chrono reads, month names, or as written. */
function atoms(lang: Language, text: string): string {
  const t = text.trim();
  if (t === '') return '';
  // Numbers alone ("01/11/25", "9:30"), and a day and month written with a slash whatever follows ("1/2
  // 12:00 am"), are the grammar's: the order of a numeric date is the person's region's, asked when the
  // region does not say it, and a two-digit year is read only where the region writes one.
  const numeric = /^[\d\s./:-]+$/.test(t) || /(?<!\d)\d{1,2}\/\d{1,2}(?!\d)/.test(t);
  const w = numeric ? undefined : recogniseWritten(lang, t);
  const clock24 = LEXICONS[lang].clock24 === true;
  if (w)
    return w.end ? `${english(w.start, clock24)} to ${english(w.end, clock24)}` : english(w.start, clock24);
  const h = helpers(lang);
  return t.replace(/[\p{L}]+/gu, (word) => {
    const m = h.month(word);
    return m === undefined ? word : monthAbbr(m);
  });
}

/**
 * `text`, written in `lang`, in the grammar's English; a refusal for a phrase the language itself uses
 * with two readings ("heute Nacht"); undefined when nothing in it is the language's.
 */
export function inEnglish(text: string, lang: Language): string | Refusal | undefined {
  const lx = LEXICONS[lang];
  const source = (lang === 'ja' ? text.normalize('NFKC') : text).toLowerCase().replace(/[’‘`´]/g, "'");
  let segs: Seg[] | Refusal = [{ t: lx.reorder ? lx.reorder(source) : source, en: false }];
  for (const [re, say] of compile(lang).rules) {
    segs = apply(segs, re, say);
    if (segs instanceof Refusal) return segs;
  }
  const said = segs
    .map((s) => (s.en ? s.t : atoms(lang, s.t)))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  return said === source.replace(/\s+/g, ' ').trim() ? undefined : said;
}
