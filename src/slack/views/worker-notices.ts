import { invocationOf } from './messages.js';
import { code } from './mrkdwn.js';

type Command = { user_id: string; command: string; text: string };

/** The command worker stopped while it had this command in hand: nobody knows whether it reached the service. */
export function interruptedText(command: Command): string {
  return `The bot was interrupted while handling ${code(invocationOf(command).commandText)}. It may or may not have reached the service: check with \`/tsai flow <flow-id>\` or the service's Activity view before running it again.`;
}

/** The command worker is restarting and its waiting line is full: nothing was done. */
export function restartingText(command: Command): string {
  return `The bot is restarting and could not take ${code(invocationOf(command).commandText)}; nothing was done. Try again in a minute.`;
}
