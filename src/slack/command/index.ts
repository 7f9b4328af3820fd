import type { BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { isFormId } from '../../core/forms/fields.js';
import { type Asked, keptWordOf, shownWhat } from '../asked.js';
import type { Bot } from '../bot.js';
import { type Feature, type Listener, listener } from '../feature.js';
import { FLOW_NEXT_ACTIONS } from '../flows/index.js';
import { code } from '../views/mrkdwn.js';
import type { AskedOutcome, Came } from './follow-up.js';
import { ackCommand, ackNextStep, COMMAND_ROUTES, commandIdOf, opensForm } from './listener.js';

export type { AskedOutcome, Came };

/** Whether a corrected version of a command may still run, from what came of it. */
export const outcomeOf = (came: Came): AskedOutcome => (came.kind === 'misread' ? 'refused' : 'done');

/**
 * A command typed on any surface (a mention, the Messages tab, `/tsai` itself), read and run by the one
 * command path and answered where it was asked (`follow-up.ts`).
 */
export async function followAsked(bot: Bot, asked: Asked): Promise<Came> {
  return (await import('./follow-up.js')).followAsked(bot, asked);
}

/** `/tsai`: help is answered in the ack; anything else is parsed, then a form opens or it runs. */
const slashCommand: Listener = listener({
  match: { route: 'commands', ids: COMMAND_ROUTES.commands },
  ack: (args, { followUps }) => ackCommand(args, followUps),
  names: (body) => (typeof body.text === 'string' ? commandIdOf(body.text) : undefined),
  followUps: {
    command: {
      run: async (job, bot) => (await import('./follow-up.js')).followCommand(job.command, bot),
      opensView: ({ command }) => opensForm(command.text),
      notice: ({ command: c }) => ({
        userId: c.user_id,
        channelId: c.channel_id,
        responseUrl: c.response_url,
        // Told by this process, the person sees their command (tokens masked); the store keeps its word.
        what: code(shownWhat('command', c.text)),
        keptWhat: code(keptWordOf('command', c.text)),
      }),
    },
  },
});

/**
 * The next-step buttons under a finished flow: each stands for an operation its outputs make possible,
 * whose form opens within the click's 3 seconds, or whose command runs as typed.
 */
const nextStep: Listener = listener({
  match: { route: 'actions', ids: FLOW_NEXT_ACTIONS },
  ack: (args, { followUps }) =>
    ackNextStep(args as SlackActionMiddlewareArgs<BlockAction<ButtonAction>>, followUps),
  followUps: {
    'flow-next': {
      run: async (job, bot) => (await import('./next-step.js')).followNextStep(job, bot),
      // A next step is named by the form it opens; one without a form runs its command.
      opensView: (job) => isFormId(job.step),
    },
  },
});

export const COMMAND: Feature = {
  name: 'command',
  listeners: [slashCommand, nextStep],
  manifest: async () => (await import('./manifest.js')).commandManifest(),
};
