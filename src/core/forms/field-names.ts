/**
 * What a user can type into a form, as text, independent of Slack.
 * The same shape is used to prefill a modal (from command arguments and channel defaults)
 * and to reopen it with everything the user had typed.
 */

/** Where the data of an anomaly flow comes from: new signals and ranges, or an existing dataspec. */
export type DataMode = 'new' | 'dataspec';
/** Where ANOMALYEVAL writes its outputs: new signals named `prefix/<output>`, or existing signals. */
export type OutputMode = 'prefix' | 'map';

export interface ModalFields {
  /** Channel the result is posted in, chosen in the modal when it was opened from a global shortcut. */
  channel?: string;
  name?: string;
  description?: string;
  workspace?: string;
  modelName?: string;
  model?: string;
  dataMode?: DataMode;
  signals?: string;
  dataspecName?: string;
  dataspecId?: string;
  outputMode?: OutputMode;
  prefix?: string;
  outputs?: string;
  assessment?: string;
  datastream?: string;
  entities?: string;
  /** One entry per time-range input, in display order. */
  ranges?: string[];
  /** When to run it again and again instead of once now ("every weekday at 06:00"); every form has it. */
  repeat?: string;
}

/** Field keys double as Slack input `block_id`s, so errors and state map one to one. */
export const FIELD = {
  channel: 'channel',
  name: 'name',
  description: 'description',
  workspace: 'workspace',
  modelName: 'model_name',
  model: 'model',
  dataMode: 'data_mode',
  signals: 'signals',
  dataspecName: 'dataspec_name',
  dataspecId: 'dataspec_id',
  outputMode: 'output_mode',
  prefix: 'prefix',
  outputs: 'outputs',
  assessment: 'assessment',
  datastream: 'datastream',
  entities: 'entities',
  repeat: 'repeat',
} as const satisfies Record<Exclude<keyof ModalFields, 'ranges'>, string>;

export type TextFieldName = keyof typeof FIELD;

/** One time-range input as submitted: its block id and its text. */
export interface RangeInput {
  blockId: string;
  text: string;
}

/** The submitted form: every text field as typed, and the range inputs in display order. */
export interface FormInput extends Omit<ModalFields, 'ranges'> {
  ranges: RangeInput[];
}
