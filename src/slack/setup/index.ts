import type { BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { Asked } from '../asked.js';
import type { Bot } from '../bot.js';
import { type Feature, type Listener, listener } from '../feature.js';
import { exactly } from '../routes.js';
import { SETUP_ACTION, SETUP_CALLBACK } from './ids.js';
import { ackSetupClick, ackSetupSubmission } from './listeners.js';

export { setupBlocks } from './views.js';

type Click = SlackActionMiddlewareArgs<BlockAction<ButtonAction>>;

/** `/tsai setup`: the command feature hands it here after reading it. */
export async function followSetupCommand(bot: Bot, asked: Asked): Promise<void> {
  return (await import('./follow-up.js')).followSetupCommand(bot, asked);
}

/** The Set up button (a reply's, the Home's): the form opens after the ack, with its trigger. */
const setupClick: Listener = listener({
  match: { route: 'actions', ids: exactly(SETUP_ACTION.open) },
  ack: (args, { followUps }) => ackSetupClick(args as Click, followUps),
  followUps: {
    'setup-open': {
      run: async (job, bot) => (await import('./follow-up.js')).followSetupOpen(job, bot),
      opensView: () => true,
    },
  },
});

/**
 * The setup form sent: checked with the service and kept in the ack (errors under its fields otherwise);
 * the workspace told of the change after.
 */
const setupSubmission: Listener = listener({
  match: { route: 'viewSubmissions', ids: exactly(SETUP_CALLBACK) },
  ack: (args, { bot, followUps }) => ackSetupSubmission(args, bot, followUps),
  followUps: {
    'setup-changed': {
      run: async (job, bot) => (await import('./changed.js')).followSetupChanged(job, bot),
    },
  },
});

/** "Add to Slack": each workspace's own service account, connected in Slack by its admins. */
export const SETUP: Feature = { name: 'setup', listeners: [setupClick, setupSubmission] };
