import type { RespondArguments, SlashCommand, webApi } from '@slack/bolt';
import type { ServiceClient } from '../api/index.js';
import type { Config } from '../config.js';
import type { CommandSpec } from '../core/grammar/commands.js';
import type { GovernanceCommand, ModalCommand, ParsedCommand } from '../core/grammar/types.js';
import type { OpRequest } from '../core/operations/requests.js';
import type { OpOutcome } from '../core/outcome.js';
import type { Logger } from '../log.js';
import type { Store } from '../store/index.js';
import type { Governance } from './governance/index.js';
import type { UserDirectory } from './users.js';

/** What a listener gets from Bolt for one slash command, passed on to the hooks below. */
export interface CommandInvocation {
  command: SlashCommand;
  client: webApi.WebClient;
  respond: Respond;
}

/** Bolt's `respond()`, or `respondTo(response_url)` in the command worker; the result is not used. */
export type Respond = (message: string | RespondArguments) => Promise<unknown>;

/** `/tsai learn|relearn|score|eval` with required arguments missing. */
export interface MissingArgsRequest extends CommandInvocation {
  which: ModalCommand;
  /** Canonical keys of the arguments not given. */
  missing: string[];
  /** What was given, by canonical key (positional IDs included), for prefilling. */
  given: Record<string, string>;
  /** Keys of `given` that came from channel defaults. */
  fromDefaults: string[];
}

/** `/tsai live start|stop …`, already parsed. */
export interface LiveRequest extends CommandInvocation {
  request: Extract<ParsedCommand, { kind: 'live' }>;
}

export type AuthorizeResult =
  | { allowed: true }
  /** `detailMrkdwn`: a line built by the bot (e.g. `<@U…>` mentions of whom to ask), shown unescaped. */
  | { allowed: false; message: string; detailMrkdwn?: string };

/**
 * Seams for the parts built on top of the command path. Each is optional; without it the bot
 * behaves as issue 4 says (usage error, "approvals not available", everyone allowed).
 */
export interface BotHooks {
  /** Modals part: open the modal for a command with missing arguments. Return false to fall back to a usage error. */
  openModalForMissingArgs?: (req: MissingArgsRequest) => Promise<boolean>;
  /** Approvals part: file a start/stop request. Must reply to the user itself. */
  fileLiveRequest?: (req: LiveRequest) => Promise<void>;
  /**
   * Policy part: may this user run this command in this channel? Called for every command but help,
   * before anything else happens (also before a modal opens; then `parsed` is absent).
   */
  authorize?: (
    req: CommandInvocation & { spec: CommandSpec; parsed?: ParsedCommand },
  ) => Promise<AuthorizeResult>;
  /**
   * Channel-defaults part: the channel's defaults by canonical key (entities comma-separated). They fill
   * arguments the user left out; the reply says which came from the defaults.
   */
  /**
   * Audit part: called after every command that reached the service, with the resolved request
   * (`requestParams` makes it JSON-safe) and its outcome. Failures here are logged, never shown.
   */
  recordOutcome?: (r: CommandInvocation & { request: OpRequest; outcome: OpOutcome }) => Promise<void>;
  channelDefaults?: (channelId: string) => Promise<Record<string, string | undefined> | null>;
  /** Governance part: `/tsai use …`, `/tsai approvals`, `/tsai audit [n]`. Must reply to the user itself. */
  governanceCommand?: (req: CommandInvocation & { request: GovernanceCommand }) => Promise<void>;
}

export interface BotDeps {
  config: Config;
  logger: Logger;
  service: ServiceClient;
  /** The clock; tests pass a fixed one. */
  now: () => Date;
  /** The durable store (approvals, audit, channel defaults); `startAll` and the test harness open it. */
  store?: Store;
  /** Users' zones and names; default: `users.info` through the app's client, cached. */
  users?: UserDirectory;
  hooks?: BotHooks;
  /** Store-backed approvals, policy and audit (src/slack/governance.ts); absent: no approval buttons. */
  governance?: Governance;
  /**
   * Where an acked slash command's follow-up work runs: the command worker (`startAll` with
   * `TSAI_COMMAND_WORKER`, the default). Absent: on this thread, right after the pending acks.
   */
  runCommand?: (command: SlashCommand) => void;
}

/** BotDeps with everything filled in, as listeners see them. */
export interface SlackDeps extends BotDeps {
  users: UserDirectory;
  hooks: BotHooks;
  /** The user's zone, or TSAI_DEFAULT_TIMEZONE when Slack does not know it. */
  zoneOf(userId: string): Promise<string>;
}
