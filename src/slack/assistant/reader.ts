import type { Asked } from '../asked.js';
import type { Bot } from '../bot.js';
import { type Came, followAsked } from '../command/index.js';

/**
 * How the pane reads one message and answers it: the one function the pane hands every message to, whose
 * answer goes where `asked.to` says (the pane's thread; the viewed channel for what the team sees) and
 * whose `Came` drives the pane's status and the message's reactions.
 */
export type PaneReader = (bot: Bot, asked: Asked) => Promise<Came>;

/**
 * Today a message is read as a typed command, through the one command path every surface takes
 * (`followAsked`): the same reading, gate, runner and audit as `/tsai`. A reader of plain sentences takes
 * this one's place: it may answer with what it understood and buttons to run it (then `answered`, having
 * changed nothing), and hands what is run to the same path.
 */
export const readPaneMessage: PaneReader = followAsked;
