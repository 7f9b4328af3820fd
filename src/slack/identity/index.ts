import type { BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { IdentityAction } from '../../core/grammar/types.js';
import type { Asked } from '../asked.js';
import type { Bot } from '../bot.js';
import { type Feature, type Listener, listener } from '../feature.js';
import { exactly } from '../routes.js';
import { CONNECT_CALLBACK, IDENTITY_ACTION } from './ids.js';
import { ackConnectSubmission, ackIdentityClick } from './listeners.js';

export { type HomeIdentity, standingBlocks } from './views.js';
export { IDENTITY_ACTION };

type Click = SlackActionMiddlewareArgs<BlockAction<ButtonAction>>;

/** `connect`, `disconnect`, `whoami`, typed anywhere: the command path hands them here after reading them. */
export async function followIdentityCommand(bot: Bot, action: IdentityAction, asked: Asked): Promise<void> {
  return (await import('./follow-up.js')).followIdentityCommand(bot, action, asked);
}

/** Connect (opens the form) and Disconnect, wherever the buttons are shown. */
const identityClick: Listener = listener({
  match: { route: 'actions', ids: new RegExp(`^(${Object.values(IDENTITY_ACTION).join('|')})$`) },
  ack: (args, { followUps }) => ackIdentityClick(args as Click, followUps),
  followUps: {
    'identity-open': {
      run: async (job, bot) => (await import('./follow-up.js')).followConnectClick(job, bot),
      opensView: () => true,
    },
    'identity-disconnect': {
      run: async (job, bot) => (await import('./follow-up.js')).followDisconnectClick(job, bot),
      notice: (job) => ({
        userId: job.userId,
        ...(job.channelId ? { channelId: job.channelId } : {}),
        ...(job.responseUrl ? { responseUrl: job.responseUrl } : {}),
        what: 'your Disconnect click',
      }),
    },
  },
});

/** The Connect form sent: the token checked and kept in the ack (an error under the field otherwise). */
const connectSubmission: Listener = listener({
  match: { route: 'viewSubmissions', ids: exactly(CONNECT_CALLBACK) },
  ack: (args, { bot, followUps }) => ackConnectSubmission(args, bot, followUps),
  followUps: {
    'identity-connected': {
      run: async (job, bot) => (await import('./follow-up.js')).followConnected(job, bot),
    },
  },
});

/** Each person's own service identity: connecting, disconnecting, and whom they act as. */
export const IDENTITY: Feature = { name: 'identity', listeners: [identityClick, connectSubmission] };
