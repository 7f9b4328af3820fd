import type { Shift } from '../../time/index.js';
import type { CommandSpec } from './spec.js';

/** A name given in quotes where a resource ID goes, e.g. `workspace="Pump station A"`. */
export interface NameRef {
  /** The canonical key it stands for: workspace, model, assessment, datastream, dataspec, signals, outputs. */
  key: string;
  /** The name as typed, without its quotes, trimmed. */
  text: string;
}

/** A signal (or output signal) reference: `id[:label]`. */
export interface SignalRef {
  signal: string;
  name: string;
}

/**
 * Data for anomaly flows: signals + time-range text (parsed later, in the user's zone), and the new
 * dataspec's name when one is given; or a dataspec ID.
 */
export type DataArg =
  | { kind: 'inline'; signals: SignalRef[]; rangeText: string; dataspecName?: string }
  | { kind: 'dataspec'; dataspecId: string };

export type OutputArg = { kind: 'prefix'; prefix: string } | { kind: 'signals'; signals: SignalRef[] };

/**
 * The service operations' commands as parsed, which the registry declares (core/operations/registry/
 * index.ts adds them here), so that the grammar knows them without reading the registry.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by the registry's declaration merging
export interface ServiceCommands {}

/** A command as parsed: help, a service operation's (its registry entry's), or one about the bot's own state. */
export type ParsedCommand =
  | { kind: 'help'; topic?: string }
  | ServiceCommands[keyof ServiceCommands]
  | { kind: 'flows'; limit?: number }
  | GovernanceCommand
  | IdentityCommand
  /** Schedules and digests: `text` (after the command word) is read by core/schedules. */
  | { kind: 'scheduling'; id: string; text: string };

/** Whom the person acts as at the service: never an operation, never sent to the service as typed. */
export type IdentityCommand = { kind: 'identity'; action: IdentityAction };
export type IdentityAction = 'connect' | 'disconnect' | 'whoami' | 'setup';

/** Commands about the bot's own state (channel defaults, approvals, audit log): never reach the service. */
export type GovernanceCommand =
  | { kind: 'use'; action: 'show' }
  | { kind: 'use'; action: 'clear' }
  | {
      kind: 'use';
      action: 'set';
      values: {
        workspace?: string;
        datastream?: string;
        model?: string;
        assessment?: string;
        entities?: string[];
        /** The channel's shifts, by start (docs/time-ranges.md, Shifts). */
        shifts?: Shift[];
      };
    }
  | { kind: 'approvals' }
  | { kind: 'audit'; limit?: number };

export type ParseOutcome =
  | {
      ok: true;
      command: ParsedCommand;
      spec: CommandSpec;
      /** Keys filled from channel defaults rather than typed (empty when none). */
      fromDefaults: string[];
    }
  | { ok: false; kind: 'error'; message: string; spec?: CommandSpec }
  /**
   * The command names resources in quotes where their IDs go: the surface resolves `names` (never by
   * guessing) and parses again with them. `ids`: the resource IDs the command gives, which may single out
   * one of several resources of the same name.
   */
  | {
      ok: false;
      kind: 'names';
      spec: CommandSpec;
      names: NameRef[];
      ids: Record<string, string>;
      /** Which names are to be looked up, for a surface that cannot look them up. */
      message: string;
      /** The command as parsed, each name a placeholder until `fillNames` puts in what it stands for. */
      parsed: Extract<ParseOutcome, { ok: true } | { kind: 'missing' }>;
      /** The signal lists that name some, to be checked for repeats once the names are filled in. */
      lists: { key: string; signals: string[] }[];
    }
  | {
      ok: false;
      kind: 'missing';
      /** The form that asks for them: its registry entry's (`FormSpec.id`). */
      command: string;
      spec: CommandSpec;
      /** Canonical keys of the required arguments not given, e.g. ['workspace', 'range']. */
      missing: string[];
      /** Everything that was given, by canonical key (positional IDs included: model, assessment). */
      given: Record<string, string>;
      /** Keys of `given` that came from channel defaults. */
      fromDefaults: string[];
      message: string;
    };
