/**
 * The single source of truth for `/tsai help` and for every usage error: one entry per subcommand, the
 * service's operations read from their registry entries.
 * Every example here must parse (a test checks that).
 */
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
  /** Canonical option keys (after normalisation) this command accepts. */
  keys: string[];
  /** Keys whose value may run on over unquoted words: `range=last 3 days`. */
  freeText?: string[];
  /** Keys a channel default (`/tsai use …`) may fill when not given. */
  defaults?: string[];
  /** The key the first positional argument stands for (a default never fills it when a positional is given). */
  positional?: string;
}
