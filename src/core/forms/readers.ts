import { type Argument, type FormField, RANGES_FIELD } from '../operations/registry/entry.js';
import { blockIdOf, type FormInput } from './fields.js';
import { textOf } from './input.js';
import { clipForMessage, idError, parseEntities, parseIdLabelList } from './parse-lists.js';
import { type RangeContext, rangeText, readRanges } from './ranges.js';

/** What a reader is handed: the whole form (a field's value, its block ids), and where its messages go. */
export interface Reading {
  form: FormInput;
  ctx: RangeContext;
  /** Whether the form needs it: the argument is required, or it stands for the side of a choice taken. */
  required: boolean;
  errors: Record<string, string>;
}

/**
 * Reads one argument from its form field: the text its command would hold (`key=<text>`), or undefined
 * when the field is empty or bad, a message then under the field.
 */
type Reader = (arg: Argument, field: FormField, reading: Reading) => string | undefined;

/** The most characters of a free text, as the command takes it, when its argument says nothing. */
const TEXT_MAX = 200;

const nounOf = (arg: Argument) => arg.noun ?? arg.key.replace(/-/g, ' ');
const eg = (arg: Argument) => (arg.example ? `, e.g. ${arg.example}` : '');

/** The one reader of each kind of argument. */
export const READERS: Record<Argument['kind'], Reader> = {
  id: byText((arg, value, required) => {
    if (!value && !required) return { value: undefined };
    const problem = idError(nounOf(arg), value);
    return problem ? { error: problem } : { value };
  }),

  signals: byText((arg, value, required) => {
    if (!value && !required) return { value: undefined };
    const list = parseIdLabelList(value, { noun: nounOf(arg), labelNoun: arg.labelNoun ?? 'label' });
    if (!list.ok) return { error: list.error };
    return {
      value: list.items.map((s) => (s.name === s.signal ? s.signal : `${s.signal}:${s.name}`)).join(','),
    };
  }),

  text: byText((arg, value) => {
    const max = arg.maxLength ?? TEXT_MAX;
    if (value.length > max)
      return { error: `The ${nounOf(arg)} is ${value.length} characters; keep it to ${max}.` };
    return { value: value || undefined };
  }),

  entities: byText((_arg, value, required) => {
    if (!value && !required) return { value: undefined };
    const entities = parseEntities(value);
    return entities.ok ? { value: entities.items.join(',') } : { error: entities.error };
  }),

  word: byText((arg, value, required) => {
    if (!value) return required ? { error: `Give a ${nounOf(arg)}${eg(arg)}` } : { value: undefined };
    const max = arg.maxLength ?? TEXT_MAX;
    if (/\s/.test(value) || value.length > max) {
      return {
        error: `"${clipForMessage(value)}" cannot be a ${arg.key}: one word of at most ${max} characters${eg(arg)}`,
      };
    }
    return { value };
  }),

  range(arg, _field, { form, ctx, required, errors }) {
    const ranges = readRanges(form.ranges, ctx, required, errors);
    if (ranges.length === 0) return undefined;
    if (arg.oneRange && ranges.length > 1) {
      errors[form.ranges[0]!.blockId] = arg.oneRange;
      return undefined;
    }
    return rangeText(form.ranges);
  },
};

/** A reader of a text field: the check sees the trimmed text, and its message goes under the field. */
function byText(
  check: (
    arg: Argument,
    value: string,
    required: boolean,
  ) => { value: string | undefined } | { error: string },
): Reader {
  return (arg, field, { form, required, errors }) => {
    if (field === RANGES_FIELD)
      throw new Error(`the ${arg.kind} argument ${arg.key} cannot read the time ranges`);
    const read = check(arg, textOf(form, field), required);
    if ('error' in read) {
      errors[blockIdOf(field)] = read.error;
      return undefined;
    }
    return read.value;
  };
}
