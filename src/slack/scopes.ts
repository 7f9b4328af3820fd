/**
 * Every Slack Web API method the bot calls, with the bot scope it needs (null: none). The manifest
 * test checks that manifest.yml asks for exactly these scopes (plus `commands`) and that the code
 * calls no method missing here. Parts that call new methods add them here.
 */
export const WEB_API_METHODS: Record<string, string | null> = {
  'auth.test': null,
  'users.info': 'users:read',
  // forms (src/slack/forms/)
  'views.open': null,
  'views.update': null,
  'chat.postMessage': 'chat:write',
  'chat.postEphemeral': 'chat:write',
  // approvals (src/slack/approvals/)
  'chat.update': 'chat:write',
  'chat.getPermalink': null,
  'usergroups.users.list': 'usergroups:read',
  // App Home (src/slack/home/)
  'views.publish': null,
  // Workflow Builder steps (src/slack/workflows/), with the bot token: they need no scope
  'functions.completeSuccess': null,
  'functions.completeError': null,
};

/**
 * Scopes needed beyond Web API methods: `commands` for the slash command; `chat:write.public` so that
 * `chat.postMessage` can announce a flow in a public channel the bot has not joined.
 */
export const BASE_SCOPES = ['commands', 'chat:write.public'];
