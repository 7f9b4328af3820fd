import { COMMAND_NAME } from '../command/name.js';
import type { MessageBody } from './messages.js';

/**
 * The surfaces where a person types a command: the slash command, a mention, the Messages tab, the
 * assistant pane.
 */
export type TypedOn = 'command' | 'mention' | 'direct-message' | 'assistant';

/**
 * How each surface's commands read as typed: `/tsai flows`, `@tsai flows`, or `flows` in the Messages tab
 * and the assistant pane.
 */
export const PREFIX: Record<TypedOn, string> = {
  command: COMMAND_NAME,
  mention: `@${COMMAND_NAME.slice(1)}`,
  'direct-message': '',
  assistant: '',
};

const SLASH_IN_CODE = new RegExp(`\`${COMMAND_NAME}(\`| )`, 'g');

/**
 * A message as a surface reads it: every command it quotes (`/tsai flow 123`, in a code span, as the bot
 * writes commands) as it is typed there, `@tsai flow 123` in a thread (where Slack runs no slash command)
 * or `flow 123` in the Messages tab, so that an example works as shown wherever it is read.
 */
export function writtenFor(on: TypedOn | undefined, body: MessageBody): MessageBody {
  if (!on || on === 'command') return body;
  const prefix = PREFIX[on];
  const json = JSON.stringify(body).replace(SLASH_IN_CODE, (_m, after: string) =>
    prefix ? `\`${prefix}${after}` : after === '`' ? '`help`' : '`',
  );
  return JSON.parse(json) as MessageBody;
}
