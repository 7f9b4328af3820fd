import type { FlowResults, ServiceCalls } from '../../../api/index.js';
import type { CatalogKind, CatalogUpsert } from '../../../store/index.js';
import type { CallInput, WireCall } from '../../../wire/call.js';
import type { ChoiceSide } from '../../forms/choice-words.js';
import type { Args } from '../../grammar/args.js';
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

/** The name of the form's time-range inputs, which an argument of the `ranges` field kind reads. */
export const RANGES_FIELD = 'ranges';

/**
 * How a form shows an argument's field: a text input (one line or several), a type-ahead select of the
 * catalog's resources of one kind (one, or several), or the form's time-range inputs.
 */
export type FieldKind =
  | { input: 'text'; multiline?: true }
  | { input: 'select'; catalog: CatalogKind; multi?: true }
  | { input: 'ranges' };

/** An argument's field in a form: which field, how it is shown, and what a person reads around it. */
export interface FieldSpec {
  /** Its name in the form (its block id is derived from it); absent: its argument's key. */
  name?: FormField;
  kind: FieldKind;
  label: string;
  hint?: string;
  placeholder?: string;
  /** The form may be submitted with it empty (the argument may still be needed by its side of a choice). */
  optional: boolean;
}

/**
 * One argument of an operation, as both the command line and the form take it. A form reads it from its
 * field by its `kind` (core/forms/readers.ts), into the text its command would hold.
 */
export interface Argument {
  /** The command's canonical option key (`workspace=`, `range=`). */
  key: string;
  /** What it holds: a service ID, a list of signals, free text, a time range, entity names, one word. */
  kind: 'id' | 'signals' | 'text' | 'range' | 'entities' | 'word';
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
  /** What a list's `:label` is called, when not `label`: `output name`. */
  labelNoun?: string;
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
  return arg.field.kind.input === 'ranges' ? RANGES_FIELD : (arg.field.name ?? arg.key);
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
  /**
   * Offered as a button under a completed flow that yielded a model: the form opens with the model, its
   * workspace and its dataspec filled into the fields it has for them.
   */
  nextStep?: { label: string; primary?: true };
  /** Opened empty from Slack's global shortcut `tsai_shortcut_<id>` (which manifest.yml declares). */
  shortcut?: true;
}

/** What a command's words, summary and examples are; its keys and its usage come from its arguments. */
export type CommandText = Omit<CommandSpec, 'keys' | 'freeText' | 'defaults' | 'positional' | 'usage'> & {
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
 * What a completed flow yields, typed. Each is read by the entry's `outputs` from the flow's results (as
 * the client read the service's record) and the request that created it; what is absent was not
 * yielded. The end notice shows them (in this order), the catalog records them (and forgets `removed`),
 * and a `model` offers the next-step buttons of the forms that declare one.
 */
export interface FlowOutputs {
  /** A model created (`created: true`) or taught more. */
  model?: { id: string; name?: string; created: boolean };
  /** The dataspec the flow learned from. */
  dataspec?: { id: string; name?: string };
  /** The Eval object a scoring flow created. */
  eval?: { id: string; name?: string };
  /** Signals the outputs were written to. */
  outputSignals?: { id: string; name?: string }[];
  /** Where the outputs went when the service did not list them: new signals under this prefix. */
  outputPrefix?: string;
  /** A live model's output generated for a past range. */
  backfill?: { range?: { startNs: bigint; endNs: bigint }; modelId?: string };
  /** A model whose live state the flow changed. */
  live?: { modelId: string; name?: string; state: 'live' | 'stopped' };
  /** The workspace the flow ran in. */
  workspace?: { id: string };
  /** What the record names besides what it yields (the dataspec a scoring used): recorded, not announced. */
  used?: { model?: { id: string; name?: string }; dataspec?: { id: string; name?: string } };
  /** Resources the flow removed: the catalog forgets them. */
  removed?: { kind: CatalogKind; id: string }[];
}

/** What a completed flow's `outputs` reads: the service's record as read, and the request that made it. */
export interface CompletedFlow<Request> {
  results: FlowResults;
  request: Stored<Request>;
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
 * - `outputs`: what a completed flow yields (model, dataspec, Eval object, workspace, live state), from
 *   which its end notice, the next-step buttons and the catalog's additions and removals are derived.
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
  outputs?(flow: CompletedFlow<Request>): FlowOutputs;
}

/** Any entry, as the registry lists them. */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds entries of every request and body type
export type AnyEntry = OperationEntry<any, any, any, any, any>;

/** The command spec of an entry: its text, its keys and its usage line read from its arguments. */
export function commandSpecOf(entry: Pick<AnyEntry, 'command' | 'args'>): CommandSpec {
  const keys = (pick: (a: Argument) => boolean | undefined) => entry.args.filter(pick).map((a) => a.key);
  const freeText = keys((a) => a.freeText);
  const defaults = keys((a) => a.channelDefault);
  const positional = entry.args.find((a) => a.positional)?.key;
  const { forms: _, lead: __, ...text } = entry.command;
  return {
    ...text,
    usage: usageOf(entry),
    keys: keys(() => true),
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

const SHAPES: Record<Argument['kind'], string> = {
  id: '<id>',
  signals: '<id[:label],…>',
  text: '<text>',
  range: '<time range>',
  entities: '<a,b,…>',
  word: '<word>',
};

/** How the usage line shows one argument: `key=<shape>`, or its positional shape; `[…]` when optional. */
export function usagePart(a: Argument, required = a.required): string {
  const part = a.positional ? (a.shape ?? `<${a.key}_id>`) : (a.shape ?? `${a.key}=${SHAPES[a.kind]}`);
  return required ? part : `[${part}]`;
}
