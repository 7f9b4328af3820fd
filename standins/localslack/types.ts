/** A Slack workspace (team); on Enterprise Grid, one of its organisation's workspaces. */
export interface LocalTeam {
  id: string;
  name: string;
  domain: string;
  /** The Enterprise Grid organisation it belongs to. */
  enterpriseId?: string;
}

/** An Enterprise Grid organisation: its people have one ID in every one of its workspaces. */
export interface LocalEnterprise {
  id: string;
  name: string;
}

/** A workspace member known to the stand-in. `tz` is an IANA zone, as Slack's `user.tz`. */
export interface LocalUser {
  id: string;
  /** The workspace they act from (default the stand-in's own, T0LOCAL); on Grid, also their organisation's. */
  teamId?: string;
  name: string;
  realName?: string;
  tz: string;
  /** Slack's `user.locale` ("en-US", "en-GB", "de-DE", "en-IN"), returned only when `include_locale` is asked. */
  locale?: string;
  isBot?: boolean;
  /** A deactivated (or deleted) account: `users.info` says `deleted: true`, as Slack does. */
  deleted?: boolean;
  /** A workspace admin (`users.info`'s `is_admin`): an admin of their own workspace (`teamId`) only. */
  isAdmin?: boolean;
  /** A workspace owner (`is_owner`). */
  isOwner?: boolean;
  /** A guest of their workspace: a multi-channel guest (`is_restricted`), or single-channel (`is_ultra_restricted`). */
  guest?: 'multi-channel' | 'single-channel';
  /**
   * On Enterprise Grid (their workspace belongs to an organisation): an admin or owner of the organisation,
   * `users.info`'s `enterprise_user.is_admin` / `is_owner`. A workspace admin is none of these.
   */
  orgAdmin?: boolean;
  orgOwner?: boolean;
}

export interface LocalChannel {
  id: string;
  name: string;
  /**
   * The workspaces it is in (default the stand-in's own): more than one for a channel shared between
   * workspaces, of one organisation or (Slack Connect) of several.
   */
  teams?: string[];
  isPrivate?: boolean;
  isIm?: boolean;
  /** When given, chat.postEphemeral to a user outside this list fails with `user_not_in_channel`. */
  members?: string[];
  /**
   * Whether the bot is a member (default true; DMs always). Outside a channel chat.postMessage and
   * chat.update answer `not_in_channel` (`channel_not_found` when it is private); its response_urls still work.
   */
  botMember?: boolean;
  /** An archived channel: posting answers `is_archived`, chat.update `is_inactive`. */
  archived?: boolean;
}

export interface LocalUsergroup {
  id: string;
  handle: string;
  users: string[];
}

/** One message as the channel model keeps it; threads and ephemerals live in the same list. */
export interface LocalMessage {
  ts: string;
  channel: string;
  /** Author: a user ID, or the bot's user ID for bot messages. */
  user: string;
  botId?: string;
  text: string;
  blocks?: unknown[];
  /** Set on thread replies (the parent's ts). */
  threadTs?: string;
  /** Thread reply also shown in the channel. */
  broadcast?: boolean;
  /** Set on ephemeral messages: the only user who sees it. */
  ephemeralTo?: string;
  /** `command`: the user's own slash command, shown in channel only once an in_channel reply arrives. */
  kind: 'message' | 'command' | 'system';
  /** Number of edits (chat.update or replace_original). */
  edits: number;
  via: 'api' | 'response_url' | 'ack' | 'user' | 'slack';
  /** Reactions on it, each with who added it (reactions.add), in the order first added. */
  reactions?: LocalReaction[];
  /** The head of a thread of the assistant pane (Slack's `assistant_app_thread`): what the pane shows of it. */
  assistantThread?: AssistantThreadState;
  /**
   * Posted through a response_url (or an ack): the ts of the slash command, or of the message whose element
   * was clicked, that it answers.
   */
  answers?: string;
}

/** One emoji on a message and the people (or bot users) who reacted with it. */
export interface LocalReaction {
  /** The emoji's name, without colons: `eyes`, `white_check_mark`. */
  name: string;
  users: string[];
}

/** A prompt of the assistant pane: its title, and the message a click sends as the person's own. */
export interface AssistantPrompt {
  title: string;
  message: string;
}

/** What a person opening the pane, or moving while it is open, gets back: the pane's thread and the app's ack. */
export interface PaneOpened {
  /** The thread's head in the person's DM with the app: the `thread_ts` of everything in the pane. */
  threadTs: string;
  channel: string;
  delivery: Delivery;
}

/** An assistant pane thread as Slack keeps it: whose it is, where they are, and what the app set on it. */
export interface AssistantThreadState {
  user: string;
  /** The channel the person views, as Slack last told the app (absent: none, as from the pane alone). */
  context: { channelId?: string; teamId: string; enterpriseId?: string };
  /** `assistant.threads.setTitle`. */
  title?: string;
  /** `assistant.threads.setStatus`: the line under the thread while the app works (cleared by its reply). */
  status?: string;
  /** `assistant.threads.setSuggestedPrompts`: shown until the person writes in the thread. */
  prompts?: { title?: string; prompts: AssistantPrompt[] };
}

/** A change to a message, as Slack tells an app about it (message-events.ts). */
export type MessageChange =
  | { kind: 'posted'; message: LocalMessage }
  | { kind: 'edited'; message: LocalMessage; previous: LocalMessage; editedTs: string }
  | { kind: 'deleted'; message: LocalMessage };

export interface OpenView {
  id: string;
  /** The workspace of the installation that opened it (Slack's `app_installed_team_id`). */
  appTeamId?: string;
  externalId?: string;
  /** Changes on every update, as Slack's view hash. */
  hash: string;
  user: string;
  /** The view JSON as the app sent it (type, title, blocks, callback_id, private_metadata, …). */
  view: Record<string, unknown>;
  /** What the user typed, by block_id then action_id (raw values, see `buildStateValues`). */
  values: Record<string, Record<string, unknown>>;
  /** Errors from the last `response_action: errors`, by block_id. */
  errors?: Record<string, string>;
  /**
   * Every option the app offered for an external select of this view (block_suggestion answers), by
   * block_id then action_id: the user can pick only these (or the element's initial options).
   */
  offered?: Record<string, Record<string, SelectOption[]>>;
  rootViewId: string;
  previousViewId?: string;
}

/** An option of a select menu, as Slack sends it in `selected_option(s)`. */
export interface SelectOption {
  text: { type: 'plain_text' | 'mrkdwn'; text: string; emoji?: boolean };
  value: string;
  description?: unknown;
}

export interface ApiCall {
  method: string;
  /** Arguments with JSON-string fields (blocks, view, …) parsed; the token is never recorded. */
  args: Record<string, unknown>;
  /** The JSON body sent back. */
  response: Record<string, unknown>;
  /** The HTTP status sent back: 200, or 429 / 5xx. */
  status: number;
  /** The id of the injected fault that answered this call. */
  fault?: number;
  /** Refused by the rate limits (HTTP 429, `retryAfter` seconds). */
  rateLimited?: boolean;
  retryAfter?: number;
  at: number;
}

export interface ResponseUrlCall {
  id: string;
  body: unknown;
  status: number;
  error?: string;
  /** The id of the injected fault that answered this post. */
  fault?: number;
  at: number;
}

/** One Events API delivery (`event_callback`) and the bot's answer. */
export interface EventDelivery {
  eventId: string;
  event: Record<string, unknown>;
  /** X-Slack-Retry-Num, when sent as a redelivery. */
  retryNum?: number;
  status: number;
  at: number;
}

/** The bot's HTTP acknowledgement of a delivery. */
export interface Delivery {
  status: number;
  body: string;
  json?: unknown;
  /** The trigger_id sent with this delivery, if any. */
  triggerId?: string;
  /** The response_url sent with this delivery, if any. */
  responseUrl?: string;
  /** A slash command: the ts of its invocation, which the replies through its response_url answer. */
  commandTs?: string;
  /** view_submission: errors by block_id, from `response_action: errors` or from Slack's client-side checks. */
  errors?: Record<string, string>;
  /** false when Slack's client would not send the request (e.g. a required input is empty). */
  delivered: boolean;
  /** block_suggestion: the options the app answered, flattened from `options` or `option_groups`. */
  options?: SelectOption[];
  /** Events API: the envelope's `event_id`. */
  eventId?: string;
}

/** A JSON-serialisable picture of the workspace, for a browser UI. */
export interface LocalSlackSnapshot {
  version: number;
  /** The viewer's workspace (the stand-in's own without a viewer). */
  teamId: string;
  botUserId: string;
  /** Every bot user of an installation of the app, for naming their messages. */
  botUserIds: string[];
  teams: LocalTeam[];
  enterprises: LocalEnterprise[];
  /** Where the app is installed: each installation's workspace or organisation. */
  installs: { teamId?: string; enterpriseId?: string; isEnterpriseInstall: boolean; botUserId: string }[];
  users: LocalUser[];
  /** Messages include thread replies (group them by `threadTs`); with a viewer, only what they see. */
  channels: (LocalChannel & { messages: LocalMessage[] })[];
  /** The viewer's modal stack, bottom first (empty without a viewer). */
  views: OpenView[];
  home?: OpenView;
  /** The app's tabs, as its manifest's `features.app_home` enables them. */
  app: AppSettings;
}

export interface AppSettings {
  /** `home_tab_enabled`: views.publish answers `not_enabled` without it. */
  homeTabEnabled: boolean;
  /** `messages_tab_enabled`. */
  messagesTabEnabled: boolean;
  /** `messages_tab_read_only_enabled`: people can read the Messages tab but not write in it. */
  messagesTabReadOnly: boolean;
  /**
   * The bot events the app subscribes to (`settings.event_subscriptions.bot_events`): of the message
   * events, only `app_mention` and `message.im` are told, and only when named here.
   */
  botEvents: string[];
  /**
   * The `chat:write.public` scope: the app may post in a public channel it has not joined, and update what
   * it posted there. Without it such a channel answers `not_in_channel`, as it does for any private one.
   */
  chatWritePublic: boolean;
  /**
   * `features.assistant_view`: the app's assistant pane (Agents & AI apps, on Slack's paid plans). Absent:
   * the workspace shows no pane, and people have the Messages tab only.
   */
  assistantView?: { description: string; suggestedPrompts?: AssistantPrompt[] };
}
