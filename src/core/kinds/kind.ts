import type { Shift } from '../../time/index.js';
import type { Lookup, ResourceKind } from '../catalog/kind.js';
import type { ChoiceSide } from '../forms/choice-words.js';
import type { RangeInput } from '../forms/field-names.js';
import type { Given } from '../grammar/args.js';

/**
 * What a kind of argument and a type of output are, and an argument and an output as an entry declares
 * them: the interfaces every kind module (arguments/, outputs/) implements, and which every surface reads
 * (operations/registry/entry.ts re-exports them beside the rest of an entry).
 */

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
  /**
   * Words that put its value next in a sentence (`because` for a reason, `called` for a name): a plain
   * request gives it as the quoted text, or the words, that follow one of them.
   */
  said?: readonly string[];
}

/** The name of an argument's form field (absent: the form does not ask for it). */
export function fieldNameOf(arg: Argument): FormField | undefined {
  if (!arg.field) return undefined;
  return arg.kind.element(arg).input === 'ranges' ? RANGES_FIELD : (arg.field.name ?? arg.key);
}

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
