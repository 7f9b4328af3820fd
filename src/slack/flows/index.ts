import type { BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { type Feature, type Listener, listener } from '../feature.js';
import { ackNextStep } from './listeners.js';
import { FLOW_NEXT_ACTIONS } from './views.js';

export { announceFlow } from './announce.js';
export { completionMessage, flowStatusMessage, flowsListMessage, statusLine } from './views.js';

type Click = SlackActionMiddlewareArgs<BlockAction<ButtonAction>>;

/** The next-step buttons under a finished flow: the form they name opens within the click's 3 seconds. */
const nextStep: Listener = listener({
  match: { route: 'actions', ids: FLOW_NEXT_ACTIONS },
  ack: (args, { followUps }) => ackNextStep(args as Click, followUps),
  followUps: {
    'flow-next': { run: async (job, bot) => (await import('./next-step.js')).followNextStep(job, bot) },
  },
});

/** Following created flows: their status moved in place, one notice at their end, the next steps. */
export const FLOWS: Feature = {
  name: 'flows',
  listeners: [nextStep],
  // Loaded with the background work: the acking thread never follows flows itself.
  background: async (bot) => {
    const tracker = bot.tracker;
    if (tracker) tracker.start((await import('./notifier.js')).createFlowNotifier(bot));
    return { stop: async () => void (await tracker?.stop()) };
  },
};
