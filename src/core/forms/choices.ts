import { type Argument, fieldNameOf } from '../operations/registry/entry.js';
import { CHOICES, type Choice, type ChoiceName } from './choice-words.js';
import { blockIdOf, type FormInput } from './field-names.js';
import { filledBlocks } from './input.js';

export { CHOICES, type ChoiceName, type ChoiceSide } from './choice-words.js';

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
        (a) => a.side!.option === option && !a.side!.detail && filledBlocks(form, fieldNameOf(a)!).length > 0,
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
    if (filled.length === 0) errors[blockIdOf(choice.radio)] = choice.ask.neither;
    else {
      for (const a of onIt)
        for (const block of filledBlocks(form, fieldNameOf(a)!)) errors[block] = choice.ask.both;
      errors[blockIdOf(choice.radio)] = choice.ask.bothRadio;
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
  for (const block of filledBlocks(form, fieldNameOf(arg)!)) errors[block] = clear;
  return false;
}
