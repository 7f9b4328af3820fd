import type { LinkKind, ResourceKind } from '../catalog/kind.js';
import {
  type Argument,
  type FieldElement,
  type FieldSpec,
  type FormSpec,
  fieldNameOf,
  MAX_RANGES,
  RANGES_FIELD,
} from '../operations/registry/entry.js';
import { entryOfForm, REGISTRY } from '../operations/registry/index.js';
import { CHOICES, type ChoiceName } from './choice-words.js';
import { blockIdOf, type FormInput, type ModalFields, type RangeInput } from './field-names.js';

/** A form's name, as its registry entry declares it (`FormSpec.id`). */
export type FormId = string;

/** Whether a form of this name is in the registry (a stored or echoed name may be stale or forged). */
export function isFormId(id: unknown): id is FormId {
  return typeof id === 'string' && entryOfForm(id) !== undefined;
}

export {
  blockIdOf,
  type DataMode,
  type FormInput,
  type ModalFields,
  type OutputMode,
  type RangeInput,
  textIn,
} from './field-names.js';

/** The names of the fields every form has, whatever its operation, which no argument's field may take. */
export const FORM_OWN_FIELDS: readonly string[] = [
  'channel',
  'repeat',
  RANGES_FIELD,
  ...Object.values(CHOICES).map((c) => c.radio),
];

/**
 * A field a form shows (its time ranges aside), as its entry declares it: an argument's text input or
 * type-ahead select (its element, as the argument's kind shows it), or the radio buttons of one of its
 * either/or choices.
 */
export type ShownField = { name: string; blockId: string } & (
  | { arg: Argument; spec: FieldSpec; element: FieldElement; radio?: undefined }
  | { radio: ChoiceName; arg?: undefined; spec?: undefined; element?: undefined }
);

/** A type-ahead field: the kind of resource it offers, and whether it takes several. */
export type SelectField = ShownField & { arg: Argument; resource: ResourceKind; multi: boolean };

/**
 * The single resources picked in a form so far, by the kind of resource (one the catalog links entries
 * to), which narrow the fields that depend on them.
 */
export type PickedResources = Partial<Record<LinkKind, string>>;

/** The kinds of resource the catalog links entries to: a single pick of one may narrow another field. */
export const LINK_KINDS: readonly LinkKind[] = ['workspace', 'assessment', 'model'];

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

/**
 * The fields a form shows (ranges aside), in the order its operation's form lists them. An argument's
 * field named like a field every form has would take its place: the form is refused.
 */
export function shownFields(kind: FormId): ShownField[] {
  const entry = entryOfForm(kind);
  if (!entry?.form) throw new Error(`no operation has the form ${kind}`);
  return entry.form.fields.flatMap((item): ShownField[] => {
    if ('choice' in item) {
      const radio = CHOICES[item.choice].radio;
      return [{ name: radio, blockId: blockIdOf(radio), radio: item.choice }];
    }
    if (!('arg' in item)) return [];
    const arg = entry.args.find((a) => a.key === item.arg);
    const name = arg && fieldNameOf(arg);
    if (!arg?.field || !name || name === RANGES_FIELD) return [];
    if (FORM_OWN_FIELDS.includes(name))
      throw new Error(`the ${kind} form's ${arg.key} field is named ${name}, which every form has`);
    return [{ name, blockId: blockIdOf(name), arg, spec: arg.field, element: arg.kind.element(arg) }];
  });
}

/** Which text fields and choices a form shows (ranges aside), by name, in order. */
export function fieldsOf(kind: FormId): string[] {
  return shownFields(kind).map((f) => f.name);
}

/** The type-ahead fields of a form; of every form when it is not known (an unreadable view). */
export function selectFields(kind?: FormId): SelectField[] {
  const forms = kind ? [kind] : REGISTRY.flatMap((e) => (e.form ? [e.form.id] : []));
  return forms.flatMap((form) =>
    shownFields(form).flatMap((f): SelectField[] =>
      f.arg && f.element.input === 'select'
        ? [{ ...f, resource: f.element.resource, multi: f.element.multi }]
        : [],
    ),
  );
}

/** Whether the picks of a type-ahead field are labelled with their resources' names (signals), as its lookup says. */
export function takesOwnLabels(field: SelectField): boolean {
  return field.arg.lookup?.labels?.fromName === true;
}

/** The fields of a form whose picks each run with their resource's name as label (`id:label`). */
export function labelledFields(kind: FormId): SelectField[] {
  return selectFields(kind).filter((f) => f.multi && takesOwnLabels(f));
}

/** A form's type-ahead field by name (of any form when the form is not known). */
export function selectFieldOf(kind: FormId | undefined, name: string): SelectField | undefined {
  return selectFields(kind).find((f) => f.name === name);
}

/** The form's values as submitted, from what it holds: the time ranges as the first inputs. */
export function formInputOf(fields: ModalFields): FormInput {
  const ranges: RangeInput[] = (fields.ranges ?? []).map((text, i) => ({
    blockId: rangeBlockId(i + 1),
    text,
  }));
  return withRanges(fields, ranges);
}

/** The form's text fields with these range inputs. */
export function withRanges(fields: ModalFields, ranges: RangeInput[]): FormInput {
  const form: FormInput = { ranges };
  for (const [name, value] of Object.entries(fields)) if (typeof value === 'string') form[name] = value;
  return form;
}

/** How a time-range input was understood (shown under it), or why it was not. */
export interface RangePreview {
  ok: boolean;
  text: string;
}
