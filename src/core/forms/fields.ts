import type { CatalogKind } from '../../store/index.js';
import { type FormSpec, MAX_RANGES } from '../operations/registry/entry.js';
import { entryOfForm } from '../operations/registry/index.js';
import { CHOICES } from './choices.js';

/** A form's name, as its registry entry declares it (`FormSpec.id`). */
export type FormId = string;

/** Whether a form of this name is in the registry (a stored or echoed name may be stale or forged). */
export function isFormId(id: unknown): id is FormId {
  return typeof id === 'string' && entryOfForm(id) !== undefined;
}

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
} as const satisfies Record<Exclude<keyof ModalFields, 'ranges'>, string>;

export type TextFieldName = keyof typeof FIELD;

/** The form fields that take service resources: each is a type-ahead select, by catalog kind. */
export const RESOURCE_FIELDS = {
  workspace: 'workspace',
  model: 'model',
  assessment: 'assessment',
  datastream: 'datastream',
  dataspecId: 'dataspec',
  signals: 'signal',
  outputs: 'signal',
} as const satisfies Partial<Record<TextFieldName, CatalogKind>>;

export type ResourceField = keyof typeof RESOURCE_FIELDS;

export function isResourceField(name: string): name is ResourceField {
  return Object.hasOwn(RESOURCE_FIELDS, name);
}

/** Fields that take several resources, one option each (`id[:label]`). */
export function isMultiField(name: ResourceField): boolean {
  return name === 'signals' || name === 'outputs';
}

export { MAX_RANGES };

/** How many time ranges a form takes, as its operation says (EVAL backfills one range per flow). */
export function maxRangesOf(kind: FormId): number {
  return formOf(kind).maxRanges;
}

/** The form of an operation, from the registry. */
export function formOf(kind: FormId): FormSpec {
  const form = entryOfForm(kind)?.form;
  if (!form) throw new Error(`no operation has the form ${kind}`);
  return form;
}
const RANGE_PREFIX = 'range_';

/** Block id of the range input with this stable key (keys never get reused within one modal). */
export function rangeBlockId(key: number): string {
  return `${RANGE_PREFIX}${key}`;
}

export function rangeKeyOf(blockId: string): number | undefined {
  if (!blockId.startsWith(RANGE_PREFIX)) return undefined;
  const n = Number(blockId.slice(RANGE_PREFIX.length));
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/** One time-range input as submitted: its block id and its text. */
export interface RangeInput {
  blockId: string;
  text: string;
}

/** The submitted form: every text field as typed, and the range inputs in display order. */
export interface FormInput extends Omit<ModalFields, 'ranges'> {
  ranges: RangeInput[];
}

/** Which text fields and choices a form shows (ranges aside), in the order its operation's form lists them. */
export function fieldsOf(kind: FormId): TextFieldName[] {
  const entry = entryOfForm(kind);
  if (!entry?.form) throw new Error(`no operation has the form ${kind}`);
  return entry.form.fields.flatMap((item): TextFieldName[] => {
    if ('choice' in item) return [CHOICES[item.choice].radio];
    if (!('arg' in item)) return [];
    const name = entry.args.find((a) => a.key === item.arg)?.field?.name;
    return name && name !== 'ranges' ? [name] : [];
  });
}

/** How a time-range input was understood (shown under it), or why it was not. */
export interface RangePreview {
  ok: boolean;
  text: string;
}
