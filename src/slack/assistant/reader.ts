import type { Asked } from '../asked.js';
import type { Bot } from '../bot.js';
import type { Came } from '../command/index.js';
import { readAsked } from '../plain/index.js';

/**
 * How the pane reads one message and answers it: the one function the pane hands every message to, whose
 * answer goes where `asked.to` says (the pane's thread; the viewed channel for what the team sees) and
 * whose `Came` drives the pane's status and the message's reactions.
 */
export type PaneReader = (bot: Bot, asked: Asked) => Promise<Came>;

/**
 * A message is read as every message written to the bot is (plain/): a typed command through the one
 * command path (`followAsked`), the same reading, gate, runner and audit as `/tsai`; a plain request
 * answered with what it was read as and buttons to run it (then `answered`, having changed nothing), or a
 * question that changes nothing answered at once through that same path.
 */
export const readPaneMessage: PaneReader = readAsked;
