import type { Shift } from '../../time/index.js';
import type { ResourceKind } from '../catalog/kind.js';
import type { CommandSpec } from './spec.js';

/** A name given where a resource ID goes, e.g. `workspace="Pump station A"`, `signals=temperature`. */
export interface NameRef {
  /** The canonical key of the argument it is given for. */
  key: string;
  /** The name as typed, without its quotes, trimmed. */
  text: string;
  /** The kind of resource it names, as the argument's lookup declares. */
  kind: ResourceKind;
  /** An item of a list labelled with the resource's name (a signal's), not its ID. */
  labelled?: true;
}

/** A list of IDs that names some resources, as parsed: checked for repeats once its names are filled in. */
export interface NamedList {
  key: string;
  /** What an item is called in a refusal: `signal`. */
  noun: string;
  signals: string[];
}

/** An item of a list of IDs (signals, output signals, …): `id[:label]`, the label the ID when none. */
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
  /** `key`: the argument it is about, when it is about one (a form shows it under that field). */
  | { ok: false; kind: 'error'; message: string; spec?: CommandSpec; key?: string }
  /**
   * The command names resources where their IDs go: the surface resolves `names` (never by guessing) and
   * fills them in. `ids`: the resource IDs the command gives, by kind of resource, which may single out
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
      /** The lists that name some, to be checked for repeats once the names are filled in. */
      lists: NamedList[];
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
