import { EXAMPLE_IDS, isServiceId } from '../ids.js';
import { entryPlaceholder, idPlaceholder, labelPlaceholder } from './placeholders.js';
import type { CommandSpec } from './spec.js';
import type { DataArg, NameRef, OutputArg, ParsedCommand, ParseOutcome, SignalRef } from './types.js';

/**
 * What a command's parser reads its arguments with: the options by canonical key, the positionals, and
 * the checks every command shares (IDs, quoted names, lists, data and outputs). Each command's own parser
 * (`PARSERS` for the bot's commands, the registry entries for the service's) is built from these.
 */

/** Thrown inside the per-command parsers; turned into a `ParseOutcome` error at the top. */
export class Bad extends Error {}

export const MAX_TEXT = 200;

export interface Args {
  positionals: string[];
  /** Whether each positional was written in quotes, in step with `positionals`. */
  quotedPositionals: boolean[];
  options: Record<string, string>;
  /** Option keys whose value was written in quotes. */
  quotedOptions: Set<string>;
  names?: ResolvedNames;
  /** Names given where IDs go that `names` does not resolve (yet); each stands as a placeholder. */
  found: NameRef[];
  /** The signals of each list that names some, placeholders included: checked again once they are filled. */
  lists: { key: string; signals: string[] }[];
  /** The resource IDs the command gives (typed, defaulted or resolved), by key. */
  ids: Record<string, string>;
}

/**
 * Keys whose values are the service's resources. Where one of them takes an ID, a command may give the
 * resource's name in quotes instead: `workspace="Pump station A"`, `/tsai relearn "Baseline" …`, and in a
 * quoted list every item that does not start with an ID, `signals="Bearing temp,1050…:pressure"`.
 */
export const NAMEABLE_KEYS: readonly string[] = [
  'workspace',
  'model',
  'assessment',
  'datastream',
  'dataspec',
  'signals',
  'outputs',
];

/** What the names of a command stand for, by `nameKey(key, text)`: the ID, and a signal's name. */
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

/** Takes an ID (or a quoted name) from the first positional or from its key, not both. */
export function idFrom(args: Args, key: string, what: string, positional: boolean): string | undefined {
  const fromKey = args.options[key];
  const fromPos = positional ? takePositional(args) : undefined;
  if (fromKey !== undefined && fromPos !== undefined) {
    throw new Bad(
      `The ${what} ID is given twice (\`${fromPos.value}\` and \`${key}=${fromKey}\`); give it once.`,
    );
  }
  if (fromKey !== undefined) return optionId(args, key, what);
  return fromPos ? resourceId(args, key, what, fromPos.value, fromPos.quoted) : undefined;
}

/** The one ID a lookup takes (`flow <id>`, `workspace show <id>`), by position or by key, and nothing else. */
export function soleIdFrom(args: Args, spec: CommandSpec, key: string, missing: string): string {
  const id = idFrom(args, key, key, true);
  tooMany(args, 0, spec);
  if (!id) throw new Bad(missing);
  return id;
}

/** The ID an option gives; a resolved name is written back, so that what a form is prefilled with is the ID. */
export function optionId(args: Args, key: string, what: string): string {
  const id = resourceId(args, key, what, args.options[key]!, args.quotedOptions.has(key));
  if (id !== args.options[key]) args.options[key] = id;
  return id;
}

/**
 * An ID, or the ID of a name given in quotes. A name `names` does not resolve is noted and stands in
 * for its ID until the surface has resolved it; every other value must be an ID.
 */
function resourceId(args: Args, key: string, what: string, value: string, quoted: boolean): string {
  const text = value.trim();
  if (quoted && NAMEABLE_KEYS.includes(key) && !/^\d+$/.test(text)) {
    const hit = args.names?.get(nameKey(key, text));
    if (!hit) return idPlaceholder(args.found.push({ key, text }) - 1);
    args.ids[key] = hit.id;
    return hit.id;
  }
  checkId(value, what, NAMEABLE_KEYS.includes(key) ? key : undefined);
  args.ids[key] = value;
  return value;
}

/** An example name per key, for the hint that a resource may be given by its name. */
const EXAMPLE_NAMES: Record<string, string> = {
  workspace: 'Pump station A',
  model: 'Pump station A/anomaly/M[1]',
  assessment: 'Temperature anomaly',
  datastream: 'Plant sensors',
  dataspec: 'Baseline October',
};

function checkId(value: string, what: string, nameable?: string): void {
  if (!isServiceId(value)) {
    const example = nameable ? EXAMPLE_NAMES[nameable] : undefined;
    const byName = example
      ? ` ${/^[aeiou]/.test(nameable!) ? 'An' : 'A'} ${nameable} may also be given by its name in quotes, e.g. \`${nameable}="${example}"\`.`
      : '';
    throw new Bad(
      `\`${value}\` is not a valid ${what} ID: IDs are numbers of 18–19 digits, e.g. \`${EXAMPLE_IDS.workspace}\`.${byName}`,
    );
  }
}

/** A free text, at most `max` characters. */
export function text(args: Args, key: string, max = MAX_TEXT): string | undefined {
  const v = args.options[key];
  if (v !== undefined && [...v].length > max)
    throw new Bad(`\`${key}=\` is too long (at most ${max} characters).`);
  return v;
}

/** `id[:label],…`; the label defaults to the ID. */
export function parseSignalList(value: string, key: string, what = 'signal'): SignalRef[] {
  return signalList(value, key, what);
}

/**
 * A list option (`signals=`, `outputs=`) as the command gives it: in a quoted list, an item that does not
 * start with an ID is a name (a signal takes its catalog name as label; an output keeps the default, its
 * label being the model's output name). Resolved names are written back.
 */
export function listOption(args: Args, key: string, what: string): SignalRef[] {
  const placeholders = new Map<SignalRef, string>();
  let named = 0;
  const refs = signalList(args.options[key]!, key, what, (item) => {
    if (!args.quotedOptions.has(key) || ID_ITEM.test(item)) return undefined;
    named++;
    const hit = args.names?.get(nameKey(key, item));
    if (hit) return { signal: hit.id, name: key === 'signals' && hit.name ? hit.name : hit.id };
    const index = args.found.push({ key, text: item }) - 1;
    const signal = idPlaceholder(index);
    const ref = { signal, name: key === 'signals' ? labelPlaceholder(index) : signal };
    placeholders.set(ref, entryPlaceholder(index));
    return ref;
  });
  if (named > 0) {
    // What a form reopens with: each entry as an ID (and label), names as what they stand for.
    args.options[key] = refs
      .map((r) => placeholders.get(r) ?? (r.name === r.signal ? r.signal : `${r.signal}:${r.name}`))
      .join(',');
    args.lists.push({ key, signals: refs.map((r) => r.signal) });
  }
  return refs;
}

const ID_ITEM = /^\d{18,19}(:|$)/;

function signalList(
  value: string,
  key: string,
  what: string,
  byName?: (item: string) => SignalRef | undefined,
): SignalRef[] {
  const items = value.split(',').map((s) => s.trim());
  if (items.some((s) => s === '')) {
    throw new Bad(
      `\`${key}=\` has an empty entry; separate entries with single commas, e.g. \`${exampleSignals()}\`.`,
    );
  }
  const seen = new Set<string>();
  return items.map((item) => {
    const named = byName?.(item);
    if (named) {
      if (seen.has(named.signal)) throw new Bad(`Signal \`${named.signal}\` appears twice in \`${key}=\`.`);
      seen.add(named.signal);
      return named;
    }
    const colon = item.indexOf(':');
    const signal = (colon < 0 ? item : item.slice(0, colon)).trim();
    const name = (colon < 0 ? signal : item.slice(colon + 1)).trim();
    if (!isServiceId(signal)) {
      throw new Bad(
        `\`${signal}\` in \`${key}=\` is not a valid ${what} ID: write \`id[:label]\` entries with 18–19 digit IDs, e.g. \`${exampleSignals()}\`.`,
      );
    }
    if (name === '') throw new Bad(`\`${item}\` in \`${key}=\` has an empty label after \`:\`.`);
    if (seen.has(signal)) throw new Bad(`Signal \`${signal}\` appears twice in \`${key}=\`.`);
    seen.add(signal);
    return { signal, name };
  });
}

function exampleSignals(): string {
  return `${EXAMPLE_IDS.signal}:temperature,${EXAMPLE_IDS.signal2}`;
}

export function parseEntities(value: string): string[] {
  const items = value.split(',').map((s) => s.trim());
  if (items.some((s) => s === '')) {
    throw new Bad(
      '`entities=` has an empty entry; separate entity names with single commas, e.g. `pump-1,pump-2`.',
    );
  }
  return [...new Set(items)];
}

/** Reads the data part of learn/relearn/score; returns undefined pieces as missing. */
export function dataFrom(args: Args, missing: string[]): DataArg | undefined {
  const { signals, range, dataspec } = args.options;
  const dataspecName = text(args, 'dataspec-name');
  if (dataspec !== undefined) {
    if (signals !== undefined || range !== undefined) {
      throw new Bad('Give either `signals=` with `range=`, or `dataspec=`, not both.');
    }
    if (dataspecName !== undefined) {
      throw new Bad(
        '`dataspec-name=` names a new dataspec made of `signals=` and `range=`; `dataspec=` reuses one.',
      );
    }
    return { kind: 'dataspec', dataspecId: optionId(args, 'dataspec', 'dataspec') };
  }
  const list = signals !== undefined ? listOption(args, 'signals', 'signal') : undefined;
  if (list === undefined) missing.push('signals');
  if (range === undefined) missing.push('range');
  if (!list || range === undefined) return undefined;
  return { kind: 'inline', signals: list, rangeText: range, ...(dataspecName ? { dataspecName } : {}) };
}

/** Where ANOMALYEVAL's outputs go: new signals under a prefix of at most `prefixMax` characters, or existing ones. */
export function outputFrom(args: Args, missing: string[], prefixMax: number): OutputArg | undefined {
  const { prefix, outputs } = args.options;
  if (prefix !== undefined && outputs !== undefined) {
    throw new Bad('Give either `prefix=` (new output signals) or `outputs=` (existing signals), not both.');
  }
  if (prefix !== undefined) {
    if (/\s/.test(prefix) || [...prefix].length > prefixMax) {
      throw new Bad(
        `\`prefix=\` must be one word of at most ${prefixMax} characters, e.g. \`prefix=pump3-scores\`.`,
      );
    }
    return { kind: 'prefix', prefix };
  }
  if (outputs !== undefined)
    return { kind: 'signals', signals: listOption(args, 'outputs', 'output signal') };
  missing.push('prefix');
  return undefined;
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
  const list = missing.map((k) => (k === 'prefix' ? '`prefix=` or `outputs=`' : `\`${k}=\``));
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
