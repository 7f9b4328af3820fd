import type { FlowResults, ServiceCalls } from '../../../api/index.js';
import type { CatalogKind, CatalogUpsert } from '../../../store/index.js';
import type { CallInput, WireCall } from '../../../wire/call.js';
import { CHOICES, type ChoiceSide } from '../../forms/choice-words.js';
import type { Args } from '../../grammar/args.js';
import type { CommandSpec } from '../../grammar/spec.js';
import type { ParseOutcome } from '../../grammar/types.js';
import type { Argument, OutputSpec, ValueOf } from '../../kinds/kind.js';
import type { OpFailure, OpOutcome } from '../../outcome.js';
import type { RequestContext } from '../requests.js';

export type { Lookup, ResourceKind } from '../../catalog/kind.js';
export * from '../../kinds/kind.js';

/** How a result's ranges are echoed: in the person's zone, the year rule following the bot's clock. */
export interface RangeEcho {
  timeZone: string;
  now?: Date;
}

/** How many time ranges an anomaly flow's form takes. */
export const MAX_RANGES = 10;

/**
 * One item of a form, in the order shown: an argument's field (by its key), one of the form's either/or
 * choices (its radio buttons, worded in core/forms/choices.ts), or a heading (`id`: its block's).
 */
export type FormItem = { arg: string } | { choice: ChoiceSide['choice'] } | { header: string; id: string };

/** An operation's form: its name (the callback and the form a next-step opens), title and items. */
export interface FormSpec {
  /** The form's name, unique in the registry: `learn`, `score`. */
  id: string;
  title: string;
  submit: string;
  /** Sentences shown first, above everything it asks (`id`: its block's). */
  notes?: readonly { id: string; text: string }[];
  /** What it asks, in order. */
  fields: readonly FormItem[];
  /** How many time-range inputs it takes. */
  maxRanges: number;
  /** Opened empty from Slack's global shortcut `tsai_shortcut_<id>` (which manifest.yml declares). */
  shortcut?: true;
}

/** What a command's words, summary and examples are; its keys and its usage come from its arguments. */
export type CommandText = Omit<
  CommandSpec,
  'keys' | 'aliases' | 'alternatives' | 'freeText' | 'defaults' | 'positional' | 'usage' | 'arguments'
> & {
  /**
   * The other ways of writing it, each derived from its arguments like the first: `live start|stop`'s
   * `<model_id>` or `assessment=`. Each is the list of argument keys it shows, in order.
   */
  forms?: readonly (readonly string[])[];
  /** Words shown before the arguments in its usage line: `start|stop`. */
  lead?: string;
};

/** A command made exact: the request it resolves to, or why not. */
export type ResolveOutcome<Resolved = { kind: string }> = { ok: true; operation: Resolved } | OpFailure;

/** The service's roles, weakest first; each may do what the ones before it may. */
export const SERVICE_ROLES = ['User', 'Manager', 'Owner'] as const;
export type ServiceRole = (typeof SERVICE_ROLES)[number];

/**
 * The flow type a call creates: one, or one per request (`live start|stop`); `all` lists every one it may
 * create, for what is derived from the registry (the audit names, the emulator's tests).
 */
export interface FlowTypeOf<Request> {
  all: readonly string[];
  of(request: Request): string;
}

/** A call that creates flows of one type. */
export function flowTypeIs<const T extends string>(type: T): FlowTypeOf<unknown> & { all: readonly [T] } {
  return { all: [type], of: () => type };
}

/** An entry's service call: the wire call, and the flow type its body names (filled in by `send`). */
export interface EntryWire<Request, Body, Answer> extends WireCall<Body, Answer> {
  flowType?: FlowTypeOf<Request>;
}

/** A body as an entry writes it: its flow type is the declared one, filled in when it is sent. */
export type BodyWithoutFlowType<Body> = Body extends { flowType: unknown } ? Omit<Body, 'flowType'> : Body;

/** What an entry's `execute` is handed: its own call, the other calls it may make, and the range echo. */
export interface ExecuteContext<Body, Answer> {
  /** Sends the entry's declared call (its flow type put into the body) and reads its answer. */
  send(input: CallInput<BodyWithoutFlowType<Body>>): Promise<Answer>;
  /** For a declared call of another entry made on the way (EVAL looks up M[0] first). */
  service: ServiceCalls;
  echo: RangeEcho;
}

/** A value as the store keeps it (JSON): instants are ISO strings. Old rows may lack fields. */
export type Stored<T> = T extends bigint
  ? string
  : T extends readonly (infer E)[]
    ? Stored<E>[]
    : T extends object
      ? { [K in keyof T]?: Stored<T[K]> }
      : T;

/** What an entry's outputs are read from: its request as stored, and what the service answered. */
export interface Finished<Request> {
  request: Stored<Request>;
  /** A completed flow's results, as the client read its record. */
  results?: FlowResults;
  /** The record a lookup or a create named (`OpSuccess.seen`). */
  returned?: { id: string; name?: string; workspace?: string };
}

/** The values of a list of declared outputs, by name; what is absent was not yielded. */
export type OutputValues<S extends readonly OutputSpec[] = readonly OutputSpec[]> = {
  [O in S[number] as O['name']]?: ValueOf<O['type']>;
};

/** An entry's outputs: what it declares it yields, and how they are read from what the service answered. */
export interface EntryOutputs<Request = never> {
  declared: readonly OutputSpec[];
  read(done: Finished<Request>): Readonly<Record<string, unknown>>;
}

/**
 * An entry's outputs, the values `read` returns typed by the declaration: each name it may return and the
 * value its type holds. (A test also runs every entry against the emulator and refuses a name it does
 * not declare, since a value spread in from elsewhere escapes the compiler's check.)
 */
export function declareOutputs<Request, const S extends readonly OutputSpec[]>(
  declared: S,
  read: (done: Finished<Request>) => OutputValues<S>,
): EntryOutputs<Request> {
  return { declared, read: read as EntryOutputs<Request>['read'] };
}

/**
 * A button under a completed flow, offered when that flow's outputs fill what it needs: the entry's form,
 * opened with every argument the outputs feed filled in, or for an entry without a form, its command run
 * as the person who clicked with the arguments it needs (an approval still decides a live start).
 */
export interface NextStepSpec {
  label: string;
  primary?: true;
  /** The arguments the finished flow's outputs must fill (by key); a command is run with these alone. */
  needs: readonly string[];
  /** The state it asks for, by the finished flow's flag outputs: `{ live: true }` backfills a live model. */
  when?: Readonly<Record<string, boolean>>;
  /** The word it runs with, for a command that takes one first (`start` of `live start|stop`). */
  word?: string;
}

/**
 * What a successful operation teaches the catalog: resources it names (`add`) and ones the service said
 * are gone (`remove`). `returned` is the record the service's answer named (`OpSuccess.seen`).
 */
export interface CatalogChange {
  add: CatalogUpsert[];
  remove?: { kind: CatalogKind; id: string }[];
}

/**
 * One service operation, whole. Everything the bot knows of it is here, and every surface is derived
 * from it:
 * - `command`, `args`: the grammar's command (its keys, defaults, positional and usage line are read from
 *   the arguments), `/tsai help`, did-you-mean, and the form's fields (`Argument.field`);
 * - `form`: the form's items in the order shown; the form is rendered, read and checked by no code of its
 *   own (its values go through `parse` and `resolve`, as its command does);
 * - `parse`, `resolve`: the command line read, then made exact (names to IDs, ranges to instants);
 * - `wire`: the service call (method, version, path, body schema, flow type), sent by the one generic
 *   client call; the emulator checks bodies against the same schema;
 * - `execute`: the call made (`ctx.send`) and its outcome described for a surface to show;
 * - `role`: the least service role it needs (a 403 names it);
 * - `catalog`: what a success adds to the catalog of known resources, and removes from it;
 * - `outputs`: what it yields, declared (name, type, label, how a person sees it, what it feeds), from
 *   which its end notice, the Home, the digest, its workflow step's outputs and the manifest's functions,
 *   the next-step buttons and the catalog's additions and removals are derived;
 * - `next`: the buttons it offers under a finished flow whose outputs fill what it needs;
 * - `approval`: its command files a request an approver decides, and its call is made once approved.
 *
 * A new operation is this entry, its line in index.ts (or `registerOperations` for one a test brings),
 * its tests, and the emulator's support when its call is new.
 */
export interface OperationEntry<
  Parsed = never,
  Request = never,
  Body = unknown,
  Answer = unknown,
  Resolved = Request,
> {
  /** The kinds it handles: its parsed command's, and the operation's it executes. */
  parsedKind: string;
  operationKind: string;
  command: CommandText;
  args: readonly Argument[];
  form?: FormSpec;
  role: ServiceRole;
  /** The parser of its command line, from arguments already collected by key. */
  parse(args: Args, spec: CommandSpec): ParseOutcome;
  /** The parsed command made exact: ranges read in the user's zone, default names given. */
  resolve(command: Parsed, ctx: RequestContext): ResolveOutcome<Resolved>;
  wire: EntryWire<Request, Body, Answer>;
  /** The service call, and the outcome described for a surface to show. */
  execute(request: Request, ctx: ExecuteContext<Body, Answer>): Promise<OpOutcome>;
  catalog(
    request: Request,
    returned: { id: string; name?: string; workspace?: string } | undefined,
  ): CatalogChange;
  /** A 404's answer is about this resource, when the call names exactly one. */
  notFound?(request: Request): { kind: CatalogKind; id: string } | undefined;
  outputs?: EntryOutputs<Request>;
  next?: readonly NextStepSpec[];
  /** Its command files a request that an approver decides; the call is made once it is approved. */
  approval?: true;
}

/** Any entry, as the registry lists them. */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds entries of every request and body type
export type AnyEntry = OperationEntry<any, any, any, any, any>;

/** The command spec of an entry: its text, its keys and its usage line read from its arguments. */
export function commandSpecOf(entry: Pick<AnyEntry, 'command' | 'args' | 'approval'>): CommandSpec {
  const keys = (pick: (a: Argument) => boolean | undefined) => entry.args.filter(pick).map((a) => a.key);
  const freeText = keys((a) => a.freeText);
  const defaults = keys((a) => a.channelDefault);
  const positional = entry.args.find((a) => a.positional)?.key;
  const aliases = Object.fromEntries(entry.args.flatMap((a) => (a.aliases ?? []).map((s) => [s, a.key])));
  const { forms: _, lead: __, ...text } = entry.command;
  return {
    ...text,
    usage: usageOf(entry),
    keys: keys(() => true),
    ...(Object.keys(aliases).length ? { aliases } : {}),
    ...alternativesOf(entry.args),
    arguments: entry.args.map((a) => ({ usage: usagePart(a, true), help: `${a.help}${byName(a)}` })),
    ...(entry.approval ? { answers: 'a request to its approvers in the channel; a note to you' } : {}),
    ...(freeText.length ? { freeText } : {}),
    ...(defaults.length ? { defaults } : {}),
    ...(positional ? { positional } : {}),
  };
}

/**
 * The usage line, from the arguments: `/tsai <words> [lead] <positional> key=<shape> [optional=<shape>]`,
 * the two sides of an either/or choice as `(a b | c)`, and each other way of writing it after `or`. Never
 * cut short: help shows it whole.
 */
export function usageOf(entry: Pick<AnyEntry, 'command' | 'args'>): string {
  const { words, lead, forms } = entry.command;
  const head = ['/tsai', ...words, ...(lead ? [lead] : [])].join(' ');
  if (!forms) return [head, ...usageParts(entry.args)].join(' ');
  return forms
    .map((keys) => {
      const args = keys.map((k) => entry.args.find((a) => a.key === k)).filter((a) => a !== undefined);
      // The first argument of each way is what makes it that way: never optional there.
      return [head, ...args.map((a, i) => usagePart(a, i === 0))].join(' ');
    })
    .join('  or  ');
}

function usageParts(args: readonly Argument[]): string[] {
  const parts: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const choice = args[i]!.side?.choice;
    if (!choice) {
      parts.push(usagePart(args[i]!));
      continue;
    }
    const sides: string[][] = [];
    let option: string | undefined;
    for (; i < args.length && args[i]!.side?.choice === choice; i++) {
      const a = args[i]!;
      if (a.side!.option !== option) sides.push([]);
      option = a.side!.option;
      sides.at(-1)!.push(usagePart(a, !a.side!.detail));
    }
    i--;
    parts.push(`(${sides.map((s) => s.join(' ')).join(' | ')})`);
  }
  return parts;
}

/**
 * For each side of a choice the person must make (one without a fallback), the keys of its other sides:
 * what a missing one may be given as instead.
 */
function alternativesOf(args: readonly Argument[]): { alternatives?: Record<string, string[]> } {
  const sides = args.filter((a) => a.side && !a.side.detail && !('fallback' in CHOICES[a.side.choice]));
  const alternatives = Object.fromEntries(
    sides.map((a) => [
      a.key,
      sides
        .filter((b) => b.side!.choice === a.side!.choice && b.side!.option !== a.side!.option)
        .map((b) => b.key),
    ]),
  );
  return Object.keys(alternatives).length ? { alternatives } : {};
}

/** What help says of an argument a name may stand for: that it may be given by name. */
function byName(a: Argument): string {
  const names = a.lookup?.names;
  if (!names) return '';
  return a.lookup?.list ? ` Each by its ID or its name.` : ` By its ID or its name.`;
}

/** How the usage line shows one argument: `key=<shape>`, or its positional shape; `[…]` when optional. */
export function usagePart(a: Argument, required = a.required): string {
  const part = a.positional ? (a.shape ?? `<${a.key}_id>`) : (a.shape ?? `${a.key}=${a.kind.shape(a)}`);
  return required ? part : `[${part}]`;
}
