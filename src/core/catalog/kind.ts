import type { CatalogKind, CatalogLinks } from '../../store/index.js';
import { EXAMPLE_IDS, isServiceId } from '../ids.js';

/**
 * How an argument's values are looked up, and the kinds of resource the catalog knows by name. An argument
 * of the registry declares its lookup (`Argument.lookup`); the grammar, the resolution of names, the
 * forms, the type-ahead, the fuzz tests and help read it, so no list of keys anywhere says which arguments
 * take names. The same key may take names in one operation and plain text in another.
 */

/** What the IDs of an argument look like, and so how a value is told to be an ID rather than a name. */
export interface IdShape {
  /** Whether a text is such an ID. */
  is(text: string): boolean;
  /**
   * Whether a text can only have been meant as an ID (all digits): one that is not an ID is refused as a
   * bad ID, never looked up as a name.
   */
  meant(text: string): boolean;
  /** What an ID is, for a person: `numbers of 18–19 digits`. */
  described: string;
  /** One that works in an example. */
  example: string;
}

/** The service's IDs: numeric strings of 18–19 digits. */
export const SERVICE_IDS: IdShape = {
  is: isServiceId,
  meant: (text) => /^\d+$/.test(text),
  described: 'numbers of 18–19 digits',
  example: EXAMPLE_IDS.workspace,
};

/** The kinds of resource a catalog entry links to (its store's columns), which may single out another. */
export type LinkKind = keyof CatalogLinks;

/**
 * A kind of the service's resources the catalog knows, declared once (core/kinds/resources.ts for the
 * shipped ones): how people call it, a name one might have, and the other resources that single out one
 * of several of the same name. Its entries are kept under `name`; what records them (an operation's
 * `catalog`, an output's `catalog`) names this declaration.
 */
export interface ResourceKind {
  /** What the catalog keeps its entries under: `workspace`. */
  name: CatalogKind;
  /** What a person calls one, and several: `workspace`, `workspaces`. */
  one: string;
  many: string;
  /** A name such a resource might have, for an example that gives one by name. */
  example: string;
  /**
   * The resources, given or picked beside it, that narrow it, first that counts first: a model is one of
   * an assessment's, else of a workspace's. They single out one of several of the same name, and narrow a
   * form's options. Each must be a kind the catalog links entries to (`LinkKind`).
   */
  narrowedBy?: readonly LinkKind[];
}

/**
 * How an argument that takes IDs is looked up: which kind of resource its names stand for (none: IDs
 * alone), one or a list, how an ID is told from a name, and whether a list's items carry labels.
 * Wherever a name may stand, a value that cannot be an ID is read as one (quoted only when it holds
 * spaces); it is looked up in the team's catalog before the command runs, and never guessed.
 */
export interface Lookup {
  /** The kind of resource its names stand for; absent: it takes IDs alone (a flow's). */
  names?: ResourceKind;
  /** What its IDs look like (default: the service's). */
  ids?: IdShape;
  /** It takes several, separated by commas. */
  list?: true;
  /**
   * A list's items may carry a label after a colon (`id:label`): what a person calls it, and whether an
   * item given by name is labelled with the resource's name (a signal's label) or with its ID (an output
   * signal's label is the model's output name, not the signal's).
   */
  labels?: { noun: string; fromName: boolean };
}

/** The ID shape of a lookup. */
export const idsOf = (lookup: Lookup | undefined): IdShape => lookup?.ids ?? SERVICE_IDS;

/** `a`, or `an` before a vowel. */
export const article = (word: string) => (/^[aeiou]/i.test(word) ? 'an' : 'a');

/** A name as a command takes it: quoted when it holds spaces or what the grammar reads otherwise. */
export function typedName(name: string): string {
  return /[\s"'=,]/.test(name) ? `"${name.replace(/"/g, "'")}"` : name;
}
