import { secretSafe } from '../../core/secret-text.js';
import { type Feature, type Listener, listener } from '../feature.js';
import { code } from '../views/mrkdwn.js';
import { ackCommand, COMMAND_ROUTES, opensForm } from './listener.js';

/** `/tsai`: help is answered in the ack; anything else is parsed, then a form opens or it runs. */
const slashCommand: Listener = listener({
  match: { route: 'commands', ids: COMMAND_ROUTES.commands },
  ack: (args, { followUps }) => ackCommand(args, followUps),
  followUps: {
    command: {
      run: async (job, bot) => (await import('./follow-up.js')).followCommand(job.command, bot),
      opensView: ({ command }) => opensForm(command.text),
      notice: ({ command: c }) => ({
        userId: c.user_id,
        channelId: c.channel_id,
        responseUrl: c.response_url,
        // Told by this process, the person sees their command (tokens masked); the store keeps its word.
        what: code(secretSafe(`${c.command} ${c.text}`.trim())),
        keptWhat: code(commandWord(c)),
      }),
    },
  },
});

export const COMMAND: Feature = {
  name: 'command',
  listeners: [slashCommand],
  manifest: async () => (await import('./manifest.js')).commandManifest(),
};

/**
 * A held command is named in the store by its first word alone (`/tsai learn`): the rest of the text may
 * carry what should never be kept (a pasted token).
 */
function commandWord(c: { command: string; text: string }): string {
  const word = c.text.trim().split(/\s+/)[0] ?? '';
  return /^[a-z][a-z-]{0,19}$/i.test(word) ? `${c.command} ${word}` : c.command;
}
