/**
 * The single source of truth for `/tsai help` and for every usage error: one entry per subcommand, the
 * service's operations read from their registry entries.
 * Every example here must parse (a test checks that).
 */
/**
 * One way people ask for a command in a sentence (a plain request in a mention, a direct message or the
 * assistant pane): phrases of a few words, in the order people say them (`a`, `the`, `of`… may be left
 * out or others put between), and for a command that takes a word after its own (`live start|stop`) the
 * word they stand for.
 */
export interface Said {
  phrases: readonly string[];
  word?: string;
}

export interface CommandSpec {
  /** Stable identifier, also the `help` topic: 'workspace create', 'eval', … */
  id: string;
  /** Words that select the command after `/tsai`. */
  words: string[];
  usage: string;
  summary: string;
  examples: string[];
  /** Changes something at the service (posted in the channel, subject to TSAI_OPERATORS). */
  mutating: boolean;
  /** Where it is answered, when not as `mutating` says (in the channel, else only to the person). */
  answers?: string;
  /** Canonical option keys (after normalisation) this command accepts. */
  keys: string[];
  /**
   * The keys that may stand instead of a key when it is missing (the other side of an either/or choice the
   * person must make: `prefix=` or `outputs=`).
   */
  alternatives?: Record<string, string[]>;
  /** Other spellings of its keys (normalised: lower case, `_` as `-`), each to its key: `desc` -> `description`. */
  aliases?: Record<string, string>;
  /** Keys whose value may run on over unquoted words: `range=last 3 days`. */
  freeText?: string[];
  /** Keys a channel default (`/tsai use …`) may fill when not given. */
  defaults?: string[];
  /** The key the first positional argument stands for (a default never fills it when a positional is given). */
  positional?: string;
  /** The text after the words is the command's own to read (a schedule carries a whole command). */
  raw?: boolean;
  /**
   * Its arguments, one line each, as `/tsai help <command>` explains them: how its usage line shows it,
   * what it is for and, where a name may stand for its ID, that it may be given by name.
   */
  arguments?: readonly { usage: string; help: string }[];
  /**
   * How people ask for it in plain words (core/plain/ reads sentences by these alone). Absent: it is only
   * ever typed as a command, never read from a sentence.
   */
  said?: readonly Said[];
}
