import { maskCommandText } from '../gate/mask.js';
import { type Argument, fieldNameOf, RANGES_FIELD } from '../operations/registry/entry.js';
import { entryOfForm } from '../operations/registry/index.js';
import { choose, takes } from './choices.js';
import { type FormId, type FormInput, formInputOf, type ModalFields } from './fields.js';
import { textOf } from './input.js';

/**
 * The `/tsai` command equivalent to a modal's fields, shown under results ("Run by @alice: …") as the
 * command path quotes the typed command; it also teaches the one-line form. Each argument the form
 * shows and takes (its side of a choice chosen as the submission's is) is written as its command gives it.
 * A token-like value typed into a field is masked here, as a typed command's echo is: this line is shown
 * in the channel, kept as the flow's "asked" and logged by Slack's client.
 */
export function commandLineOf(kind: FormId, f: ModalFields): string {
  const entry = entryOfForm(kind);
  if (!entry) throw new Error(`no operation has the form ${kind}`);
  const form = formInputOf(f);
  const shown = entry.args.filter((a) => a.field);
  const chosen = choose(shown, form, {});
  const parts: string[] = ['/tsai', ...entry.command.words];
  for (const arg of shown) {
    if (!takes(arg, form, chosen, {})) continue;
    const value = asCommand(arg, form);
    if (value) parts.push(arg.positional ? value : `${arg.key}=${quote(value)}`);
  }
  return maskCommandText(parts.join(' ')).text;
}

/** A field's value as the command takes it: ranges `;`-separated, the rest as the argument's kind writes it. */
function asCommand(arg: Argument, form: FormInput): string {
  const field = fieldNameOf(arg)!;
  if (field === RANGES_FIELD) {
    return arg.kind.toCommand(
      form.ranges
        .map((r) => r.text.trim())
        .filter(Boolean)
        .join('; '),
    );
  }
  return arg.kind.toCommand(textOf(form, field));
}

function quote(v: string): string {
  return /[\s"'=]/.test(v) ? `"${v.replace(/"/g, "'")}"` : v;
}
