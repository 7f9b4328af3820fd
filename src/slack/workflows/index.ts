import { runnerOf } from '../../core/workflows/inputs.js';
import { type Feature, type Listener, listener, onEvents } from '../feature.js';
import { ackFunctionExecuted, type FunctionExecutedBody } from './listener.js';

/** A workflow reached one of the bot's steps: acked at once, run after as a command is. */
const functionExecuted: Listener = listener({
  match: onEvents({
    name: 'function_executed',
    why: "a workflow reached one of the bot's steps (`functions`)",
  }),
  ack: (args, { followUps }) =>
    ackFunctionExecuted(
      {
        ack: (args as unknown as { ack?: () => Promise<void> }).ack,
        body: args.body as unknown as FunctionExecutedBody,
      },
      followUps,
    ),
  followUps: {
    'step-executed': {
      run: async (job, bot) => (await import('./follow-up.js')).followStep(job.start, bot),
      // Before its row is written, a step lost with its thread can only be told to the person who ran it.
      notice: (job) => {
        const userId = runnerOf(job.start.inputs);
        return userId ? { userId, what: 'a step of your workflow' } : undefined;
      },
    },
  },
});

/** Workflow Builder steps: each operation as a step that waits for its flow and hands on its results. */
export const WORKFLOWS: Feature = {
  name: 'workflows',
  listeners: [functionExecuted],
  // The rounds that complete the steps whose flow or request has ended.
  background: async (bot) => {
    const { slackCompleter } = await import('./complete.js');
    bot.steps.begin(slackCompleter(bot));
    return { stop: () => bot.steps.stop() };
  },
  manifest: async () => (await import('./manifest.js')).workflowsManifest(),
};
