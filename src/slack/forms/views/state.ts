import { idsOf } from '../../../core/catalog/kind.js';
import { CHOICES } from '../../../core/forms/choice-words.js';
import {
  blockIdOf,
  type FormId,
  type FormInput,
  LINK_KINDS,
  type ModalFields,
  type PickedResources,
  rangeBlockId,
  selectFields,
  shownFields,
  withRanges,
} from '../../../core/forms/fields.js';
import type { ModalMeta } from './metadata.js';

/** The part of a view's `state.values` entry the modals read (Bolt's ViewStateValue, loosely). */
export interface StateValue {
  type?: string;
  value?: string | null;
  selected_option?: { value: string } | null;
  selected_options?: { value: string }[] | null;
  selected_conversation?: string | null;
}
export type StateValues = Record<string, Record<string, StateValue>>;

/** The one element of an input block (each of our input blocks has exactly one). */
function elementState(values: StateValues, blockId: string): StateValue | undefined {
  const inner = values[blockId];
  if (!inner) return undefined;
  return Object.values(inner)[0];
}

function textOf(values: StateValues, blockId: string): string | undefined {
  const v = elementState(values, blockId);
  return typeof v?.value === 'string' ? v.value : undefined;
}

const optionValue = (o: unknown): string | undefined => {
  const v = (o as { value?: unknown } | null | undefined)?.value;
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
};

/**
 * A type-ahead field as text, the way it used to be typed: the picked option's value, or one `id[:label]`
 * line per pick. A view from before the fields were selects still carries typed text, which reads as is.
 */
function pickedText(values: StateValues, blockId: string, multi: boolean): string | undefined {
  const v = elementState(values, blockId);
  if (!v) return undefined;
  if (multi && Array.isArray(v.selected_options)) {
    const picks = v.selected_options.map(optionValue).filter((x): x is string => x !== undefined);
    return picks.length ? picks.join('\n') : undefined;
  }
  if (!multi && v.selected_option !== undefined) return optionValue(v.selected_option);
  return typeof v.value === 'string' ? v.value : undefined;
}

/**
 * The single resources picked in a view (a workspace, a model, an assessment), by the kinds of the form's
 * type-ahead fields (of every form's, when the form is not known).
 */
export function pickedResources(form: FormId | undefined, values: StateValues | undefined): PickedResources {
  const out: PickedResources = {};
  for (const kind of LINK_KINDS) {
    for (const field of selectFields(form).filter((f) => f.resource.name === kind && !f.multi)) {
      const v = pickedText(values ?? {}, field.blockId, false)?.trim();
      if (v && idsOf(field.arg.lookup).is(v)) out[kind] ??= v;
    }
  }
  return out;
}

/**
 * Reads everything typed into a modal: `fields` (to rebuild or reopen the view) and `form` (to validate).
 * Missing or odd entries read as empty, never as an exception.
 */
export function readModalState(
  meta: ModalMeta,
  values: StateValues | undefined,
): { fields: ModalFields; form: FormInput } {
  const v = values ?? {};
  const fields: ModalFields = {};
  for (const { name, blockId, radio, element } of shownFields(meta.kind)) {
    if (radio) {
      // A radio holds one of its choice's options, or nothing.
      const selected = elementState(v, blockId)?.selected_option?.value;
      if (selected && Object.hasOwn(CHOICES[radio].options, selected)) fields[name] = selected;
      continue;
    }
    const text = element.input === 'select' ? pickedText(v, blockId, element.multi) : textOf(v, blockId);
    if (text !== undefined && text !== '') fields[name] = text;
  }
  if (!meta.channel) {
    const channel = elementState(v, blockIdOf('channel'))?.selected_conversation;
    if (typeof channel === 'string' && channel) fields.channel = channel;
  }
  const repeat = textOf(v, blockIdOf('repeat'))?.trim();
  if (repeat) fields.repeat = repeat;
  const ranges = meta.ranges.map((key) => ({
    blockId: rangeBlockId(key),
    text: textOf(v, rangeBlockId(key)) ?? '',
  }));
  fields.ranges = ranges.map((r) => r.text);
  return { fields, form: withRanges(fields, ranges) };
}
