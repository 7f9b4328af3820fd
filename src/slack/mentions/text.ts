import { withoutCommandName } from '../asked.js';

/** The bot's mention as Slack writes it in message text: `<@U…>`, or `<@U…|name>` from older clients. */
function mentionsOf(botUserId: string): RegExp {
  return new RegExp(`<@${botUserId.replace(/[^A-Z0-9]/gi, '')}(?:\\|[^>]*)?>`, 'g');
}

/**
 * The command a mention asks. People write "@tsai flows", but also "hey @tsai flow 123" or "flow 123
 * @tsai": the command is what follows the bot's first mention, or, when nothing follows it, what precedes
 * it; words before a mention that something follows are addressed to the people in the conversation, not
 * the bot. Every other mention of the bot is taken out wherever it stands. A mention with nothing around
 * it asks for help, as `/tsai` alone does.
 */
export function mentionCommand(text: string, botUserId: string): string {
  const pattern = mentionsOf(botUserId);
  const first = pattern.exec(text);
  if (!first) return tidy(text);
  const before = text.slice(0, first.index);
  const after = text.slice(first.index + first[0].length);
  const rest = tidy(after.replace(pattern, ' '));
  return rest || tidy(before.replace(pattern, ' '));
}

/**
 * The command a direct message asks: the whole message, without a leading `/tsai` (typed out of habit
 * after a space, or pasted, Slack's composer sends it as a message rather than the slash command) and
 * without the bot's mention, which a direct message does not need.
 */
export function directCommand(text: string, botUserId: string | undefined): string {
  const bare = botUserId ? text.replace(mentionsOf(botUserId), ' ') : text;
  return tidy(withoutCommandName(tidy(bare)));
}

/** The text as typed, but for the spaces around it (a new line is a space to the command's parser). */
function tidy(text: string): string {
  return text.trim();
}
