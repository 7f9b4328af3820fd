import type { BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { onChange } from '../changes.js';
import { type Feature, type Listener, listener, onEvents } from '../feature.js';
import { code } from '../views/mrkdwn.js';
import { HOME_ACTION } from './ids.js';
import { ackHomeDecision, ackHomeOpened } from './listeners.js';
import { refreshHomes, stopHomes } from './refresh.js';

export { type HomeChange, refreshHomes } from './refresh.js';

type Click = SlackActionMiddlewareArgs<BlockAction<ButtonAction>>;

/** The Home tab opened (acked by Bolt, as every event is): published, debounced. */
const homeOpened: Listener = listener({
  match: onEvents({ name: 'app_home_opened', why: 'the bot publishes your Home tab when you open it' }),
  ack: (args, { followUps }) => ackHomeOpened(args, followUps),
  followUps: {
    'home-opened': { run: async (job, bot) => (await import('./follow-up.js')).followHomeOpened(job, bot) },
  },
});

/** Approve or Reject in the Home tab: decided after the ack, exactly as on the request's card. */
const homeDecision: Listener = listener({
  match: { route: 'actions', ids: new RegExp(`^(${Object.values(HOME_ACTION).join('|')})$`) },
  ack: (args, { followUps }) => ackHomeDecision(args as Click, followUps),
  followUps: {
    'home-decision': {
      run: async (job, bot) => (await import('./follow-up.js')).followHomeDecision(job, bot),
      // Reject asks for a reason in a form.
      opensView: (job) => job.action === 'reject',
      notice: (job) => ({
        userId: job.userId,
        what: `your ${job.action} click on request ${code(String(job.requestId))} in the Home tab`,
      }),
    },
  },
});

// Whatever changes for someone, announced by the feature that changed it, publishes their Home again.
onChange(refreshHomes);

/** The App Home: what one person has waiting, asked and running, published again when it changes. */
export const HOME: Feature = {
  name: 'home',
  listeners: [homeOpened, homeDecision],
  drain: stopHomes,
  manifest: async () => ({
    appHome: {
      set: { home_tab_enabled: true },
      why: 'The Home tab: what waits for your approval (Approve/Reject), your requests, flows and channels.',
    },
  }),
};
