/**
 * What a user can type into a form, as text, independent of Slack.
 * The same shape is used to prefill a modal (from command arguments and channel defaults)
 * and to reopen it with everything the user had typed.
 *
 * A field is named by its registry entry (`FieldSpec.name`, else its argument's key), so a new operation's
 * field needs nothing here: only the fields every form has (the channel, the Repeat, the time ranges and
 * the radios of the either/or choices) are typed by name; any other holds its text under its name.
 */

/** Where the data of an anomaly flow comes from: new signals and ranges, or an existing dataspec. */
export type DataMode = 'new' | 'dataspec';
/** Where ANOMALYEVAL writes its outputs: new signals named `prefix/<output>`, or existing signals. */
export type OutputMode = 'prefix' | 'map';

/** The fields a form has whatever its operation: where it posts, when it repeats, the choices' radios. */
interface FormOwnFields {
  /** Channel the result is posted in, chosen in the modal when it was opened from a global shortcut. */
  channel?: string;
  /** When to run it again and again instead of once now ("every weekday at 06:00"); every form has it. */
  repeat?: string;
  dataMode?: DataMode;
  outputMode?: OutputMode;
}

export interface ModalFields extends FormOwnFields {
  /** One entry per time-range input, in display order. */
  ranges?: string[];
  /** Each argument's field, by its name: its text. */
  [field: string]: string | string[] | undefined;
}

/** One time-range input as submitted: its block id and its text. */
export interface RangeInput {
  blockId: string;
  text: string;
}

/** The submitted form: every text field as typed, and the range inputs in display order. */
export interface FormInput extends FormOwnFields {
  ranges: RangeInput[];
  [field: string]: string | RangeInput[] | undefined;
}

/**
 * A field's Slack `block_id`, from its name by one rule: its camelCase words joined by underscores
 * (`modelName` -> `model_name`, `prefix` -> `prefix`). The ids of the shipped fields are what they
 * always were, so a form in flight or a saved draft still reads. Errors and state map one to one.
 */
export function blockIdOf(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** A field's text, when it holds text (the time ranges hold a list). */
export function textIn(fields: ModalFields | FormInput, name: string): string | undefined {
  const value = fields[name];
  return typeof value === 'string' ? value : undefined;
}
