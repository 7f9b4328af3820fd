import type { ManifestPart } from './part.js';

/**
 * What the manifest says of the app itself rather than of one feature: its name and descriptions, its bot
 * user, the address people replace with their bot's, and the settings every way of running it shares.
 */

/** The address people replace with their bot's public HTTPS address. */
export const PLACEHOLDER_ORIGIN = 'https://tsai-chatops.example.com';

/**
 * Slack's manifest major version: 2, whose schema differs from 1 only in how functions (and workflows)
 * write their parameters and in checking their types against Slack's list (docs/install.md, "The manifest").
 */
export const MAJOR_VERSION = 2;

/** The comment the file begins with. */
export const HEADER = [
  'Slack app manifest for tsai-chatops, generated from the code (src/slack/manifest/): do not edit it by hand.',
  '`npm run manifest` writes it anew; a test fails when it differs, or when Slack’s published schema for its',
  'major version would refuse it.',
  '',
  'Create the app at https://api.slack.com/apps ("Create New App" -> "From an app manifest"), paste this file,',
  `then replace every ${PLACEHOLDER_ORIGIN} with the public HTTPS address of your bot (PORT, path /slack/events).`,
  '',
  'Socket Mode instead of a public URL: set `settings.socket_mode_enabled: true`, delete every `url:`,',
  '`request_url:` and `message_menu_options_url:` line below, create an app-level token with the',
  '`connections:write` scope (Basic Information -> App-Level Tokens) and give it to the bot as SLACK_APP_TOKEN.',
];

export const DISPLAY_INFORMATION = {
  name: 'tsai',
  description: "Run and track the time-series AI service's workspaces, models and flows from Slack.",
  long_description:
    'tsai-chatops lets a team create workspaces, move models, backfill live model output (EVAL), learn and ' +
    'score anomaly models, and request approved start/stop of live models, all with the /tsai slash ' +
    'command, forms, the Home tab, schedules and Workflow Builder steps. Every change is posted in the ' +
    'channel so the team sees who did what.',
  background_color: '#1d3557',
};

export const BOT_USER = { display_name: 'tsai', always_online: true };

/** The app's own part: what no single feature owns. */
export const BASE: ManifestPart = {
  appHome: {
    set: { messages_tab_enabled: true },
    why: 'The Messages tab stays on: the bot writes to you there when it cannot answer in a channel.',
  },
};

/** The settings last in the file, after those the features need. */
export const BASE_SETTINGS = { socket_mode_enabled: false, token_rotation_enabled: false };
