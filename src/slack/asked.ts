import { decodeSlackEntities } from '../core/grammar/tokenize.js';
import type { FlowOrigin } from '../core/records.js';
import { secretSafe } from '../core/secret-text.js';
import { COMMAND_NAME } from './command/name.js';
import type { Audience } from './reply.js';
import type { Invocation } from './views/messages.js';
import { PREFIX, type TypedOn } from './views/typed-commands.js';

/** The surfaces where a person types a command: the slash command, a mention, the Messages tab, the pane. */
export type AskedVia = Extract<FlowOrigin, TypedOn>;

/**
 * A person asked the bot something in words, somewhere, and is answered there: what every surface that
 * takes a typed command hands the one command path (`followAsked` in command/follow-up.ts). The
 * surfaces differ only in how they acknowledged and in `to` (a response_url, a thread, a direct message),
 * and in whether a form can open at once (`triggerId`).
 */
export interface Asked {
  /** The command as Slack sent it (`&`, `<`, `>` as entities, mentions as `<@U…>`), without `/tsai` or `@tsai`. */
  text: string;
  userId: string;
  /** The handle a slash command names them by (Slack's `user_name`), for default names. */
  userName?: string;
  teamId?: string;
  /** The conversation asked in: a channel, or their direct messages with the bot. */
  channelId: string;
  via: AskedVia;
  /** Where what comes of it is told, and how only they are told something. */
  to: Audience;
  /** A slash command's trigger, so that a form opens at once; a message has none, and gets a button. */
  triggerId?: string;
  /** Their message can be edited: a command refused for its wording is read again once corrected. */
  correctable?: boolean;
  /**
   * The surface of the gate that asked, when it is not where the command is typed (`via`): a next-step
   * button runs its command as if typed, and is audited as the button it is.
   */
  surface?: 'button';
}

/** What the person typed, as shown back under a reply (tokens masked; entities decoded, escaped when shown). */
export function invocationOfAsked(a: Pick<Asked, 'userId' | 'text' | 'via'>): Invocation {
  return { userId: a.userId, commandText: asTyped(a.via, a.text) };
}

/** A command text as it reads on a surface (`@tsai learn …`), decoded and with tokens masked. */
export function asTyped(via: AskedVia, text: string): string {
  return secretSafe(decodeSlackEntities(`${PREFIX[via]} ${text}`.trim()));
}

/** A text without the slash command's name in front (`/tsai flows` -> `flows`). */
export function withoutCommandName(text: string): string {
  return /^\S+/.exec(text)?.[0].toLowerCase() === COMMAND_NAME ? text.slice(COMMAND_NAME.length) : text;
}

/** A `/tsai …` command line as it is typed on a surface: `@tsai …` in a mention, bare in the Messages tab. */
export function typedOn(via: AskedVia, line: string): string {
  return `${PREFIX[via]} ${withoutCommandName(line.trim()).trim()}`.trim();
}

/**
 * The command line whatever the surface (`/tsai learn …`): what a flow keeps as asked, which its Reopen
 * and "Run this every …" read back as a command.
 */
export function commandLineOf(text: string): string {
  return asTyped('command', text);
}

/**
 * A held command as this process names it to its person if it dies: the command as typed, tokens masked
 * (Slack's entities left as sent: the text goes in a code span).
 */
export function shownWhat(via: AskedVia, text: string): string {
  return secretSafe(`${PREFIX[via]} ${text}`.trim());
}

/**
 * A held command as the store names it (`/tsai learn`, `@tsai learn`): its first word alone, since the
 * rest of the text may carry what should never be kept (a pasted token).
 */
export function keptWordOf(via: AskedVia, text: string): string {
  const word = text.trim().split(/\s+/)[0] ?? '';
  const prefix = PREFIX[via] || 'your message';
  return /^[a-z][a-z-]{0,19}$/i.test(word) ? `${PREFIX[via]} ${word}`.trim() : prefix;
}
