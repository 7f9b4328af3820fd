import type { FlowResults, ServiceCalls } from '../../../api/index.js';
import type { CatalogKind, CatalogUpsert } from '../../../store/index.js';
import type { Shift } from '../../../time/index.js';
import type { CallInput, WireCall } from '../../../wire/call.js';
import type { Lookup, ResourceKind } from '../../catalog/kind.js';
import { CHOICES, type ChoiceSide } from '../../forms/choice-words.js';
import type { RangeInput } from '../../forms/field-names.js';
import type { Args, Given } from '../../grammar/args.js';
import type { CommandSpec } from '../../grammar/spec.js';
import type { ParseOutcome } from '../../grammar/types.js';
import type { OpFailure, OpOutcome } from '../../outcome.js';
import type { RequestContext } from '../requests.js';

/** How a result's ranges are echoed: in the person's zone, the year rule following the bot's clock. */
export interface RangeEcho {
  timeZone: string;
  now?: Date;
}

/** How many time ranges an anomaly flow's form takes. */
export const MAX_RANGES = 10;

/**
 * A form field that takes an argument, by name: a text field or a select (named by its entry, any name
 * but those of the fields every form has), or `ranges`, the form's time-range inputs.
 */
export type FormField = string;

/** The name of the form's time-range inputs, which an argument whose element is `ranges` reads. */
export const RANGES_FIELD = 'ranges';

/**
 * How a form shows an argument's field, as its kind says (`ArgumentKind.element`): a text input (one line
 * or several), a type-ahead select of the catalog's resources of one kind (one, or several), or the form's
 * time-range inputs. The Slack surface renders each; a new kind of argument picks one of them.
 */
export type FieldElement =
  | { input: 'text'; multiline?: true }
  | { input: 'select'; resource: ResourceKind; multi: boolean }
  | { input: 'ranges' };

/** An argument's field in a form: which field, and what a person reads around it. */
export interface FieldSpec {
  /** Its name in the form (its block id is derived from it); absent: its argument's key. */
  name?: FormField;
  /** A text field of several lines (a description), where its kind would show one. */
  multiline?: true;
  label: string;
  hint?: string;
  placeholder?: string;
  /** The form may be submitted with it empty (the argument may still be needed by its side of a choice). */
  optional: boolean;
}

/** What an argument kind's form reader is handed. */
export interface FormReading {
  /** Its field's text, trimmed ('' when empty). */
  text: string;
  /** The form's time-range inputs (for a kind whose element they are). */
  ranges: readonly RangeInput[];
  /** Whom it is read for: the person's zone, locale and clock, and the channel's shifts. */
  ctx: { now: Date; timeZone: string; locale?: string; shifts?: readonly Shift[] };
  /** The form needs it: the argument is required, or it stands for the side of a choice taken. */
  required: boolean;
  /** Its field's block, where its message goes; a kind may put one under another block (a range input's). */
  block: string;
  errors: Record<string, string>;
}

/**
 * A kind of argument, declared once with everything every surface needs of it (core/kinds/arguments/):
 * how the command reads it, how its usage line shows it, its form element and how a form reads it, the
 * text a form and a command exchange, the values tests try, and how a workflow step asks for it. The
 * compiler asks for every part when a new one is written.
 */
export interface ArgumentKind<V = unknown> {
  /** What it is called in the code and the docs: `duration`. */
  name: string;
  /** How a usage line shows its value (`<time range>`), when its argument declares no `shape`. */
  shape(arg: Argument<V>): string;
  /**
   * The value a command gives (the text after `key=`, or at its position), read into what the entry's
   * parser takes; `Bad` (grammar/args.ts, with the argument's key) when it is not one.
   */
  parse(text: string, arg: Argument<V>, given: Given): V;
  /** How its form shows it. */
  element(arg: Argument<V>): FieldElement;
  /**
   * Its form field read into the text its command would hold (`key=<text>`); undefined when empty or bad,
   * a message then under the field (`reading.errors[reading.block]`).
   */
  fromForm(arg: Argument<V>, reading: FormReading): string | undefined;
  /** The command's text as a person types it into its field (a list one item a line). */
  toForm(text: string): string;
  /** A field's text as its command takes it (a list comma-separated, a text on one line). */
  toCommand(text: string): string;
  /** Values tests try: ones that read, and ones people get wrong. */
  samples: { good: readonly string[]; bad: readonly string[] };
  /** How a workflow step asks for it: its input's title when its field names none, and a note (or ''). */
  step: { title(arg: Argument<V>): string; note: string };
}

/**
 * One argument of an operation, as both the command line and the form take it: its kind (what it holds
 * and how each surface reads it) and, for one that takes IDs, its lookup (whether names stand for them).
 */
export interface Argument<V = unknown> {
  /** The command's canonical option key (`workspace=`, `range=`). */
  key: string;
  /** Other spellings people type for its key (lower case, `-` between words): `desc` for `description`. */
  aliases?: readonly string[];
  /** What it holds, declared once for every surface (core/kinds/arguments/). */
  kind: ArgumentKind<V>;
  /** How its IDs are looked up: the kind of resource its names stand for, one or a list, labels. */
  lookup?: Lookup;
  required: boolean;
  /** One line for a person: what the argument is for. */
  help: string;
  /** Its value may run on over unquoted words: `range=last 3 days`. */
  freeText?: boolean;
  /** A channel default (`/tsai use …`) fills it when it is not given. */
  channelDefault?: boolean;
  /** The first positional argument stands for it. */
  positional?: boolean;
  /** What a person is told it is, when it differs from its key: `anomaly model`, `output signal`. */
  noun?: string;
  /** A value that works, for what a person is told when it is missing or bad. */
  example?: string;
  /** The most characters a text or a word takes (a text: 200 unless said). */
  maxLength?: number;
  /** A range argument that takes one range only: what a person who gives more is told. */
  oneRange?: string;
  /** How its usage line shows it, whole, when not `key=<shape of its kind>` (`<model_id>`). */
  shape?: string;
  /** The form field that takes it (absent: the form does not ask for it). */
  field?: FieldSpec;
  /** The side of one of the form's either/or choices it belongs to (core/forms/choices.ts). */
  side?: ChoiceSide;
}

/** The name of an argument's form field (absent: the form does not ask for it). */
export function fieldNameOf(arg: Argument): FormField | undefined {
  if (!arg.field) return undefined;
  return arg.kind.element(arg).input === 'ranges' ? RANGES_FIELD : (arg.field.name ?? arg.key);
}

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

/**
 * What a finished flow shows a person, free of Slack: lines, each of plain text and code (IDs, names as
 * typed); the surface escapes the text and renders the code.
 */
export type ShownPart = { text: string } | { code: string };
export type Shown = readonly (readonly ShownPart[])[];

/** One value a workflow step hands on of an output: named after it (`<name><suffix>`), typed and titled. */
export interface StepValue<V> {
  /** What follows the output's name: `_id`, `_name`, or nothing. */
  suffix: string;
  /** What Slack takes it as: text (IDs too), or yes or no. */
  type: 'text' | 'flag';
  /** Its title, from the output's label: `Model` -> `Model ID`. */
  title(label: string): string;
  read(value: V): string | boolean | undefined;
}

/**
 * A type of output, declared once with everything every surface needs of it (core/kinds/outputs/): the
 * check a value read from the service passes, how a person sees it, the values a workflow step hands on,
 * the ID it gives the argument it feeds, the resources it names for the catalog, and the yes or no a next
 * step may wait for. The compiler asks for every part when a new one is written.
 */
export interface OutputType<V = unknown> {
  /** What it is called in the code and the docs: `resource`, `ranked`. */
  name: string;
  /** Whether a value is one of these: a value of another shape is left out, never shown or handed on. */
  fits(value: unknown): value is V;
  /** How a person sees it (times in their zone; a flag in its output's declared words). */
  show(value: V, how: { timeZone: string; words?: readonly [string, string] }): Shown;
  /** What a workflow step hands on of it. */
  step: readonly StepValue<V>[];
  /** The ID it gives the argument it feeds (`OutputSpec.feeds`), when it stands for one. */
  idOf(value: V): string | undefined;
  /** The resources it names, which the catalog records when its output declares a `catalog`. */
  resources(value: V): readonly { id: string; name?: string }[];
  /** The yes or no a next step may wait for (`NextStepSpec.when`), when it is one. */
  flag(value: V): boolean | undefined;
}

/** The value an output type holds. */
export type ValueOf<T> = T extends OutputType<infer V> ? V : never;

/** The kinds of resource an output's ID may link a catalog entry to. */
export type CatalogLinkKind = 'workspace' | 'assessment' | 'model';

/**
 * One thing an operation yields, declared once: every surface that shows or hands it on (the end notice,
 * the Home, the digest, `/tsai flow`, the workflow step's outputs and the manifest's functions, the
 * next-step buttons, the catalog) reads it from here and from its type, and nothing else knows the kinds
 * of outputs there are.
 */
export interface OutputSpec<T extends OutputType = OutputType, N extends string = string> {
  /** Its name, unique in its entry, in snake_case: a workflow step's output is named from it (`model_id`). */
  name: N;
  /** What it holds, declared once for every surface (core/kinds/outputs/). */
  type: T;
  /** What it is, for a person: a step's outputs are titled from it (`Model` -> `Model ID`, `Model name`). */
  label: string;
  /**
   * How a person sees it where a finished flow is shown (its end notice, the Home, the digest, `/tsai flow`):
   * under `heading` (its label when absent), a flag in its `words` (for no, for yes); `hidden`: not shown.
   */
  shown: 'hidden' | { heading?: string; words?: readonly [string, string] };
  /**
   * Whether it feeds a next step: the argument key it fills there (`model`: a next step's `model=`, the
   * field of a next-step form, a later workflow step's input of that name); `true`: handed on by the
   * workflow step only; `false`: handed on nowhere (the catalog may still record it).
   */
  feeds: string | boolean;
  /**
   * What the catalog of known resources records the resources it names as (with the names the service
   * gave them, so that they can be typed later): their kind, and the outputs whose IDs they are linked to
   * (`{ workspace: 'workspace' }`: the workspace of the output named so); `forget`: the resources are gone.
   */
  catalog?: { kind: ResourceKind; links?: Partial<Record<CatalogLinkKind, string>>; forget?: true };
}

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
