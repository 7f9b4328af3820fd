import { type CatalogEntry, catalogKey, type Store } from '../../store/index.js';
import { findTimeRanges } from '../../time/index.js';
import { idsOf, type ResourceKind } from '../catalog/kind.js';
import { resolveName } from '../catalog/resolve.js';
import { isFormId } from '../forms/fields.js';
import type { CommandSpec } from '../grammar/commands.js';
import { decodeSlackEntities } from '../grammar/tokenize.js';
import type { Person } from '../interpret.js';
import { type AnyEntry, type Argument, entryOfCommand } from '../operations/registry/index.js';
import { maskSecrets } from '../secret-text.js';
import { commandsSaid, type Said } from './phrases.js';
import { FILLER, LINKING, type Word, wordsOf } from './words.js';

/** A sentence someone wrote to the bot, with what reading it needs: where, and who (zone, locale). */
export interface Sentence {
  /** As Slack sent it (entities, mentions as `<@U…>`). */
  text: string;
  teamId?: string;
  channelId: string;
  person: () => Promise<Person>;
  now: () => Date;
}

/** One command a sentence was read as. */
export interface Reading {
  spec: CommandSpec;
  /** The command as it is typed (after `/tsai`), in the person's own words where they gave names. */
  command: string;
  /** Its form, filled in with what was read (IDs where names were given: a form picks IDs). */
  form?: { id: string; given: Record<string, string> };
  /** What of the sentence it does not use, each said plainly (an unknown name with the closest known). */
  unread: string[];
}

/**
 * What a sentence comes to: `read`, one command; `readings`, several it may mean equally (the person is
 * asked, never guessed for); `unplaced`, no command it asks for, with what the person could say instead.
 * Nothing is run or sent: the surface shows it and waits for a click, or answers a question at once.
 */
export type SentenceReading =
  | { kind: 'read'; reading: Reading; masked: boolean; others: CommandSpec[] }
  | { kind: 'readings'; readings: Reading[]; why: string; masked: boolean; others: CommandSpec[] }
  | { kind: 'unplaced'; masked: boolean };

/** The most readings offered for one sentence: each is a button to think about. */
const MAX_READINGS = 3;
const TOKEN_NOTE = /\[a token-like value, not shown\]/g;

/**
 * A plain request read into the bot's commands: the command from the phrases each declares
 * (`CommandSpec.said`, from its registry entry for the service's operations), resources by the names the
 * team's catalog knows (or by ID, named by the word before it), ranges by the time reader in the person's
 * zone and language, free text after the words an argument declares (`because …`). A token in it is masked
 * before anything else. Pure but for reading the store (the catalog, the channel's shifts).
 */
export async function readSentence(store: Store, s: Sentence): Promise<SentenceReading> {
  const decoded = decodeSlackEntities(s.text.replace(/<[@#!][^>]*>/g, ' '));
  const text = maskSecrets(decoded);
  const masked = text !== decoded;
  const clean = text.replace(TOKEN_NOTE, (m) => ' '.repeat(m.length));
  const words = wordsOf(clean);
  const all = commandsSaid(words);
  const said = all.filter((x) => x.score === all[0]?.score).slice(0, MAX_READINGS);
  if (said.length === 0) return { kind: 'unplaced', masked };
  // The commands the sentence asks for less well: what "Not what I meant" offers besides.
  const others = [...new Set(all.map((x) => x.spec))].filter((spec) => !said.some((x) => x.spec === spec));
  const person = await s.person();
  const shifts = (await store.getChannelDefaults(s.channelId))?.shifts;
  const ctx: ReadContext = {
    store,
    ...(s.teamId ? { teamId: s.teamId } : {}),
    text: clean,
    words,
    person,
    now: s.now(),
    ...(shifts ? { shifts } : {}),
  };
  const readings = (await Promise.all(said.map((x) => readAs(ctx, x)))).flat().slice(0, MAX_READINGS);
  if (readings.length === 1) return { kind: 'read', reading: readings[0]!, masked, others };
  const why =
    said.length > 1
      ? `“${said[0]!.phrase}” may ask for ${said.map((x) => `\`${[...x.spec.words, ...(x.word ? [x.word] : [])].join(' ')}\``).join(' or ')}`
      : 'its time range reads more than one way';
  return { kind: 'readings', readings, why, masked, others };
}

interface ReadContext {
  store: Store;
  teamId?: string;
  text: string;
  words: readonly Word[];
  person: Person;
  now: Date;
  shifts?: { start: string; name?: string }[];
}

/** What was read for one argument: the values as typed, and as a form takes them. */
interface Value {
  typed: string[];
  exact: (string | undefined)[];
}

/** The words that name an argument in a sentence: its key, what it is called, its kind of resource. */
function hintsOf(arg: Argument): Set<string> {
  const names = [arg.key, arg.noun, arg.lookup?.names?.one, arg.lookup?.names?.many];
  return new Set(names.flatMap((n) => (n && !n.includes('-') ? [n.toLowerCase().split(' ').at(-1)!] : [])));
}

const isRange = (a: Argument) => a.kind.element(a).input === 'ranges';

/** It takes several, as its kind writes them in a command (`a,b`). */
const isList = (a: Argument) => a.lookup?.list === true || a.kind.toCommand('a, b') === 'a,b';

/** The word next to position `i` (before: -1, after: +1), linking words skipped. */
function neighbour(words: readonly Word[], i: number, step: -1 | 1): Word | undefined {
  for (let j = i + step; j >= 0 && j < words.length; j += step) {
    const w = words[j]!;
    if (!LINKING.has(w.text) && w.text !== 'id') return w;
  }
  return undefined;
}

/** A sentence read as one command (as several, when its time range reads more than one way). */
async function readAs(ctx: ReadContext, said: Said): Promise<Reading[]> {
  const { spec } = said;
  const entry = entryOfCommand(spec.id);
  const args = entry?.args ?? [];
  const used = new Set(said.took);
  const values = new Map<Argument, Value>();
  const unread: string[] = [];
  const give = (arg: Argument, typed: string, exact: string | undefined) => {
    const v = values.get(arg) ?? { typed: [], exact: [] };
    v.typed.push(typed);
    v.exact.push(exact);
    values.set(arg, v);
  };
  const open = (a: Argument) => !values.has(a) || a.lookup?.list === true;
  // The word before a value names it (`signal 1050…`), else the word after it (`the temperature signal`).
  const hinted = (first: number, last: number, from: readonly Argument[]) => {
    for (const w of [neighbour(ctx.words, first, -1), neighbour(ctx.words, last, 1)]) {
      const arg = w && from.find((a) => hintsOf(a).has(w.text));
      if (arg) return arg;
    }
    return undefined;
  };

  // Names the team's catalog knows, of the kinds this command's arguments take, longest first.
  for (const found of await namesIn(ctx, args, used)) {
    const fits = args.filter((a) => a.lookup?.names?.name === found.kind.name && open(a));
    const arg = hinted(found.first, found.last, fits) ?? fits.find((a) => a.required) ?? fits[0];
    if (!arg) continue;
    for (let i = found.first; i <= found.last; i++) used.add(i);
    const entry = found.entries.length === 1 ? found.entries[0]! : undefined;
    const labelled = arg.lookup?.labels?.fromName && entry ? `${entry.id}:${entry.name}` : entry?.id;
    give(arg, found.text, labelled);
  }

  // IDs: the argument the word next to one names, else the one the catalog knows it for, else the positional.
  const withIds = args.filter((a) => a.lookup);
  for (const [i, w] of ctx.words.entries()) {
    if (used.has(i) || !withIds.some((a) => idsOf(a.lookup).is(w.text))) continue;
    const fits = withIds.filter((a) => idsOf(a.lookup).is(w.text) && open(a));
    const known = ctx.teamId
      ? await Promise.all(
          fits.map(async (a) =>
            a.lookup?.names && ctx.teamId
              ? (await ctx.store.getCatalogEntry(ctx.teamId, a.lookup.names.name, w.text)) !== null
              : false,
          ),
        )
      : [];
    const byCatalog = fits.filter((_, k) => known[k]);
    const arg =
      hinted(i, i, fits) ??
      (byCatalog.length === 1 ? byCatalog[0] : undefined) ??
      fits.find((a) => a.positional) ??
      (fits.length === 1 ? fits[0] : undefined);
    used.add(i);
    if (!arg) {
      unread.push(`I could not tell what \`${w.text}\` is: write what it is before it (“model ${w.text}”).`);
      continue;
    }
    give(arg, w.text, w.text);
  }

  // Ranges, read by the time reader in the person's zone and language, where the command takes one.
  const rangeArg = args.find(isRange);
  let rangeReadings: string[] | undefined;
  if (rangeArg) {
    const rest = blankOut(ctx.text, ctx.words, used);
    const found = findTimeRanges(rest, {
      now: ctx.now,
      timeZone: ctx.person.timeZone,
      ...(ctx.person.locale ? { locale: ctx.person.locale } : {}),
      ...(ctx.shifts ? { shifts: ctx.shifts } : {}),
    });
    for (const f of found) {
      ctx.words.forEach((w, i) => {
        if (w.from >= f.from && w.to <= f.to) used.add(i);
      });
      if (f.reading.kind === 'ambiguous' && !rangeReadings) rangeReadings = f.reading.readings;
      else give(rangeArg, f.text, f.text);
    }
  }

  // Free text after the words an argument declares (`because …`, `called …`).
  for (const arg of args.filter((a) => a.said && !values.has(a))) {
    const at = ctx.words.findIndex((w, i) => !used.has(i) && arg.said!.includes(w.text));
    if (at < 0) continue;
    used.add(at);
    const value = textAfter(ctx, at, used);
    const v = value && isList(arg) ? value.split(/\s*,\s*|\s+and\s+/).join(',') : value;
    if (v) give(arg, v, v);
  }

  unread.push(...(await unplacedWords(ctx, args, values, used)));
  const build = (range?: string) => {
    const all = new Map(values);
    if (range && rangeArg) {
      const v = all.get(rangeArg) ?? { typed: [], exact: [] };
      all.set(rangeArg, { typed: [...v.typed, range], exact: [...v.exact, range] });
    }
    return readingOf(spec, said.word, entry, all, unread);
  };
  return rangeReadings ? rangeReadings.map((r) => build(r)) : [build()];
}

/** A name found in a sentence: its kind, the entries of that name, and the words it spans. */
interface FoundName {
  kind: ResourceKind;
  text: string;
  entries: CatalogEntry[];
  first: number;
  last: number;
}

/**
 * The names the team's catalog knows that the sentence holds, of the kinds the command's arguments take:
 * looked up by each word that may start one (the same catalog the kinds' name lookup reads), kept where
 * the whole name stands in the sentence, the longest first, none overlapping another or the command's words.
 */
async function namesIn(ctx: ReadContext, args: readonly Argument[], used: Set<number>): Promise<FoundName[]> {
  const teamId = ctx.teamId;
  if (!teamId) return [];
  const kinds = [
    ...new Map(
      args.flatMap((a) => (a.lookup?.names ? [[a.lookup.names.name, a.lookup.names]] : [])),
    ).values(),
  ];
  const probes = [
    ...new Set(
      ctx.words
        .filter((w, i) => !used.has(i) && !FILLER.has(w.text) && w.text.length >= 2)
        .map((w) => w.text),
    ),
  ];
  const sentence = ctx.words.map((w) => w.text);
  const found: FoundName[] = [];
  for (const kind of kinds) {
    const byName = new Map<string, CatalogEntry[]>();
    for (const probe of probes) {
      for (const e of await ctx.store.searchCatalog({ teamId, kind: kind.name, text: probe, limit: 50 })) {
        if (!e.name || e.missingAt) continue;
        const key = catalogKey(e.name);
        const list = byName.get(key) ?? [];
        if (!list.some((x) => x.id === e.id)) list.push(e);
        byName.set(key, list);
      }
    }
    for (const [key, entries] of byName) {
      const own = wordsOf(key).map((w) => w.text);
      if (own.length === 0) continue;
      for (let i = 0; i + own.length <= sentence.length; i++) {
        if (own.every((w, k) => sentence[i + k] === w))
          found.push({ kind, text: entries[0]!.name!, entries, first: i, last: i + own.length - 1 });
      }
    }
  }
  found.sort((a, b) => b.last - b.first - (a.last - a.first) || a.first - b.first);
  const taken = new Set(used);
  const kept: FoundName[] = [];
  for (const f of found) {
    const span = Array.from({ length: f.last - f.first + 1 }, (_, k) => f.first + k);
    if (span.some((i) => taken.has(i))) {
      // The same words named by another kind too: both kept, the arguments decide.
      if (!kept.some((k) => k.first === f.first && k.last === f.last && k.kind !== f.kind)) continue;
    }
    for (const i of span) taken.add(i);
    kept.push(f);
  }
  return kept.sort((a, b) => a.first - b.first);
}

/** The quoted text after word `at`, or the words after it up to the next one read otherwise. */
function textAfter(ctx: ReadContext, at: number, used: Set<number>): string | undefined {
  const after = ctx.text.slice(ctx.words[at]!.to);
  const quoted = /^\s*[:=]?\s*["“'‘]([^"”'’]+)["”'’]/.exec(after);
  if (quoted) {
    const end = ctx.words[at]!.to + quoted[0].length;
    ctx.words.forEach((w, i) => {
      if (w.from > ctx.words[at]!.from && w.to <= end) used.add(i);
    });
    return quoted[1]!.trim();
  }
  const taken: Word[] = [];
  for (let i = at + 1; i < ctx.words.length && !used.has(i); i++) taken.push(ctx.words[i]!);
  if (taken.length === 0) return undefined;
  for (let i = at + 1; i <= at + taken.length; i++) used.add(i);
  return ctx.text.slice(taken[0]!.from, taken.at(-1)!.to);
}

/** The text with the words already read blanked out (the same length, so positions still hold). */
function blankOut(text: string, words: readonly Word[], used: Set<number>): string {
  let out = text;
  for (const i of used) {
    const w = words[i]!;
    out = out.slice(0, w.from) + ' '.repeat(w.to - w.from) + out.slice(w.to);
  }
  return out;
}

/**
 * What is left of the sentence, said plainly: each run of words not read (filler aside), and, where the
 * command still lacks a resource, the closest names the bot knows of its kind (the kinds' own lookup).
 */
async function unplacedWords(
  ctx: ReadContext,
  args: readonly Argument[],
  values: Map<Argument, Value>,
  used: Set<number>,
): Promise<string[]> {
  const runs: Word[][] = [];
  let run: Word[] = [];
  ctx.words.forEach((w, i) => {
    if (used.has(i)) {
      if (run.length) runs.push(run);
      run = [];
    } else run.push(w);
  });
  if (run.length) runs.push(run);
  const said: string[] = [];
  // The words that say what a value is (`model`, `signals`) are read with it.
  const hints = new Set(args.flatMap((a) => [...hintsOf(a)]));
  const skip = (w: Word) => FILLER.has(w.text) || hints.has(w.text);
  const lacking = args.filter((a) => a.lookup?.names && !values.has(a));
  for (const r of runs) {
    let from = 0;
    let to = r.length;
    while (from < to && skip(r[from]!)) from++;
    while (to > from && skip(r[to - 1]!)) to--;
    if (from === to) continue;
    const text = ctx.text.slice(r[from]!.from, r[to - 1]!.to);
    let closest: string | undefined;
    for (const a of lacking) {
      if (!ctx.teamId || closest) break;
      const named = await resolveName(ctx.store, { teamId: ctx.teamId, kind: a.lookup!.names!, text });
      if (!named.ok && named.reason === 'unknown' && named.candidates.length > 0) closest = named.message;
    }
    said.push(closest ?? `I did not use “${text}”.`);
  }
  return said;
}

/** A value as the command takes it: quoted when it holds spaces, quotes, `=` or (not a list) commas. */
function typedValue(value: string, list: boolean): string {
  const plain = list ? /^[^\s"'=]+$/ : /^[^\s"'=,]+$/;
  return plain.test(value) ? value : `"${value.replace(/"/g, "'")}"`;
}

/** The command line of what was read, and its form filled in. */
function readingOf(
  spec: CommandSpec,
  word: string | undefined,
  entry: AnyEntry | undefined,
  values: Map<Argument, Value>,
  unread: string[],
): Reading {
  const parts = [...spec.words, ...(word ? [word] : [])];
  // A command of one argument takes it by position (`flow <id>`), as its usage line shows.
  const byPosition = (a: Argument) => a.positional === true || entry?.args.length === 1;
  const rank = (a: Argument) => (byPosition(a) ? -1 : (entry?.args.indexOf(a) ?? 0));
  const ordered = [...values.entries()].sort(([a], [b]) => rank(a) - rank(b));
  const given: Record<string, string> = {};
  for (const [arg, v] of ordered) {
    const joiner = isRange(arg) ? '; ' : ',';
    const typed = typedValue(v.typed.join(joiner), isList(arg));
    parts.push(
      byPosition(arg) && v.typed.length === 1
        ? typed
        : `${arg.key}=${isRange(arg) ? `"${v.typed.join(joiner)}"` : typed}`,
    );
    if (v.exact.every((x) => x !== undefined)) given[arg.key] = v.exact.join(joiner);
  }
  const form = entry?.form && isFormId(entry.form.id) ? { id: entry.form.id, given } : undefined;
  return { spec, command: parts.join(' '), ...(form ? { form } : {}), unread };
}
