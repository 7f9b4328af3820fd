import { maskValues } from '../gate/mask.js';
import { fieldNameOf, RANGES_FIELD } from '../operations/registry/entry.js';
import { entryOfForm } from '../operations/registry/index.js';
import { CHOICES } from './choices.js';
import { type FormId, MAX_RANGES, type ModalFields } from './fields.js';

/**
 * Turns what a `/tsai learn|relearn|score|eval` command gave (canonical keys, as the command parser
 * reports them for a command with arguments missing, channel defaults already applied) into modal fields:
 * each argument its form shows into its field, the side of a choice it stands for into the choice's radio
 * (else the choice's fallback, when the form offers both sides).
 */
export function fieldsFromCommand(kind: FormId, given: Record<string, string>): ModalFields {
  const entry = entryOfForm(kind);
  if (!entry) throw new Error(`no operation has the form ${kind}`);
  const f: ModalFields = {};
  const shown = entry.args.filter((a) => a.field);
  const offered = (choice: keyof typeof CHOICES) =>
    new Set(shown.filter((a) => a.side?.choice === choice).map((a) => a.side!.option)).size > 1;
  for (const arg of shown) {
    const value = given[arg.key]?.trim();
    if (!value) continue;
    const field = fieldNameOf(arg)!;
    if (field === RANGES_FIELD) {
      const ranges = value
        .split(/[;\n]/)
        .map((s) => s.trim())
        .filter(Boolean);
      if (ranges.length > 0) f.ranges = ranges.length > MAX_RANGES ? [value] : ranges;
    } else f[field] = arg.kind.toForm(value);
    if (arg.side && !arg.side.detail && offered(arg.side.choice))
      Object.assign(f, { [CHOICES[arg.side.choice].radio]: arg.side.option });
  }
  for (const [name, choice] of Object.entries(CHOICES)) {
    const fallback = 'fallback' in choice ? choice.fallback : undefined;
    if (fallback && !f[choice.radio] && offered(name as keyof typeof CHOICES))
      Object.assign(f, { [choice.radio]: fallback });
  }
  // A token typed into the command is not carried into the form that finishes it (nor its kept draft).
  return maskValues(f).value;
}

/**
 * Which of the arguments a form shows a channel's defaults filled (`fromDefaults`: the command's keys),
 * by key, in the form's order: what the form's note names.
 */
export function defaultedFields(kind: FormId, keys: readonly string[]): string[] {
  const entry = entryOfForm(kind);
  return (entry?.args ?? []).filter((a) => a.field && keys.includes(a.key)).map((a) => a.key);
}
