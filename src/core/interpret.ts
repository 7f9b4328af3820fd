import type { Store } from '../store/index.js';
import { describeResolved, type ResolvedName, resolveCommandNames } from './catalog/resolve.js';
import { channelDefaultsAsArgs } from './channel-defaults.js';
import type { FormId, ModalFields } from './forms/fields.js';
import { defaultedFields, fieldsFromCommand } from './forms/prefill.js';
import type { CommandSpec } from './grammar/commands.js';
import { fillNames, parseCommand } from './grammar/parse.js';
import type { IdentityAction } from './grammar/types.js';
import type { Operation, OperationResult } from './operations/operation.js';
import type { RequestContext } from './operations/requests.js';
import { resolveCommand } from './operations/resolve.js';
import type { OpFailure } from './outcome.js';

/** Who typed the command, as resolving it needs: their handle for default names, zone and locale. */
export type Person = Omit<RequestContext, 'now'>;

export interface CommandText {
  text: string;
  teamId?: string;
  channelId: string;
  /** Looked up only when the command gets that far (help and usage errors need nobody's zone). */
  person: () => Promise<Person>;
  now: () => Date;
}

/** What a command text comes to, before anything is authorised or run. */
export type Interpretation =
  | { kind: 'help'; topic?: string }
  /** Connect, disconnect or whoami: about whom the person acts as, handled by the identity surface. */
  | { kind: 'identity'; action: IdentityAction }
  /** Schedules and digests, read by core/schedules: `id` the command, `text` what follows its word. */
  | { kind: 'scheduling'; id: string; text: string }
  /** Bad input, with the command's usage and an example: nothing was run. */
  | { kind: 'refused'; failure: OpFailure }
  /** Required arguments are missing: the command's form, prefilled with what was given. */
  | {
      kind: 'form';
      form: FormId;
      spec: CommandSpec;
      fields: ModalFields;
      /** The keys of the arguments a channel's defaults filled in the form. */
      fromDefaults: string[];
      person: Person;
    }
  | { kind: 'run'; operation: Operation; spec: CommandSpec; person: Person; notes: InterpretationNotes };

/** What the person should learn with the outcome: which values were not typed but filled in. */
export interface InterpretationNotes {
  /** `workspace 1353… (channel default)`, one per key a channel default filled. */
  fromDefaults: string[];
  /** The line that says what the quoted names stood for. */
  resolvedNames?: string;
}

/** Builds the failure for a usage problem from the command table. */
export function usageFailure(message: string, spec: CommandSpec | undefined): OpFailure {
  if (!spec) return { ok: false, message, example: '/tsai help' };
  return { ok: false, message, usage: spec.usage, example: spec.examples[0] };
}

/**
 * The one reading of a command text: the channel's defaults fill what was not typed, names given in quotes
 * are looked up in the team's catalog (never a guess) and put in the one parse of the text; then it is
 * help, a usage error, a form to fill in, or an operation resolved in the person's zone.
 */
export async function interpretCommand(store: Store, c: CommandText): Promise<Interpretation> {
  const stored = await store.getChannelDefaults(c.channelId);
  const defaults = channelDefaultsAsArgs(stored);
  const options = defaults ? { defaults } : {};
  let parsed = parseCommand(c.text, options);
  let named: ResolvedName[] = [];
  if (!parsed.ok && parsed.kind === 'names') {
    // Names stand for IDs only within the team's catalog; unknown or ambiguous ones are refused.
    const names = c.teamId
      ? await resolveCommandNames(store, c.teamId, parsed)
      : { ok: false as const, message: 'Names can only be looked up within a Slack team: give the IDs.' };
    if (!names.ok) return { kind: 'refused', failure: usageFailure(names.message, parsed.spec) };
    named = names.resolved;
    parsed = fillNames(parsed, names.names);
  }
  if (!parsed.ok && (parsed.kind === 'error' || parsed.kind === 'names'))
    return { kind: 'refused', failure: usageFailure(parsed.message, parsed.spec) };
  if (parsed.ok && parsed.command.kind === 'help') return { kind: 'help', topic: parsed.command.topic };
  // Before the person is looked up: `connect` opens its form with a trigger that lasts 3 seconds.
  if (parsed.ok && parsed.command.kind === 'identity')
    return { kind: 'identity', action: parsed.command.action };
  if (parsed.ok && parsed.command.kind === 'scheduling') return { ...parsed.command };

  const person = await c.person();
  if (!parsed.ok) {
    return {
      kind: 'form',
      form: parsed.command,
      spec: parsed.spec,
      fields: fieldsFromCommand(parsed.command, parsed.given),
      fromDefaults: defaultedFields(parsed.command, parsed.fromDefaults),
      person,
    };
  }
  const { command, spec, fromDefaults } = parsed;
  if (command.kind === 'help') return { kind: 'help', topic: command.topic };
  if (command.kind === 'identity') return { kind: 'identity', action: command.action };
  if (command.kind === 'scheduling') return { ...command };
  const shifts = stored?.shifts ? { shifts: stored.shifts } : {};
  const resolved = resolveCommand(command, { ...person, now: c.now(), ...shifts });
  if (!resolved.ok) {
    return {
      kind: 'refused',
      failure: {
        ...resolved,
        usage: resolved.usage ?? spec.usage,
        example: resolved.example ?? spec.examples[0],
      },
    };
  }
  const resolvedNames = describeResolved(named);
  return {
    kind: 'run',
    operation: resolved.operation,
    spec,
    person,
    notes: {
      fromDefaults: fromDefaults.map((k) => `${k} ${defaults?.[k] ?? ''} (channel default)`),
      ...(resolvedNames ? { resolvedNames } : {}),
    },
  };
}

/**
 * The notes of an interpretation added to what the runner returned, where its outcome has a place for
 * them; returns the line that must still reach the person when it has none.
 */
export function withNotes(result: OperationResult, notes: InterpretationNotes): string | undefined {
  const service = result.ok && result.kind === 'service' ? result : undefined;
  if (service && notes.fromDefaults.length > 0)
    service.notes = [
      ...(service.notes ?? []),
      `From this channel's defaults: ${notes.fromDefaults.join(', ')}.`,
    ];
  if (!notes.resolvedNames) return undefined;
  if (service) {
    service.notes = [...(service.notes ?? []), notes.resolvedNames];
    return undefined;
  }
  return result.ok ? notes.resolvedNames : undefined;
}
