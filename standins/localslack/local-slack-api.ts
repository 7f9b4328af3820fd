import type { FaultSpec, InjectedFault } from './faults.js';
import type {
  FunctionDefinition,
  FunctionExecution,
  WorkflowDefinition,
  WorkflowRun,
  WorkflowRunView,
} from './functions.js';
import type { InstallTarget, LocalInstall } from './installs.js';
import type { OAuthApp } from './oauth.js';
import type { RateLimitConfig, RateLimitOptions } from './rate-limits.js';
import type { SlackState } from './state.js';
import type {
  ApiCall,
  AppSettings,
  Delivery,
  EventDelivery,
  LocalChannel,
  LocalEnterprise,
  LocalMessage,
  LocalSlackSnapshot,
  LocalTeam,
  LocalUser,
  LocalUsergroup,
  OpenView,
  PaneOpened,
  ResponseUrlCall,
} from './types.js';

export interface LocalSlackOptions {
  signingSecret: string;
  botToken: string;
  /** Full URL of the bot's events endpoint, e.g. `http://127.0.0.1:3000/slack/events`. */
  botEndpoint?: string;
  users?: LocalUser[];
  channels?: LocalChannel[];
  usergroups?: LocalUsergroup[];
  port?: number;
  host?: string;
  /** trigger_id lifetime; Slack's is 3000 ms. */
  triggerTtlMs?: number;
  /** How long the stand-in waits for the bot's ack; Slack's deadline is 3000 ms. */
  ackTimeoutMs?: number;
  /**
   * The command's "Escape channels, users, and links" (`should_escape`) setting; default false, as in a
   * manifest that omits it. `&`, `<`, `>` are always entity-encoded, as Slack does.
   */
  shouldEscape?: boolean;
  /** Clock for trigger_id and response_url expiry and rate limits (ms). Request signing always uses the real clock. */
  now?: () => number;
  /** Slack's rate limits (off by default): `true` for Slack's figures, or options replacing some. */
  rateLimits?: boolean | RateLimitOptions;
  /** The app's manifest settings: Home and Messages tabs (both on by default). */
  app?: Partial<AppSettings>;
  /** The manifest's `functions` (Workflow Builder steps), keyed by callback_id. */
  functions?: Record<string, FunctionDefinition>;
  /**
   * More workspaces beside the stand-in's own (T0LOCAL, where the bot token is installed); people and
   * channels name theirs (`teamId`, `teams`). A workspace of an organisation names it (`enterpriseId`).
   */
  teams?: LocalTeam[];
  /** Enterprise Grid organisations. */
  enterprises?: LocalEnterprise[];
  /** "Add to Slack": the app's client ID and secret, and its redirect URL (`configureOAuth`). */
  oauth?: OAuthApp;
}

/** What came of `installApp`: the page the browser ended on, and the installation made, if any. */
export interface InstallOutcome {
  /** The bot's answer to Slack's redirect (or to the install page, when it went no further). */
  status: number;
  page: string;
  install?: LocalInstall;
}

/** How the workspace regards the bot's token: `revoked` answers `token_revoked`, `inactive` `account_inactive`. */
export type TokenStatus = 'active' | 'revoked' | 'inactive';

export interface SendEventOptions {
  /** The installation it is delivered for (default: the one serving the event's person, else the stand-in's own). */
  install?: LocalInstall;
  /** Whose workspace it happens in, when the event itself names nobody. */
  user?: string;
  /** Default: a fresh `Ev…` id. Reuse one with `retryNum` to redeliver an event as Slack's retries do. */
  eventId?: string;
  /** Sent as X-Slack-Retry-Num (with X-Slack-Retry-Reason, default `http_timeout`). */
  retryNum?: number;
  retryReason?: string;
  /**
   * When Slack made the event (`event_time`, epoch seconds; default now): an event delivered late, or
   * retried, carries the time it was made, not the time it arrives.
   */
  eventTime?: number;
}

export interface SignedPostOptions {
  /** Seconds; `null` omits the header. Default: now. */
  timestamp?: number | null;
  /** `null` omits the header; a string is sent as is. Default: the correct signature. */
  signature?: string | null;
  contentType?: string;
  /** More headers, e.g. X-Slack-Retry-Num. */
  headers?: Record<string, string>;
}

export type WaitPredicate<T> = (slack: LocalSlack) => T | undefined | null | false;

export interface LocalSlack {
  /** Base URL; the Web API is at `${url}/api/`. */
  readonly url: string;
  readonly apiUrl: string;
  readonly botUserId: string;
  readonly botId: string;
  readonly teamId: string;
  readonly appId: string;
  readonly state: SlackState;
  /** Every Web API call in order; the token is never recorded. */
  readonly calls: ApiCall[];
  /** Every POST to a response_url in order. */
  readonly responses: ResponseUrlCall[];
  /** Every Events API delivery in order. */
  readonly events: EventDelivery[];
  setBotEndpoint(url: string): void;
  /** `text` is what the user typed; it is encoded as Slack does (see `shouldEscape`) unless `rawText`. */
  sendCommand(o: {
    user: string;
    channel: string;
    text: string;
    command?: string;
    shouldEscape?: boolean;
    rawText?: boolean;
    /** The Slack workspace the command comes from, as an app installed in several would see it. */
    teamId?: string;
  }): Promise<Delivery>;
  clickButton(o: {
    user: string;
    channel: string;
    messageTs: string;
    actionId: string;
    blockId?: string;
    value?: unknown;
    /** The clicker's Slack workspace, when not the stand-in's own (a member of a shared channel's other team). */
    teamId?: string;
  }): Promise<Delivery>;
  sendViewAction(o: {
    user: string;
    viewId: string;
    actionId: string;
    blockId: string;
    value?: unknown;
  }): Promise<Delivery>;
  submitView(o: {
    user: string;
    viewId: string;
    values?: Record<string, Record<string, unknown>>;
  }): Promise<Delivery>;
  /** The user closes (cancels) the top modal; sends view_closed when the view asked for notify_on_close. */
  closeView(o: { user: string; viewId: string }): Promise<Delivery | undefined>;
  /**
   * Stores what the user typed into a view without sending anything (input blocks, as in Slack). For a
   * type-ahead select the value is an offered option's value (or the option), a list for the multi select.
   */
  typeIntoView(o: { user: string; viewId: string; blockId: string; actionId: string; value: unknown }): void;
  /**
   * The user picks options the app offered in a type-ahead select of a view (`external_select`: one
   * value, `multi_external_select`: any number; `[]` clears). Stored with the app's text, so state.values
   * carries `selected_option(s)` as Slack sends them; where Slack would send block_actions (actions
   * blocks, accessories, `dispatch_action` inputs) it is delivered and returned.
   */
  pickOptions(o: {
    user: string;
    viewId: string;
    blockId: string;
    actionId: string;
    values: string[];
  }): Promise<Delivery | undefined>;
  sendShortcut(o: { user: string; callbackId: string; channel?: string }): Promise<Delivery>;
  /**
   * The user types `value` into a type-ahead select: Slack's block_suggestion, from a view (`viewId`) or a
   * message (`channel` + `messageTs`). Below the element's `min_query_length` nothing is sent
   * (`delivered: false`), as in Slack. The app's options come back in `options` (and, for a view, become
   * pickable); an answer breaking Slack's option limits gives `errors._`.
   */
  sendOptionsRequest(o: {
    user: string;
    actionId: string;
    blockId: string;
    value: string;
    viewId?: string;
    channel?: string;
    messageTs?: string;
  }): Promise<Delivery>;
  /** An Events API delivery: a signed JSON `event_callback` envelope around `event`. */
  sendEvent(event: Record<string, unknown>, o?: SendEventOptions): Promise<Delivery>;
  /**
   * A workflow reaches one of the app's steps: a new execution, delivered as `function_executed` with an
   * execution token that lasts 15 minutes on the `now` clock, or until the step completes.
   */
  runFunction(o: {
    callbackId: string;
    user: string;
    inputs: Record<string, unknown>;
  }): Promise<FunctionExecution>;
  /** Runs a workflow built of the app's steps: each step starts when the one before completes, its inputs given or taken from earlier steps' outputs. */
  runWorkflow(o: { user: string; workflow: WorkflowDefinition }): Promise<WorkflowRun>;
  execution(id: string): FunctionExecution | undefined;
  workflow(id: string): WorkflowRun | undefined;
  /** Every workflow run, newest first, as a UI shows it. */
  workflows(): WorkflowRunView[];
  /** The manifest functions the app offers (replace them with `setFunctions`). */
  functions(): Record<string, FunctionDefinition>;
  setFunctions(definitions: Record<string, FunctionDefinition>): void;
  /** The user opens the app's Home (or Messages) tab: `app_home_opened`, sent on every visit as Slack does. */
  openHome(o: { user: string; tab?: 'home' | 'messages' }): Promise<Delivery>;
  /**
   * A user writes a message in a channel, a thread (`threadTs`) or their direct messages with the app
   * (`channel`: `D<user>` or their own ID). The text is written as Slack's client writes it (`&<>` as
   * entities, `@tsai` as `<@U0LOCALBOT>`, `#channel` and links as references) unless `rawText`. Slack then
   * tells the app, as its subscriptions ask (`AppSettings.botEvents`): `app_mention` when the message
   * mentions the bot, `message` (`channel_type: im`) in its direct messages (with a hidden
   * `message_changed` of the parent for a thread reply there); the delivery comes after this returns.
   */
  postUserMessage(o: {
    user: string;
    channel: string;
    text: string;
    threadTs?: string;
    rawText?: boolean;
  }): LocalMessage;
  /**
   * A user edits their message: `message_changed` (with `edited`) in direct messages; in a channel,
   * `app_mention` again, with `edited`, when the new text mentions the bot.
   */
  editUserMessage(o: {
    user: string;
    channel: string;
    ts: string;
    text: string;
    rawText?: boolean;
  }): LocalMessage;
  /** A user deletes their message: `message_deleted` in direct messages; nothing is told of a channel's. */
  deleteUserMessage(o: { user: string; channel: string; ts: string }): void;
  /**
   * A user opens the app's assistant pane, viewing `channel` (or none): a new thread in their DM with the
   * app, and `assistant_thread_started` with that context. Needs `AppSettings.assistantView` (the
   * manifest's `features.assistant_view`). They write in it with `postUserMessage` (`threadTs`).
   */
  openAssistant(o: { user: string; channel?: string }): Promise<PaneOpened>;
  /** The user moves to `channel` (or none) with their pane thread open: `assistant_thread_context_changed`. */
  changeAssistantContext(o: { user: string; threadTs: string; channel?: string }): Promise<PaneOpened>;
  signedPost(path: string, rawBody: string, o?: SignedPostOptions): Promise<Delivery>;
  /** Messages `user` sees in `channel` (top level, or one thread when threadTs is given). */
  messages(channel: string, o?: { user?: string; threadTs?: string }): LocalMessage[];
  topView(user: string): OpenView | undefined;
  snapshot(viewer?: string): LocalSlackSnapshot;
  /**
   * Makes Web API calls (or response_url posts, `method: 'response_url'`) fail: the next `times` (default
   * 1, or `always` until cleared) matching calls, optionally only for one `channel` or `user`, answer a
   * platform error (HTTP 200 `{ok:false,error}`), a 429 with Retry-After, or a 5xx. Tried in the order added.
   */
  injectFault(f: FaultSpec): InjectedFault;
  listFaults(): InjectedFault[];
  /** Removes all faults, or those with this id or method; returns how many. */
  clearFaults(filter?: { id?: number; method?: string }): number;
  /** `injectFault({ method, ...f })` for the next call only. */
  failNext(method: string, f: { error?: string; status?: number; retryAfter?: number }): void;
  /** Turns Slack's rate limits on (`true` or options) or off; counting starts afresh. */
  setRateLimits(o: boolean | RateLimitOptions): RateLimitConfig;
  rateLimits(): RateLimitConfig;
  /** Revokes (or deactivates, or restores) the bot's token: every call answers with its error meanwhile. */
  setTokenStatus(status: TokenStatus): void;
  tokenStatus(): TokenStatus;
  /** "Add to Slack": the app's client ID, client secret and redirect URL, as its settings pages hold them. */
  configureOAuth(app: OAuthApp): void;
  /**
   * Installs the app as a person would in a browser: opens the bot's install page (`installUrl`, keeping
   * the cookies it sets), follows its Add to Slack link to the stand-in's authorize page, chooses where
   * (`teamId`, or `enterpriseId` for an org-wide install) and allows (or cancels, `deny`), and follows
   * the redirect back to the bot with the same cookies.
   */
  installApp(
    o: { installUrl: string; user: string; deny?: boolean } & InstallTarget,
  ): Promise<InstallOutcome>;
  /**
   * Removes the app from a workspace or an organisation: its token is revoked, and the bot is sent
   * `tokens_revoked` and `app_uninstalled`, as Slack sends them.
   */
  uninstallApp(target: InstallTarget): Promise<Delivery[]>;
  /** Every installation, removed ones included (their status `revoked`); tokens included, for tests. */
  installs(): LocalInstall[];
  /** Adds the bot to a channel or removes it, archives or unarchives the channel. */
  setChannelState(channel: string, s: { botMember?: boolean; archived?: boolean }): LocalChannel;
  /** The app's manifest settings (kept across `reset`). */
  configureApp(s: Partial<AppSettings>): AppSettings;
  waitFor<T>(predicate: WaitPredicate<T>, timeoutMs?: number, label?: string): Promise<T>;
  on(event: 'change', fn: (version: number) => void): () => void;
  reset(): void;
  close(): Promise<void>;
}
