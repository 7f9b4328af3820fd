import type { BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { Asked } from '../asked.js';
import type { Bot } from '../bot.js';
import type { Came } from '../command/index.js';
import { type Feature, type Listener, listener } from '../feature.js';
import { ackPlainAction, PLAIN_ACTIONS } from './listener.js';

export type { PlainJob } from './jobs.js';

/**
 * A message written to the bot, read as the command it types or the plain request it says (answer.ts):
 * what the mentions, the Messages tab and the assistant pane hand every message to.
 */
export async function readAsked(bot: Bot, asked: Asked): Promise<Came> {
  return (await import('./answer.js')).readAsked(bot, asked);
}

/** The buttons under a reading: "Run it" and "Not what I meant" ("Open the form" is the forms' own). */
const readingButtons: Listener = listener({
  match: { route: 'actions', ids: PLAIN_ACTIONS },
  ack: (args, { followUps }) =>
    ackPlainAction(args as SlackActionMiddlewareArgs<BlockAction<ButtonAction>>, followUps),
  followUps: {
    'plain-run': {
      run: async (job, bot) => (await import('./click.js')).followRun(job, bot),
      // What it runs may open a form, with the click's trigger, which lasts 3 seconds.
      opensView: (job) => job.form === true,
    },
    'plain-other': { run: async (job, bot) => (await import('./click.js')).followOther(job, bot) },
  },
});

/** Plain requests: sentences read into commands, shown before anything is done, run by a click. */
export const PLAIN: Feature = {
  name: 'plain',
  listeners: [readingButtons],
};
