import { type FormField, RANGES_FIELD } from '../operations/registry/entry.js';
import { blockIdOf, type FormInput, textIn } from './field-names.js';

/** Where a form field's message goes (its block_id): for the time ranges, the first range input. */
export function blockOf(form: FormInput, field: FormField): string | undefined {
  return field === RANGES_FIELD ? form.ranges[0]?.blockId : blockIdOf(field);
}

/** The blocks of a field that hold something: one for a text field, each range input that is filled. */
export function filledBlocks(form: FormInput, field: FormField): string[] {
  if (field === RANGES_FIELD) return form.ranges.filter((r) => r.text.trim() !== '').map((r) => r.blockId);
  return textOf(form, field) !== '' ? [blockIdOf(field)] : [];
}

/** A text field as typed, trimmed ('' when empty or not shown). */
export function textOf(form: FormInput, field: FormField): string {
  return (textIn(form, field) ?? '').trim();
}
