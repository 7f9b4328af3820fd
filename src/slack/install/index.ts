import { type Feature, type Listener, listener, onEvents } from '../feature.js';
import { ackRemoval, type RemovalBody } from './listeners.js';

/** Where Slack sends whoever installs the app back to, unless SLACK_REDIRECT_URI names another path. */
export const REDIRECT_PATH = '/slack/oauth_redirect';

/** The app removed from a workspace or organisation, or its bot token revoked: its installation goes. */
const removal: Listener = listener({
  match: onEvents(
    {
      name: 'app_uninstalled',
      why: 'the app was removed from a workspace or organisation, whose tokens the bot then deletes ("Add to Slack")',
    },
    { name: 'tokens_revoked', why: "the bot's token of an installation was revoked: the same" },
  ),
  ack: (args, { bot, followUps }) => ackRemoval(args.body as unknown as RemovalBody, bot, followUps),
  followUps: {
    'install-removed': {
      run: async (job, bot) => (await import('./follow-up.js')).followRemoval(job, bot),
      // The installation may be gone already: nothing is said to anyone through it.
      anyTenant: true,
    },
  },
});

/** "Add to Slack": installations kept from the OAuth flow (served by the receiver), and removed again. */
export const INSTALL: Feature = {
  name: 'install',
  listeners: [removal],
  manifest: async () => ({
    redirectPaths: {
      set: [REDIRECT_PATH],
      why: '"Add to Slack" (SLACK_CLIENT_ID): Slack sends whoever installs the app back here with its code (docs/install.md); with one bot token (SLACK_BOT_TOKEN) it is never visited.',
    },
  }),
};
