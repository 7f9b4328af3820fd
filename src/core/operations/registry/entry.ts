import type { ServiceCalls } from '../../../api/index.js';
import type { ChoiceSide } from '../../forms/choices.js';
import type { ModalKind, TextFieldName } from '../../forms/fields.js';
import type { Args } from '../../grammar/args.js';
import type { CommandSpec } from '../../grammar/commands.js';
import type { ParseOutcome } from '../../grammar/types.js';
import type { OpFailure, OpOutcome } from '../../outcome.js';
import type { Operation } from '../operation.js';
import type { RequestContext } from '../requests.js';
import type { RangeEcho } from './describe.js';

/** How many time ranges an anomaly flow's form takes. */
export const MAX_RANGES = 10;

/** A form field that takes an argument: one of the form's text fields, or its time-range inputs. */
export type FormField = TextFieldName | 'ranges';

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
  /** The form field that takes it (absent: the form does not ask for it). */
  fields?: readonly [FormField];
  /** The side of one of the form's either/or choices it belongs to (core/forms/choices.ts). */
  side?: ChoiceSide;
}

/** An operation's form: how it is titled, and which fields it shows in which order (ranges aside). */
export interface FormSpec {
  kind: ModalKind;
  title: string;
  submit: string;
  fields: readonly TextFieldName[];
  /** How many time-range inputs it takes. */
  maxRanges: number;
}

/** What a command's words, usage and examples are; its keys come from its arguments. */
export type CommandText = Omit<CommandSpec, 'keys' | 'freeText' | 'defaults' | 'positional'>;

export type ResolveOutcome = { ok: true; operation: Operation } | OpFailure;

/**
 * One service operation, whole: its command and form, its arguments (defined once for both), how its
 * command line is read and resolved (names to IDs, ranges to instants), the service call that executes it,
 * and how its result is described. The grammar's help, the forms' fields, the executor and the audit name
 * are all read from here.
 *
 * A new operation with a form is this entry, its line in index.ts and its tests; its form is checked
 * by no code of its own. Its `form` lists the fields shown; each argument the form asks for names its
 * field (and the side of a choice it is on); the form's values are checked by their arguments' kinds,
 * then parsed and resolved by this entry's `parse` and `resolve`, as its command is. Its form's name
 * joins the kinds in core/forms/fields.ts (`ModalKind`) and requests.ts, and its labels and hints are
 * the Slack view's. Its tests: its command (test/core/registry.test.ts runs every example, and checks
 * that the form and the command resolve alike) and test/core/form-arguments.test.ts, which fails for a
 * form field no argument reads, a needed argument not asked for under its own field, or a form that
 * builds another request than its command; add command lines there for what its examples leave out.
 */
export interface OperationEntry<Parsed = never, Request = never> {
  /** The kinds it handles: its parsed command's, and the operation's it executes. */
  parsedKind: string;
  operationKind: string;
  command: CommandText;
  args: readonly Argument[];
  form?: FormSpec;
  /** The parser of its command line, from arguments already collected by key. */
  parse(args: Args, spec: CommandSpec): ParseOutcome;
  /** The parsed command made exact: ranges read in the user's zone, default names given. */
  resolve(command: Parsed, ctx: RequestContext): ResolveOutcome;
  /** The service flow type it creates, if it creates one. */
  flowType?(request: Request): string;
  /** The service call, and the outcome described for a surface to show. */
  execute(request: Request, service: ServiceCalls, echo: RangeEcho): Promise<OpOutcome>;
}

/** The command spec of an entry: its text, and its keys read from its arguments. */
export function commandSpecOf(
  entry: Pick<OperationEntry<unknown, unknown>, 'command' | 'args'>,
): CommandSpec {
  const keys = (pick: (a: Argument) => boolean | undefined) => entry.args.filter(pick).map((a) => a.key);
  const freeText = keys((a) => a.freeText);
  const defaults = keys((a) => a.channelDefault);
  const positional = entry.args.find((a) => a.positional)?.key;
  return {
    ...entry.command,
    keys: keys(() => true),
    ...(freeText.length ? { freeText } : {}),
    ...(defaults.length ? { defaults } : {}),
    ...(positional ? { positional } : {}),
  };
}
