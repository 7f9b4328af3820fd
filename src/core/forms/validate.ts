import type { Shift } from '../../time/index.js';
import { operationFromArgs } from '../operations/from-args.js';
import type { OpRequest } from '../operations/operation.js';
import { type Argument, fieldNameOf, type OperationEntry } from '../operations/registry/entry.js';
import { entryOfForm } from '../operations/registry/index.js';
import { choose, takes } from './choices.js';
import { blockIdOf, type FormId, type FormInput } from './fields.js';
import { blockOf, textOf } from './input.js';

export type { FormInput };

export interface FormContext {
  now: Date;
  /** The user's IANA zone; wall-clock times in ranges are read in it. */
  timeZone: string;
  /** The user's Slack locale ("en-GB"): the day/month order of numeric dates. Absent: unknown. */
  locale?: string;
  /** The shifts of the channel the form runs in, which its ranges may name ("last shift"). */
  shifts?: readonly Shift[];
  /** Flow name used when the name field is empty, e.g. "learn by @alice 2026-11-22 09:14Z". */
  defaultName: string;
  /** True when the modal asked for the channel (opened from a global shortcut). */
  needsChannel: boolean;
}

export type FormOutcome =
  | { ok: true; request: OpRequest; channel?: string }
  | { ok: false; errors: Record<string, string> };

/**
 * Checks a whole modal submission and returns either the resolved request or a message for EVERY bad
 * field at once, keyed by the input's block_id. The form's operation is read from its registry entry:
 * each argument its form shows is read from its field by the argument's kind (core/kinds/), the either/or
 * choices as choices.ts words them; the values then become the arguments of the operation's command,
 * which its own parser and resolver turn into the request, as for the typed command, so that a form and
 * a command create identical flows. Nothing here talks to Slack or the service.
 */
export function validateModal(kind: FormId, form: FormInput, ctx: FormContext): FormOutcome {
  const entry = entryOfForm(kind);
  if (!entry) throw new Error(`no operation has the form ${kind}`);
  const errors: Record<string, string> = {};

  let channel: string | undefined;
  if (ctx.needsChannel) {
    channel = textOf(form, 'channel') || undefined;
    if (!channel) errors[blockIdOf('channel')] = 'Choose the channel where the result is posted.';
  }

  // An empty name is the form's default name, which names the new dataspec too, as a typed name would.
  const filled: FormInput = { ...form, name: textOf(form, 'name') || ctx.defaultName };
  const shown = entry.args.filter((a) => a.field);
  const chosen = choose(shown, filled, errors);
  const given: Record<string, string> = {};
  for (const arg of shown) {
    if (!takes(arg, filled, chosen, errors)) continue;
    const required = arg.required || (arg.side !== undefined && !arg.side.detail);
    const field = fieldNameOf(arg)!;
    const value = arg.kind.fromForm(arg, {
      text: textOf(filled, field),
      ranges: filled.ranges,
      ctx,
      required,
      block: blockOf(filled, field) ?? blockIdOf(field),
      errors,
    });
    if (value !== undefined) given[arg.key] = value;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };

  const built = requestOf(entry, given, ctx);
  if ('refused' in built)
    return { ok: false, errors: { [blockFor(shown, built.argument, filled)]: built.refused } };
  return { ok: true, request: built.request, channel };
}

/** The request, built as the typed command's is: its entry's parser, then its resolver. */
function requestOf(
  entry: OperationEntry<unknown, unknown>,
  given: Record<string, string>,
  ctx: FormContext,
): { request: OpRequest } | { refused: string; argument?: string } {
  const built = operationFromArgs(entry, given, {
    now: ctx.now,
    timeZone: ctx.timeZone,
    ...(ctx.locale ? { locale: ctx.locale } : {}),
    ...(ctx.shifts ? { shifts: ctx.shifts } : {}),
  });
  if (!built.ok) return { refused: built.message, ...(built.argument ? { argument: built.argument } : {}) };
  return { request: built.operation as OpRequest };
}

/**
 * Where a refusal the fields' own checks did not foresee is shown: under the field of the argument it is
 * about (the parser or resolver says which), else under the form's first field.
 */
function blockFor(shown: readonly Argument[], key: string | undefined, form: FormInput): string {
  const about = shown.find((a) => a.key === key) ?? shown[0]!;
  return blockOf(form, fieldNameOf(about)!) ?? blockIdOf('name');
}
