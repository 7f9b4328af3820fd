/**
 * Every Slack Web API method the bot calls, with the bot scope it needs (null: none). The manifest's
 * generator asks for these scopes (with the features' own: `Feature.manifest`, and their events'), and a
 * test checks that the code calls no method missing here. Parts that call new methods add them here.
 */
export const WEB_API_METHODS: Record<string, string | null> = {
  'auth.test': null,
  'users.info': 'users:read',
  // setup (src/slack/setup/): a workspace's admins, told of a change of its service account
  'users.list': 'users:read',
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
  // mentions (src/slack/mentions/): whether the bot is in the channel a mention came from
  'conversations.info': 'channels:read',
  // the asker's message marked taken, then done, failed or refused (src/slack/mentions/reactions.ts)
  'reactions.add': 'reactions:write',
  'reactions.remove': 'reactions:write',
  // the assistant pane (src/slack/assistant/)
  'assistant.threads.setStatus': 'assistant:write',
  'assistant.threads.setSuggestedPrompts': 'assistant:write',
  'assistant.threads.setTitle': 'assistant:write',
  // Workflow Builder steps (src/slack/workflows/), with the bot token: they need no scope
  'functions.completeSuccess': null,
  'functions.completeError': null,
};

/** What the bot does with each scope of the methods above: the manifest's comment beside the scope. */
export const METHOD_SCOPE_USES: Record<string, string> = {
  'users:read':
    "the user's time zone for reading time ranges; who may change a workspace's service account, and its admins to tell when it changes",
  'chat:write':
    'approval requests and their updates, thread notes to requesters, modal results when no ' +
    'response_url is at hand, "Reopen with my inputs" notes',
  'usergroups:read': 'approvers and operators given as user groups (S…)',
  'channels:read': 'whether the bot is in the public channel a mention came from',
  'reactions:write':
    'the message that asked the bot marked as it goes: taken, then done, failed or refused (docs/mentions.md)',
  'assistant:write':
    "the assistant pane's status line while the bot works, its prompts and its thread's title",
};
