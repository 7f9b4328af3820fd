/** A workspace member known to the stand-in. `tz` is an IANA zone, as Slack's `user.tz`. */
export interface LocalUser {
  id: string;
  name: string;
  realName?: string;
  tz: string;
  /** Slack's `user.locale` ("en-US", "en-GB", "de-DE", "en-IN"), returned only when `include_locale` is asked. */
  locale?: string;
  isBot?: boolean;
}

export interface LocalChannel {
  id: string;
  name: string;
  isPrivate?: boolean;
  isIm?: boolean;
  /** When given, chat.postEphemeral to a user outside this list fails with `user_not_in_channel`. */
  members?: string[];
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
}

export interface OpenView {
  id: string;
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
  rootViewId: string;
  previousViewId?: string;
}

export interface ApiCall {
  method: string;
  /** Arguments with JSON-string fields (blocks, view, …) parsed; the token is never recorded. */
  args: Record<string, unknown>;
  response: Record<string, unknown>;
  at: number;
}

export interface ResponseUrlCall {
  id: string;
  body: unknown;
  status: number;
  error?: string;
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
  /** view_submission: errors by block_id, from `response_action: errors` or from Slack's client-side checks. */
  errors?: Record<string, string>;
  /** false when Slack's client would not send the request (e.g. a required input is empty). */
  delivered: boolean;
}

/** A JSON-serialisable picture of the workspace, for a browser UI. */
export interface LocalSlackSnapshot {
  version: number;
  teamId: string;
  botUserId: string;
  users: LocalUser[];
  /** Messages include thread replies (group them by `threadTs`); with a viewer, only what they see. */
  channels: (LocalChannel & { messages: LocalMessage[] })[];
  /** The viewer's modal stack, bottom first (empty without a viewer). */
  views: OpenView[];
  home?: OpenView;
}
