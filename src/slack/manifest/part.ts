/**
 * What a feature declares of the app's manifest, where the feature lives; the generator (generate.ts)
 * merges every feature's part into manifest.yml. Each declaration says why: that is the comment above it.
 */

/** A bot event the app subscribes to (`settings.event_subscriptions.bot_events`). */
export interface BotEvent {
  /** Slack's name for the subscription: `app_home_opened`, `message.im`. */
  name: string;
  /** The bot scope Slack needs before it sends the event, when it needs one. */
  scope?: string;
  why: string;
}

/** A bot scope (`oauth_config.scopes.bot`) and why the bot asks for it. */
export interface ScopeNeed {
  scope: string;
  why: string;
}

/** A slash command (`features.slash_commands`); its URL is the bot's events URL. */
export interface SlashCommand {
  command: string;
  description: string;
  usage_hint: string;
  should_escape: boolean;
}

/** A global shortcut (`features.shortcuts`, type `global`). */
export interface GlobalShortcut {
  name: string;
  callback_id: string;
  description: string;
}

/** A parameter as Slack's manifest (major version 2) declares it. */
export interface ManifestParameter {
  type: string;
  title: string;
  description: string;
  hint?: string;
}

/** A manifest function: one Workflow Builder step, its parameters in major version 2's form. */
export interface ManifestFunction {
  title: string;
  description: string;
  input_parameters: { properties: Record<string, ManifestParameter>; required: string[] };
  output_parameters: { properties: Record<string, ManifestParameter>; required: string[] };
}

/** `features.app_home`. */
export interface AppHome {
  home_tab_enabled?: boolean;
  messages_tab_enabled?: boolean;
  messages_tab_read_only_enabled?: boolean;
}

/** `features.assistant_view`: Slack's assistant pane (Agents & AI apps); Slack's schema allows no other keys. */
export interface AssistantView {
  assistant_description: string;
  suggested_prompts?: readonly { title: string; message: string }[];
}

/** The keys of `settings` a feature may need, besides event subscriptions and interactivity (derived). */
export interface Settings {
  org_deploy_enabled?: boolean;
  function_runtime?: 'remote';
  token_rotation_enabled?: boolean;
}

/** Keys of one manifest section a feature needs set, and why. */
export interface Needs<T> {
  set: T;
  why: string;
}

/** One feature's part of the manifest. */
export interface ManifestPart {
  slashCommands?: readonly SlashCommand[];
  shortcuts?: readonly GlobalShortcut[];
  /** Workflow Builder steps, by callback_id. */
  functions?: Readonly<Record<string, ManifestFunction>>;
  scopes?: readonly ScopeNeed[];
  appHome?: Needs<AppHome>;
  /** The assistant pane; one feature at most declares it. */
  assistantView?: Needs<AssistantView>;
  settings?: Needs<Settings>;
  /** `oauth_config.redirect_urls`: paths under the bot's address. */
  redirectPaths?: Needs<readonly string[]>;
}
