import { article, idsOf, type Lookup, typedName } from '../catalog/kind.js';
import { EXAMPLE_IDS } from '../ids.js';
import { entryPlaceholder, idPlaceholder, labelPlaceholder } from './placeholders.js';
import type { CommandSpec } from './spec.js';
import type { NamedList, NameRef, ParsedCommand, ParseOutcome, SignalRef } from './types.js';

/**
 * What a command's parser reads its arguments with: the options by canonical key, the positionals, and
 * the checks every command shares (IDs, names where IDs go, lists, texts). Each command's own parser
 * (`PARSERS` for the bot's commands, the registry entries for the service's) is built from these.
 */

/**
 * Thrown inside the per-command parsers; turned into a `ParseOutcome` error at the top. `key`: the
 * argument it is about, when it is about one (a form shows it under that argument's field).
 */
export class Bad extends Error {
  constructor(
    message: string,
    readonly key?: string,
  ) {
    super(message);
  }
}

export const MAX_TEXT = 200;

export interface Args {
  positionals: string[];
  /** Whether each positional was written in quotes, in step with `positionals`. */
  quotedPositionals: boolean[];
  options: Record<string, string>;
  /** Option keys whose value was written in quotes. */
  quotedOptions: Set<string>;
  names?: ResolvedNames;
  /**
   * Given by key, as a form or a workflow step gives them: nothing stands for a name (the form's fields
   * pick IDs), so a value that is no ID is refused.
   */
  keyed?: true;
  /** Names given where IDs go that `names` does not resolve (yet); each stands as a placeholder. */
  found: NameRef[];
  /** The lists that name some, placeholders included: checked again once they are filled. */
  lists: NamedList[];
  /**
   * The resource IDs the command gives (typed, defaulted or resolved), by kind of resource: they single
   * out one of several resources of the same name.
   */
  ids: Record<string, string>;
}

/**
 * What the grammar reads of an argument's declaration (the registry's `Argument` is one): its key, what a
 * person calls it, how its values are looked up, its kind (which reads a value), and its bounds.
 */
export interface ArgumentRef<V = unknown> {
  key: string;
  noun?: string;
  lookup?: Lookup;
  positional?: boolean;
  required?: boolean;
  /** It is one side of an either/or choice, which its operation reads as a whole. */
  side?: object;
  maxLength?: number;
  example?: string;
  kind: { parse(text: string, arg: never, given: Given): V };
}

/** Where a value was given: the command's arguments (for names that stand for IDs), by key or position. */
export interface Given {
  args: Args;
  /** By key (`key=value`): a value read otherwise (a name's ID) is written back for a form to reopen with. */
  option: boolean;
  quoted: boolean;
}

/** What a person calls an argument: its noun, else its key in words. */
export const nounOf = (arg: { key: string; noun?: string }) => arg.noun ?? arg.key.replace(/-/g, ' ');

/** What the names of a command stand for, by `nameKey(key, text)`: the ID, and the resource's name. */
export type ResolvedNames = ReadonlyMap<string, { id: string; name?: string }>;

export function nameKey(key: string, text: string): string {
  return `${key}\u0000${text}`;
}

/** The next positional argument, and whether it was quoted. */
export function takePositional(args: Args): { value: string; quoted: boolean } | undefined {
  const value = args.positionals.shift();
  const quoted = args.quotedPositionals.shift() ?? false;
  return value === undefined ? undefined : { value, quoted };
}

export function tooMany(args: Args, allowed: number, spec: CommandSpec): void {
  if (args.positionals.length > allowed) {
    const extra = args.positionals.slice(allowed).map((p) => `\`${p}\``);
    throw new Bad(`Unexpected ${extra.join(' ')} for \`${spec.id}\` (quote values that contain spaces).`);
  }
}

/**
 * An argument's value, read by its kind: from its key, or from the first positional when it takes one
 * (`positional`, else its declaration's), not both. Undefined when it is not given.
 */
export function argValue<V>(
  args: Args,
  arg: ArgumentRef<V>,
  positional = arg.positional === true,
): V | undefined {
  const fromKey = args.options[arg.key];
  const fromPos = positional ? takePositional(args) : undefined;
  if (fromKey !== undefined && fromPos !== undefined) {
    throw new Bad(
      `The ${nounOf(arg)} is given twice (\`${fromPos.value}\` and \`${arg.key}=${fromKey}\`); give it once.`,
      arg.key,
    );
  }
  const parse = arg.kind.parse as (text: string, arg: ArgumentRef<V>, given: Given) => V;
  if (fromKey !== undefined)
    return parse(fromKey, arg, { args, option: true, quoted: args.quotedOptions.has(arg.key) });
  return fromPos ? parse(fromPos.value, arg, { args, option: false, quoted: fromPos.quoted }) : undefined;
}

/**
 * Every argument of an operation but the sides of its choices, each read by its kind: the positional one
 * first, then nothing more positional, then the rest by key. `missing`: the required ones not given.
 */
export function readArgs(
  args: Args,
  spec: CommandSpec,
  declared: readonly ArgumentRef[],
): { values: Record<string, unknown>; missing: string[] } {
  const values: Record<string, unknown> = {};
  const plain = declared.filter((a) => !a.side);
  const read = (arg: ArgumentRef) => {
    const value = argValue(args, arg);
    if (value !== undefined) values[arg.key] = value;
  };
  plain.filter((a) => a.positional).forEach(read);
  tooMany(args, 0, spec);
  plain.filter((a) => !a.positional).forEach(read);
  const missing = plain.filter((a) => a.required && values[a.key] === undefined).map((a) => a.key);
  return { values, missing };
}

/** Takes an ID (or a name) from the first positional or from its key, not both. */
export function idFrom(
  args: Args,
  arg: ArgumentRef,
  positional = arg.positional === true,
): string | undefined {
  return argValue(
    args,
    { ...arg, kind: { parse: (text, _a, given) => idGiven(text, arg, given) } },
    positional,
  );
}

/** An ID as a kind of argument reads it (core/kinds/arguments/id.ts): by key, written back once resolved. */
export function idGiven(text: string, arg: ArgumentRef, given: Given): string {
  if (!given.option) return resourceId(given.args, arg, text);
  return optionId(given.args, arg);
}

/** The one ID a lookup takes (`flow <id>`, `workspace show <id>`), by position or by key, and nothing else. */
export function soleIdFrom(args: Args, spec: CommandSpec, arg: ArgumentRef, missing: string): string {
  const id = idFrom(args, arg, true);
  tooMany(args, 0, spec);
  if (!id) throw new Bad(missing, arg.key);
  return id;
}

/** The ID an option gives; a resolved name is written back, so that what a form is prefilled with is the ID. */
export function optionId(args: Args, arg: ArgumentRef): string {
  const id = resourceId(args, arg, args.options[arg.key]!);
  if (id !== args.options[arg.key]) args.options[arg.key] = id;
  return id;
}

/**
 * An ID, or the ID a name stands for, as the argument's lookup says. A value that cannot be an ID, where
 * a name may stand, is a name: one `names` does not resolve is noted and stands in for its ID until the
 * surface has resolved it. Any other value must be an ID.
 */
export function resourceId(args: Args, arg: ArgumentRef, value: string): string {
  const text = value.trim();
  const lookup = arg.lookup ?? {};
  const ids = idsOf(lookup);
  const kind = lookup.names;
  if (ids.is(text)) {
    if (kind) args.ids[kind.name] = text;
    return text;
  }
  if (!kind || args.keyed || ids.meant(text) || text === '')
    throw new Bad(notAnId(text, arg, !!kind && !args.keyed), arg.key);
  const hit = args.names?.get(nameKey(arg.key, text));
  if (!hit) return idPlaceholder(args.found.push({ key: arg.key, text, kind }) - 1);
  args.ids[kind.name] = hit.id;
  return hit.id;
}

/** Why a value is no ID: what IDs look like, and (where a name may stand) that a name will do. */
function notAnId(value: string, arg: ArgumentRef, nameWouldDo: boolean): string {
  const ids = idsOf(arg.lookup);
  const kind = arg.lookup?.names;
  const byName =
    kind && nameWouldDo
      ? ` ${capital(article(kind.one))} ${kind.one} may also be given by its name, e.g. \`${arg.key}=${typedName(kind.example)}\`.`
      : '';
  return `\`${value}\` is not a valid ${nounOf(arg)} ID: IDs are ${ids.described}, e.g. \`${ids.example}\`.${byName}`;
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * A list of IDs (`signals=`, `outputs=`), as its argument's lookup says: each item an ID, with a label
 * after a colon where the lookup takes labels (the ID when none is given), or, where a name may stand,
 * the name of one (a signal takes its catalog name as label; an output keeps the default, its label being
 * the model's output name). Names are written back as placeholders for a form to reopen with.
 */
export function listGiven(text: string, arg: ArgumentRef, given: Given): SignalRef[] {
  const { args, option } = given;
  const lookup = arg.lookup ?? {};
  const kind = lookup.names;
  const ids = idsOf(lookup);
  const noun = nounOf(arg);
  const placeholders = new Map<SignalRef, string>();
  let named = 0;
  const items = text.split(',').map((s) => s.trim());
  if (items.some((s) => s === '')) {
    throw new Bad(
      `\`${arg.key}=\` has an empty entry; separate entries with single commas, e.g. \`${exampleList(arg)}\`.`,
      arg.key,
    );
  }
  const refs = items.map((item): SignalRef => {
    const colon = lookup.labels ? item.indexOf(':') : -1;
    const id = (colon < 0 ? item : item.slice(0, colon)).trim();
    if (ids.is(id)) {
      const label = (colon < 0 ? id : item.slice(colon + 1)).trim();
      if (label === '')
        throw new Bad(`\`${item}\` in \`${arg.key}=\` has an empty label after \`:\`.`, arg.key);
      return { signal: id, name: label };
    }
    if (!kind || args.keyed || ids.meant(id)) {
      const shape = lookup.labels ? `\`id[:${lookup.labels.noun}]\` entries with` : 'entries of';
      const byName = kind && !args.keyed ? `, or ${kind.many} by name` : '';
      throw new Bad(
        `\`${id}\` in \`${arg.key}=\` is not a valid ${noun} ID: write ${shape} IDs (${ids.described})${byName}, e.g. \`${exampleList(arg)}\`.`,
        arg.key,
      );
    }
    const fromName = lookup.labels?.fromName === true;
    named++;
    const hit = args.names?.get(nameKey(arg.key, item));
    if (hit) return { signal: hit.id, name: fromName && hit.name ? hit.name : hit.id };
    const index =
      args.found.push({ key: arg.key, text: item, kind, ...(fromName ? { labelled: true as const } : {}) }) -
      1;
    const ref = {
      signal: idPlaceholder(index),
      name: fromName ? labelPlaceholder(index) : idPlaceholder(index),
    };
    placeholders.set(ref, entryPlaceholder(index));
    return ref;
  });
  const seen = new Set<string>();
  for (const r of refs) {
    if (seen.has(r.signal)) throw new Bad(repeated(noun, r.signal, arg.key), arg.key);
    seen.add(r.signal);
  }
  if (named > 0) {
    // What a form reopens with: each entry as an ID (and label), names as what they stand for.
    if (option)
      args.options[arg.key] = refs
        .map((r) => placeholders.get(r) ?? (r.name === r.signal ? r.signal : `${r.signal}:${r.name}`))
        .join(',');
    args.lists.push({ key: arg.key, noun, signals: refs.map((r) => r.signal) });
  }
  return refs;
}

/** The message of an item a list gives twice. */
export function repeated(noun: string, id: string, key: string): string {
  return `${capital(noun)} \`${id}\` appears twice in \`${key}=\`.`;
}

function exampleList(arg: ArgumentRef): string {
  const ids = idsOf(arg.lookup);
  return arg.lookup?.labels
    ? `${ids.example}:temperature,${EXAMPLE_IDS.signal2}`
    : `${ids.example},${EXAMPLE_IDS.signal2}`;
}

/** A free text, at most `max` characters. */
export function text(args: Args, key: string, max = MAX_TEXT): string | undefined {
  const v = args.options[key];
  if (v !== undefined && [...v].length > max)
    throw new Bad(`\`${key}=\` is too long (at most ${max} characters).`, key);
  return v;
}

/** Plain names, comma-separated, each once (an EVAL's entities): no catalog stands behind them. */
export function nameList(value: string, key: string, example: string): string[] {
  const items = value.split(',').map((s) => s.trim());
  if (items.some((s) => s === ''))
    throw new Bad(
      `\`${key}=\` has an empty entry; separate the names with single commas, e.g. \`${example}\`.`,
      key,
    );
  return [...new Set(items)];
}

export function missingOutcome(
  command: string,
  spec: CommandSpec,
  missing: string[],
  args: Args,
  positionalKey: string,
  positional: string | undefined,
): ParseOutcome {
  const given: Record<string, string> = { ...args.options };
  if (positional !== undefined) given[positionalKey] = positional;
  const list = missing.map((k) =>
    [k, ...(spec.alternatives?.[k] ?? [])].map((key) => `\`${key}=\``).join(' or '),
  );
  return {
    ok: false,
    kind: 'missing',
    command,
    spec,
    missing,
    given,
    fromDefaults: [],
    message: `\`${spec.id}\` needs ${list.join(', ')}.`,
  };
}

export type Parser = (args: Args, spec: CommandSpec) => ParseOutcome;

export const ok = (command: ParsedCommand, spec: CommandSpec): ParseOutcome => ({
  ok: true,
  command,
  spec,
  fromDefaults: [],
});
