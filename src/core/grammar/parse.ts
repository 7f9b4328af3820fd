import { EXAMPLE_IDS, isServiceId } from '../ids.js';
import { COMMANDS, type CommandSpec, KEY_ALIASES, specById } from './commands.js';
import { type Token, tokenize } from './tokenize.js';
import type {
  DataArg,
  GovernanceCommand,
  ModalCommand,
  NameRef,
  OutputArg,
  ParsedCommand,
  ParseOutcome,
  SignalRef,
} from './types.js';

export type { NameRef };

/** Thrown inside the per-command parsers; turned into a `ParseOutcome` error at the top. */
class Bad extends Error {}

const MAX_TEXT = 200;

interface Args {
  positionals: string[];
  /** Whether each positional was written in quotes, in step with `positionals`. */
  quotedPositionals: boolean[];
  options: Record<string, string>;
  /** Option keys whose value was written in quotes. */
  quotedOptions: Set<string>;
  names?: ResolvedNames;
  /** Names given where IDs go that `names` does not resolve (yet). */
  found: NameRef[];
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

export interface ParseOptions {
  /**
   * Channel defaults by canonical key (entities comma-separated). They fill the keys a command lists in
   * `defaults` when the user did not give them; explicit arguments always win.
   */
  defaults?: Record<string, string | undefined>;
  /**
   * The IDs the names in this command stand for. A name it does not resolve makes the outcome `names`,
   * listing every such name for the surface to resolve (never by guessing) before it parses again.
   */
  names?: ResolvedNames;
}

/** `use`, `approvals`, `audit`: about the bot's own state, handled by the governance part. */
export function isGovernanceCommand(c: ParsedCommand): c is GovernanceCommand {
  return c.kind === 'use' || c.kind === 'approvals' || c.kind === 'audit';
}

export function parseCommand(text: string, options: ParseOptions = {}): ParseOutcome {
  const tokenized = tokenize(text);
  if (!tokenized.ok) return { ok: false, kind: 'error', message: tokenized.error };
  const tokens = tokenized.tokens;
  if (tokens.length === 0)
    return { ok: true, command: { kind: 'help' }, spec: specById('help'), fromDefaults: [] };

  const first = tokens[0]!;
  if (first.kind !== 'positional') {
    return {
      ok: false,
      kind: 'error',
      message: `Start with a command, e.g. \`/tsai help\`. \`${first.raw}\` is an option.`,
    };
  }
  const spec = selectSpec(tokens);
  if ('error' in spec) return { ok: false, kind: 'error', message: spec.error, spec: spec.spec };
  const rest = tokens.slice(spec.spec.words.length);
  try {
    const args = collect(rest, spec.spec, options.names);
    const fromDefaults = applyDefaults(args, spec.spec, options.defaults);
    const out = PARSERS[spec.spec.id]!(args, spec.spec);
    if ((out.ok || out.kind === 'missing') && args.found.length > 0) {
      const listed = args.found.map((n) => `\`${n.key}="${n.text}"\``).join(', ');
      return {
        ok: false,
        kind: 'names',
        spec: spec.spec,
        names: args.found,
        ids: args.ids,
        message: `Names to look up before \`${spec.spec.id}\` can run: ${listed}.`,
      };
    }
    return out.ok || out.kind === 'missing' ? { ...out, fromDefaults } : out;
  } catch (e) {
    if (e instanceof Bad) return { ok: false, kind: 'error', message: e.message, spec: spec.spec };
    throw e;
  }
}

/**
 * The arguments of a command line by canonical key (the positional ID under its key), without checking
 * them: what a form needs to reopen with what was typed. Undefined when the text names no command.
 */
export function commandArguments(
  text: string,
): { spec: CommandSpec; given: Record<string, string> } | undefined {
  const tokenized = tokenize(text.replace(/^\s*\/tsai\b/, ''));
  if (!tokenized.ok || tokenized.tokens[0]?.kind !== 'positional') return undefined;
  const selected = selectSpec(tokenized.tokens);
  if ('error' in selected) return undefined;
  const { spec } = selected;
  try {
    const args = collect(tokenized.tokens.slice(spec.words.length), spec, undefined);
    const given: Record<string, string> = { ...args.options };
    const first = args.positionals[0];
    if (spec.positional && first !== undefined && given[spec.positional] === undefined)
      given[spec.positional] = first;
    return { spec, given };
  } catch (e) {
    if (e instanceof Bad) return undefined;
    throw e;
  }
}

function selectSpec(tokens: Token[]): { spec: CommandSpec } | { error: string; spec?: CommandSpec } {
  const word = (i: number) => {
    const t = tokens[i];
    return t?.kind === 'positional' ? t.value.toLowerCase() : undefined;
  };
  const head = word(0)!;
  const family = COMMANDS.filter((c) => c.words[0] === head);
  if (family.length === 0) {
    return { error: `\`${tokens[0]!.raw}\` is not a command. Commands: ${commandList()}.` };
  }
  if (family.length === 1 && family[0]!.words.length === 1) return { spec: family[0]! };
  const sub = word(1);
  const match = family.find((c) => c.words[1] === sub);
  if (match) return { spec: match };
  const subs = family.map((c) => `\`${c.words[1]}\``).join(' or ');
  const given = tokens[1]
    ? `\`${tokens[1].raw}\` is not a \`${head}\` subcommand`
    : `\`${head}\` needs a subcommand`;
  return { error: `${given}: use ${subs}.`, spec: family[0] };
}

export function commandList(): string {
  return [...new Set(COMMANDS.map((c) => c.words[0]))].map((w) => `\`${w}\``).join(', ');
}

function collect(tokens: Token[], spec: CommandSpec, names: ResolvedNames | undefined): Args {
  const positionals: string[] = [];
  const quotedPositionals: boolean[] = [];
  const options: Record<string, string> = {};
  const quotedOptions = new Set<string>();
  // Free-text options run on over following unquoted words until the next key=value.
  let runOn: string | undefined;
  for (const t of tokens) {
    if (t.kind === 'positional') {
      if (runOn) options[runOn] = `${options[runOn]} ${t.value}`;
      else {
        positionals.push(t.value);
        quotedPositionals.push(t.quoted);
      }
      continue;
    }
    const key = KEY_ALIASES[t.key] ?? t.key;
    if (!spec.keys.includes(key)) {
      const accepted = spec.keys.length
        ? `It takes ${spec.keys.map((k) => `\`${k}=\``).join(', ')}.`
        : 'It takes no options.';
      throw new Bad(`\`${t.rawKey}=\` is not an option of \`${spec.id}\`. ${accepted}`);
    }
    if (key in options) throw new Bad(`\`${key}=\` is given twice; give it once.`);
    options[key] = t.value;
    if (t.quoted) quotedOptions.add(key);
    runOn = spec.freeText?.includes(key) ? key : undefined;
  }
  for (const [k, v] of Object.entries(options)) {
    options[k] = v.trim();
    if (options[k] === '') throw new Bad(`\`${k}=\` has no value.`);
  }
  return {
    positionals,
    quotedPositionals,
    options,
    quotedOptions,
    ...(names ? { names } : {}),
    found: [],
    ids: {},
  };
}

/** The next positional argument, and whether it was quoted. */
function takePositional(args: Args): { value: string; quoted: boolean } | undefined {
  const value = args.positionals.shift();
  const quoted = args.quotedPositionals.shift() ?? false;
  return value === undefined ? undefined : { value, quoted };
}

function applyDefaults(args: Args, spec: CommandSpec, defaults: ParseOptions['defaults']): string[] {
  const filled: string[] = [];
  if (!defaults) return filled;
  for (const key of spec.defaults ?? []) {
    const value = defaults[key]?.trim();
    if (!value || key in args.options) continue;
    if (key === spec.positional && args.positionals.length > 0) continue;
    args.options[key] = value;
    filled.push(key);
  }
  return filled;
}

function tooMany(args: Args, allowed: number, spec: CommandSpec): void {
  if (args.positionals.length > allowed) {
    const extra = args.positionals.slice(allowed).map((p) => `\`${p}\``);
    throw new Bad(`Unexpected ${extra.join(' ')} for \`${spec.id}\` (quote values that contain spaces).`);
  }
}

/** Takes an ID (or a quoted name) from the first positional or from its key, not both. */
function idFrom(args: Args, key: string, what: string, positional: boolean): string | undefined {
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

/** The ID an option gives; a resolved name is written back, so that what a form is prefilled with is the ID. */
function optionId(args: Args, key: string, what: string): string {
  const id = resourceId(args, key, what, args.options[key]!, args.quotedOptions.has(key));
  if (isServiceId(id)) args.options[key] = id;
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
    if (!hit) {
      args.found.push({ key, text });
      return text;
    }
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

function text(args: Args, key: string): string | undefined {
  const v = args.options[key];
  if (v !== undefined && [...v].length > MAX_TEXT)
    throw new Bad(`\`${key}=\` is too long (at most ${MAX_TEXT} characters).`);
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
function listOption(args: Args, key: string, what: string): SignalRef[] {
  const resolved: string[] = [];
  const refs = signalList(args.options[key]!, key, what, (item) => {
    if (!args.quotedOptions.has(key) || ID_ITEM.test(item)) return undefined;
    const hit = args.names?.get(nameKey(key, item));
    if (!hit) {
      args.found.push({ key, text: item });
      return { signal: item, name: item };
    }
    resolved.push(item);
    return { signal: hit.id, name: key === 'signals' && hit.name ? hit.name : hit.id };
  });
  if (resolved.length > 0 && args.found.length === 0)
    args.options[key] = refs.map((r) => (r.name === r.signal ? r.signal : `${r.signal}:${r.name}`)).join(',');
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

function parseEntities(value: string): string[] {
  const items = value.split(',').map((s) => s.trim());
  if (items.some((s) => s === '')) {
    throw new Bad(
      '`entities=` has an empty entry; separate entity names with single commas, e.g. `pump-1,pump-2`.',
    );
  }
  return [...new Set(items)];
}

/** Reads the data part of learn/relearn/score; returns undefined pieces as missing. */
function dataFrom(args: Args, missing: string[]): DataArg | undefined {
  const { signals, range, dataspec } = args.options;
  if (dataspec !== undefined) {
    if (signals !== undefined || range !== undefined) {
      throw new Bad('Give either `signals=` with `range=`, or `dataspec=`, not both.');
    }
    return { kind: 'dataspec', dataspecId: optionId(args, 'dataspec', 'dataspec') };
  }
  const list = signals !== undefined ? listOption(args, 'signals', 'signal') : undefined;
  if (list === undefined) missing.push('signals');
  if (range === undefined) missing.push('range');
  return list && range !== undefined ? { kind: 'inline', signals: list, rangeText: range } : undefined;
}

function outputFrom(args: Args, missing: string[]): OutputArg | undefined {
  const { prefix, outputs } = args.options;
  if (prefix !== undefined && outputs !== undefined) {
    throw new Bad('Give either `prefix=` (new output signals) or `outputs=` (existing signals), not both.');
  }
  if (prefix !== undefined) {
    if (/\s/.test(prefix) || [...prefix].length > 100) {
      throw new Bad('`prefix=` must be one word of at most 100 characters, e.g. `prefix=pump3-scores`.');
    }
    return { kind: 'prefix', prefix };
  }
  if (outputs !== undefined)
    return { kind: 'signals', signals: listOption(args, 'outputs', 'output signal') };
  missing.push('prefix');
  return undefined;
}

function missingOutcome(
  command: ModalCommand,
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

type Parser = (args: Args, spec: CommandSpec) => ParseOutcome;

const ok = (command: ParsedCommand, spec: CommandSpec): ParseOutcome => ({
  ok: true,
  command,
  spec,
  fromDefaults: [],
});

const PARSERS: Record<string, Parser> = {
  help: (args, spec) => {
    const topic = args.positionals.join(' ').toLowerCase().trim();
    if (topic && !COMMANDS.some((c) => c.id === topic || c.words[0] === topic)) {
      throw new Bad(`There is no command \`${topic}\`. Commands: ${commandList()}.`);
    }
    return ok({ kind: 'help', topic: topic || undefined }, spec);
  },

  'workspace create': (args, spec) => {
    const positional = args.positionals.join(' ').trim();
    if (positional && args.options.name !== undefined)
      throw new Bad('The workspace name is given twice; give it once.');
    const name = positional || text(args, 'name');
    if (!name) throw new Bad('`workspace create` needs a name.');
    if ([...name].length > MAX_TEXT) throw new Bad(`The name is too long (at most ${MAX_TEXT} characters).`);
    return ok({ kind: 'workspace-create', name, description: text(args, 'description') }, spec);
  },

  'workspace show': (args, spec) => {
    const workspaceId = idFrom(args, 'workspace', 'workspace', true);
    tooMany(args, 0, spec);
    if (!workspaceId) throw new Bad('`workspace show` needs a workspace ID.');
    return ok({ kind: 'workspace-show', workspaceId }, spec);
  },

  'model move': (args, spec) => {
    const p = args.positionals;
    if (p.length >= 2 && p[1]!.toLowerCase() === 'to' && !args.quotedPositionals[1]) {
      p.splice(1, 1);
      args.quotedPositionals.splice(1, 1);
    }
    const modelId = idFrom(args, 'model', 'model', true);
    const workspaceId = idFrom(args, 'workspace', 'workspace', true);
    tooMany(args, 0, spec);
    if (!modelId || !workspaceId)
      throw new Bad('`model move` needs a model ID and a destination workspace ID.');
    return ok({ kind: 'model-move', modelId, workspaceId }, spec);
  },

  'model common': (args, spec) => {
    const assessmentId = idFrom(args, 'assessment', 'assessment', true);
    tooMany(args, 0, spec);
    if (!assessmentId) throw new Bad('`model common` needs an assessment ID.');
    return ok({ kind: 'model-common', assessmentId }, spec);
  },

  eval: (args, spec) => {
    const assessmentId = idFrom(args, 'assessment', 'assessment', true);
    tooMany(args, 0, spec);
    const modelId = idFrom(args, 'model', 'live model', false);
    const datastreamId = idFrom(args, 'datastream', 'datastream', false);
    const entities = args.options.entities !== undefined ? parseEntities(args.options.entities) : undefined;
    const rangeText = args.options.range;
    const name = text(args, 'name');
    const missing: string[] = [];
    if (!assessmentId) missing.push('assessment');
    if (!modelId) missing.push('model');
    if (!datastreamId) missing.push('datastream');
    if (!entities) missing.push('entities');
    if (rangeText === undefined) missing.push('range');
    if (!assessmentId || !modelId || !datastreamId || !entities || rangeText === undefined) {
      return missingOutcome('eval', spec, missing, args, 'assessment', assessmentId);
    }
    return ok({ kind: 'eval', assessmentId, modelId, datastreamId, entities, rangeText, name }, spec);
  },

  live: (args, spec) => {
    const action = takePositional(args)?.value.toLowerCase();
    if (action !== 'start' && action !== 'stop') {
      throw new Bad(
        action
          ? `\`${action}\` is not a \`live\` action: use \`start\` or \`stop\`.`
          : '`live` needs `start` or `stop`.',
      );
    }
    const modelId = idFrom(args, 'model', 'model', true);
    tooMany(args, 0, spec);
    const assessmentId =
      args.options.assessment !== undefined ? optionId(args, 'assessment', 'assessment') : undefined;
    if (modelId && assessmentId) throw new Bad('Give either a model ID or `assessment=`, not both.');
    if (!modelId && !assessmentId)
      throw new Bad(`\`live ${action}\` needs a model ID or \`assessment=<id>\`.`);
    return ok({ kind: 'live', action, modelId, assessmentId, reason: text(args, 'reason') }, spec);
  },

  learn: (args, spec) => {
    tooMany(args, 0, spec);
    const missing: string[] = [];
    const workspaceId = idFrom(args, 'workspace', 'workspace', false);
    if (!workspaceId) missing.push('workspace');
    const data = dataFrom(args, missing);
    const name = text(args, 'name');
    const description = text(args, 'description');
    const modelName = text(args, 'model-name');
    if (!workspaceId || !data) return missingOutcome('learn', spec, missing, args, 'model', undefined);
    return ok({ kind: 'learn', workspaceId, data, modelName, name, description }, spec);
  },

  relearn: (args, spec) => {
    const modelId = idFrom(args, 'model', 'model', true);
    tooMany(args, 0, spec);
    const missing: string[] = [];
    if (!modelId) missing.push('model');
    const workspaceId = idFrom(args, 'workspace', 'workspace', false);
    if (!workspaceId) missing.push('workspace');
    const data = dataFrom(args, missing);
    const name = text(args, 'name');
    const description = text(args, 'description');
    if (!modelId || !workspaceId || !data)
      return missingOutcome('relearn', spec, missing, args, 'model', modelId);
    return ok({ kind: 'relearn', modelId, workspaceId, data, name, description }, spec);
  },

  score: (args, spec) => {
    const modelId = idFrom(args, 'model', 'model', true);
    tooMany(args, 0, spec);
    const missing: string[] = [];
    if (!modelId) missing.push('model');
    const workspaceId = idFrom(args, 'workspace', 'workspace', false);
    if (!workspaceId) missing.push('workspace');
    const data = dataFrom(args, missing);
    const output = outputFrom(args, missing);
    const name = text(args, 'name');
    const description = text(args, 'description');
    if (!modelId || !workspaceId || !data || !output) {
      return missingOutcome('score', spec, missing, args, 'model', modelId);
    }
    return ok({ kind: 'score', modelId, workspaceId, data, output, name, description }, spec);
  },

  use: (args, spec) => {
    const words = args.positionals.map((p) => p.toLowerCase());
    const given = Object.keys(args.options);
    if (words.length === 0 && given.length === 0) return ok({ kind: 'use', action: 'show' }, spec);
    if (words.length === 1 && words[0] === 'clear') {
      if (given.length)
        throw new Bad('`use clear` takes no options: it removes every default of this channel.');
      return ok({ kind: 'use', action: 'clear' }, spec);
    }
    if (words.length > 0) {
      throw new Bad(
        `Unexpected ${args.positionals.map((p) => `\`${p}\``).join(' ')}: write \`key=value\` pairs, or \`use clear\`.`,
      );
    }
    const values: Extract<ParsedCommand, { kind: 'use'; action: 'set' }>['values'] = {};
    for (const key of ['workspace', 'datastream', 'model', 'assessment'] as const) {
      if (args.options[key] !== undefined) values[key] = optionId(args, key, key);
    }
    if (args.options.entities !== undefined) values.entities = parseEntities(args.options.entities);
    return ok({ kind: 'use', action: 'set', values }, spec);
  },

  approvals: (args, spec) => {
    tooMany(args, 0, spec);
    return ok({ kind: 'approvals' }, spec);
  },

  audit: (args, spec) => {
    const n = takePositional(args)?.value;
    tooMany(args, 0, spec);
    if (n === undefined) return ok({ kind: 'audit' }, spec);
    if (!/^\d{1,3}$/.test(n) || Number(n) < 1 || Number(n) > 100) {
      throw new Bad(`\`${n}\` is not a number of entries: give 1 to 100, e.g. \`/tsai audit 50\`.`);
    }
    return ok({ kind: 'audit', limit: Number(n) }, spec);
  },

  flows: (args, spec) => {
    const n = takePositional(args)?.value;
    tooMany(args, 0, spec);
    if (n === undefined) return ok({ kind: 'flows' }, spec);
    if (!/^\d{1,2}$/.test(n) || Number(n) < 1 || Number(n) > 25) {
      throw new Bad(`\`${n}\` is not a number of flows: give 1 to 25, e.g. \`/tsai flows 10\`.`);
    }
    return ok({ kind: 'flows', limit: Number(n) }, spec);
  },

  flow: (args, spec) => {
    const flowId = idFrom(args, 'flow', 'flow', true);
    tooMany(args, 0, spec);
    if (!flowId) throw new Bad('`flow` needs a flow ID.');
    return ok({ kind: 'flow', flowId }, spec);
  },
};
