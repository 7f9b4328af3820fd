import { parseShifts } from '../../time/index.js';
import { CHANNEL_DEFAULT_ARGUMENTS } from '../channel-defaults.js';
import { entryOfCommand } from '../operations/registry/index.js';
import { takesNothingAfter } from '../secret-text.js';
import {
  type Args,
  Bad,
  nameKey,
  nameList,
  ok,
  optionId,
  type Parser,
  type ResolvedNames,
  repeated,
  takePositional,
  tooMany,
} from './args.js';
import { COMMANDS, type CommandSpec, specById } from './commands.js';
import { fillPlaceholders, repeatedSignal, withoutMarks } from './placeholders.js';
import { didYouMean, suggest } from './suggest.js';
import { type Token, tokenize } from './tokenize.js';
import type { GovernanceCommand, IdentityAction, NameRef, ParsedCommand, ParseOutcome } from './types.js';

export type { NameRef, ResolvedNames };
export { nameKey };

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
  const tokenized = tokenize(withoutMarks(text));
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
  if (spec.spec.raw) {
    const own = withoutMarks(text).trim().replace(/^\S+/, '').trim();
    return {
      ok: true,
      command: { kind: 'scheduling', id: spec.spec.id, text: own },
      spec: spec.spec,
      fromDefaults: [],
    };
  }
  const rest = tokens.slice(spec.spec.words.length);
  try {
    const args = collect(rest, spec.spec, options.names);
    const fromDefaults = applyDefaults(args, spec.spec, options.defaults);
    const out = parserOf(spec.spec.id)(args, spec.spec);
    if ((out.ok || out.kind === 'missing') && args.found.length > 0) {
      const listed = args.found.map((n) => `\`${n.key}="${n.text}"\``).join(', ');
      return {
        ok: false,
        kind: 'names',
        spec: spec.spec,
        names: args.found,
        ids: args.ids,
        message: `Names to look up before \`${spec.spec.id}\` can run: ${listed}.`,
        parsed: { ...out, fromDefaults },
        lists: args.lists,
      };
    }
    return out.ok || out.kind === 'missing' ? { ...out, fromDefaults } : out;
  } catch (e) {
    if (e instanceof Bad) return refusal(e, spec.spec);
    throw e;
  }
}

function refusal(e: Bad, spec: CommandSpec): ParseOutcome {
  return { ok: false, kind: 'error', message: e.message, spec, ...(e.key ? { key: e.key } : {}) };
}

/**
 * A command given as its arguments by canonical key, as a form gives them: nothing positional and nothing
 * standing for a name (a form's fields pick IDs), no channel defaults. The command's own parser reads them, as it
 * reads the typed command.
 */
export function parseKeyed(
  id: string,
  options: Readonly<Record<string, string>>,
  words: readonly string[] = [],
): ParseOutcome {
  const spec = specById(id);
  const args: Args = {
    positionals: [...words],
    quotedPositionals: words.map(() => false),
    options: { ...options },
    quotedOptions: new Set(),
    keyed: true,
    found: [],
    lists: [],
    ids: {},
  };
  try {
    return parserOf(id)(args, spec);
  } catch (e) {
    if (e instanceof Bad) return refusal(e, spec);
    throw e;
  }
}

/**
 * A command that named resources, with the names filled in from what the catalog says they stand for:
 * the parse the grammar made with placeholders, completed without reading the text again.
 */
export function fillNames(
  outcome: Extract<ParseOutcome, { kind: 'names' }>,
  names: ResolvedNames,
): ParseOutcome {
  const filled = [];
  for (const ref of outcome.names) {
    const hit = names.get(nameKey(ref.key, ref.text));
    if (!hit) return { ok: false, kind: 'error', message: outcome.message, spec: outcome.spec };
    filled.push({ id: hit.id, label: ref.labelled && hit.name ? hit.name : hit.id });
  }
  const twice = repeatedSignal(outcome.lists, filled);
  if (twice) {
    const message = repeated(twice.noun, twice.signal, twice.key);
    return { ok: false, kind: 'error', message, spec: outcome.spec, key: twice.key };
  }
  // The command table's entry is shared, not copied.
  const { spec, ...parsed } = outcome.parsed;
  return { ...fillPlaceholders(parsed, filled), spec } as ParseOutcome;
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
    const close = suggest(head, commandWords());
    const guess = COMMANDS.find((c) => c.words[0] === close[0]);
    return {
      error: `\`${tokens[0]!.raw}\` is not a command.${didYouMean(close)} Commands: ${commandList()}.`,
      ...(guess ? { spec: guess } : {}),
    };
  }
  if (family.length === 1 && family[0]!.words.length === 1) return { spec: family[0]! };
  const sub = word(1);
  const match = family.find((c) => c.words[1] === sub);
  if (match) return { spec: match };
  const subs = family.map((c) => `\`${c.words[1]}\``).join(' or ');
  if (!tokens[1]) return { error: `\`${head}\` needs a subcommand: use ${subs}.`, spec: family[0] };
  const close =
    sub === undefined
      ? []
      : suggest(
          sub,
          family.map((c) => c.words[1]!),
        );
  const guess = family.find((c) => c.words[1] === close[0]) ?? family[0];
  return {
    error: `\`${tokens[1].raw}\` is not a \`${head}\` subcommand.${didYouMean(close)} Use ${subs}.`,
    spec: guess,
  };
}

/** The first word of every command: what a misspelt command is compared with. */
function commandWords(): string[] {
  return [...new Set(COMMANDS.map((c) => c.words[0]!))];
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
    const key = spec.aliases?.[t.key] ?? t.key;
    if (!spec.keys.includes(key)) {
      const accepted = spec.keys.length
        ? `It takes ${spec.keys.map((k) => `\`${k}=\``).join(', ')}.`
        : 'It takes no options.';
      const close = didYouMean(suggest(t.key, spec.keys), (k) => `\`${k}=\``);
      throw new Bad(`\`${t.rawKey}=\` is not an option of \`${spec.id}\`.${close} ${accepted}`);
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
    lists: [],
    ids: {},
  };
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

/** The parsers of the bot's own commands; the service's operations bring theirs from the registry. */
const PARSERS: Record<string, Parser> = {
  help: (args, spec) => {
    const topic = args.positionals.join(' ').toLowerCase().trim();
    if (topic && !COMMANDS.some((c) => c.id === topic || c.words[0] === topic)) {
      const close = didYouMean(suggest(topic, commandWords()));
      throw new Bad(`There is no command \`${topic}\`.${close} Commands: ${commandList()}.`);
    }
    return ok({ kind: 'help', topic: topic || undefined }, spec);
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
    for (const arg of CHANNEL_DEFAULT_ARGUMENTS) {
      if (args.options[arg.key] !== undefined) values[arg.key] = optionId(args, arg);
    }
    if (args.options.entities !== undefined)
      values.entities = nameList(args.options.entities, 'entities', 'pump-1,pump-2');
    if (args.options.shifts?.trim().toLowerCase() === 'none') values.shifts = [];
    else if (args.options.shifts !== undefined) {
      const shifts = parseShifts(args.options.shifts);
      if (!shifts.ok) throw new Bad(shifts.error);
      values.shifts = shifts.shifts;
    }
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

  connect: identity('connect'),
  disconnect: identity('disconnect'),
  whoami: identity('whoami'),
  setup: identity('setup'),

  flows: (args, spec) => {
    const n = takePositional(args)?.value;
    tooMany(args, 0, spec);
    if (n === undefined) return ok({ kind: 'flows' }, spec);
    if (!/^\d{1,2}$/.test(n) || Number(n) < 1 || Number(n) > 25) {
      throw new Bad(`\`${n}\` is not a number of flows: give 1 to 25, e.g. \`/tsai flows 10\`.`);
    }
    return ok({ kind: 'flows', limit: Number(n) }, spec);
  },
};

function identity(action: IdentityAction): Parser {
  return (args, spec) => {
    // Whatever follows may be a token pasted in the wrong place: refused without repeating it.
    if (args.positionals.length > 0 || Object.keys(args.options).length > 0)
      throw new Bad(takesNothingAfter(action));
    tooMany(args, 0, spec);
    return ok({ kind: 'identity', action }, spec);
  };
}

function parserOf(id: string): Parser {
  const parser = PARSERS[id] ?? entryOfCommand(id)?.parse;
  if (!parser) throw new Error(`no parser for the command ${id}`);
  return parser;
}
