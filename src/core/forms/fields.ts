import type { CatalogKind } from '../../store/index.js';
import { type FormSpec, MAX_RANGES } from '../operations/registry/entry.js';
import { entryOfForm } from '../operations/registry/index.js';
import { CHOICES } from './choice-words.js';
import type { TextFieldName } from './field-names.js';

/** A form's name, as its registry entry declares it (`FormSpec.id`). */
export type FormId = string;

/** Whether a form of this name is in the registry (a stored or echoed name may be stale or forged). */
export function isFormId(id: unknown): id is FormId {
  return typeof id === 'string' && entryOfForm(id) !== undefined;
}

export {
  type DataMode,
  FIELD,
  type FormInput,
  type ModalFields,
  type OutputMode,
  type RangeInput,
  type TextFieldName,
} from './field-names.js';

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
