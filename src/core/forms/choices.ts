import type { Argument } from '../operations/registry/entry.js';
import { type DataMode, FIELD, type FormInput, type OutputMode } from './fields.js';
import { filledBlocks } from './input.js';

/**
 * The either/or choices a form offers, worded once: where an anomaly flow's data comes from (new signals
 * and ranges, or an existing dataspec) and where ANOMALYEVAL writes its outputs (new signals with a
 * prefix, or existing ones). Each argument says which side it is on (`Argument.side`); which operation
 * asks is never looked at. A choice is made by its radio button, else read from what was filled in.
 */
interface Choice<Option extends string> {
  radio: 'dataMode' | 'outputMode';
  /** By the option chosen: what a person is told under a filled field of another option. */
  clearOthers: Record<Option, string>;
  /** The radio unset and both or neither sides filled in: the option taken. Absent: the person is asked. */
  fallback?: Option;
  /** With no fallback: what a person is asked under the filled fields and the radio, or the radio alone. */
  ask?: { both: string; bothRadio: string; neither: string };
}

export const CHOICES = {
  data: {
    radio: 'dataMode',
    clearOthers: {
      new: 'Data is set to "New: signals and time ranges": clear this field, or choose "Reuse".',
      dataspec: 'Data is set to "Reuse an existing dataspec ID": clear this field, or choose "New".',
    },
    fallback: 'new',
  } satisfies Choice<DataMode>,
  outputs: {
    radio: 'outputMode',
    clearOthers: {
      prefix:
        'Outputs go to new signals with a prefix: clear this mapping, or choose "Map to existing signals".',
      map: 'Outputs are mapped to existing signals: clear this prefix, or choose "New signals with a prefix".',
    },
    ask: {
      both: 'Fill in either the output prefix or the mapping to existing signals, not both.',
      bothRadio: 'Choose where the outputs go.',
      neither:
        'Choose where the outputs go: new signals with a prefix (e.g. pump-7/anomaly), or existing signals.',
    },
  } satisfies Choice<OutputMode>,
} as const;

export type ChoiceName = keyof typeof CHOICES;

/** Which side of a choice an argument is on. */
export type ChoiceSide = {
  [C in ChoiceName]: {
    choice: C;
    option: keyof (typeof CHOICES)[C]['clearOthers'];
    /** A detail of its side (a new dataspec's name): never required, and filling it in picks no side. */
    detail?: true;
  };
}[ChoiceName];

/** The option taken of each choice; a choice left out could not be made (the person was asked). */
export type Chosen = Partial<Record<ChoiceName, string>>;

/**
 * Makes each choice among the arguments a form shows: the only side it offers, else the radio's, else
 * the only side filled in, else the fallback; with none of these, the person is asked (into `errors`).
 */
export function choose(args: readonly Argument[], form: FormInput, errors: Record<string, string>): Chosen {
  const chosen: Chosen = {};
  const sides = args.filter((a) => a.side && a.field);
  for (const name of new Set(sides.map((a) => a.side!.choice))) {
    const choice: Choice<string> = CHOICES[name];
    const onIt = sides.filter((a) => a.side!.choice === name);
    const offered = [...new Set(onIt.map((a) => a.side!.option as string))];
    const filled = offered.filter((option) =>
      onIt.some(
        (a) => a.side!.option === option && !a.side!.detail && filledBlocks(form, a.field!.name).length > 0,
      ),
    );
    const radio = form[choice.radio];
    const option =
      offered.length === 1
        ? offered[0]
        : radio && offered.includes(radio)
          ? radio
          : filled.length === 1
            ? filled[0]
            : choice.fallback;
    if (option !== undefined) {
      chosen[name] = option;
      continue;
    }
    if (!choice.ask) continue;
    if (filled.length === 0) errors[FIELD[choice.radio]] = choice.ask.neither;
    else {
      for (const a of onIt)
        for (const block of filledBlocks(form, a.field!.name)) errors[block] = choice.ask.both;
      errors[FIELD[choice.radio]] = choice.ask.bothRadio;
    }
  }
  return chosen;
}

/**
 * Whether a form reads an argument, given the choices made; under a filled field of a side not chosen,
 * what the chosen side says.
 */
export function takes(
  arg: Argument,
  form: FormInput,
  chosen: Chosen,
  errors: Record<string, string>,
): boolean {
  if (!arg.side) return true;
  const option = chosen[arg.side.choice];
  if (option === undefined) return false;
  if (option === arg.side.option) return true;
  const clear = (CHOICES[arg.side.choice].clearOthers as Record<string, string>)[option]!;
  for (const block of filledBlocks(form, arg.field!.name)) errors[block] = clear;
  return false;
}
