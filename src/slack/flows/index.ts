import type { Feature } from '../feature.js';

export { announceFlow } from './announce.js';
export {
  completionMessage,
  FLOW_NEXT_ACTIONS,
  flowStatusMessage,
  flowsListMessage,
  formOfFlowNext,
  NEXT_STEP_THREAD,
  shownOutputs,
  statusLine,
} from './views.js';

/** Following created flows: their status moved in place, one notice at their end (with the next steps its outputs make possible). */
export const FLOWS: Feature = {
  name: 'flows',
  listeners: [],
  // Loaded with the background work: the acking thread never follows flows itself.
  background: async (bot) => {
    const tracker = bot.tracker;
    if (tracker) tracker.start((await import('./notifier.js')).createFlowNotifier(bot));
    return { stop: async () => void (await tracker?.stop()) };
  },
  manifest: async () => ({
    scopes: [
      {
        scope: 'chat:write.public',
        why:
          "post a flow's announcement in a public channel the bot has not joined, so it can be updated in " +
          "place; in a private channel without the bot, the command's response_url carries the news instead",
      },
    ],
  }),
};
