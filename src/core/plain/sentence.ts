import { COMMANDS } from '../grammar/commands.js';
import { parseCommand } from '../grammar/parse.js';
import { suggest } from '../grammar/suggest.js';
import { decodeSlackEntities } from '../grammar/tokenize.js';

/** A word of a typed command's arguments: `key=value`. */
const KEYED = /(^|\s)[\p{L}][\p{L}\p{N}_-]*=/u;

/**
 * Whether a text someone wrote is a plain request rather than a command: the typed command's reading
 * refuses it, it gives no `key=value`, and it is more than a slip of one word (`lern` is a misspelt command,
 * answered with the closest ones); a text that starts with a command's word is a sentence only when it
 * goes on as one (`learn a model on temperature last week`, not `flow 123`). A command that reads, even
 * one missing its arguments, is always the command.
 */
export function isSentence(text: string): boolean {
  const plain = decodeSlackEntities(text)
    .replace(/<[@#!][^>]*>/g, ' ')
    .trim();
  if (plain === '' || KEYED.test(plain)) return false;
  const parsed = parseCommand(plain);
  if (parsed.ok || parsed.kind !== 'error') return false;
  return plain.split(/\s+/).length >= (COMMANDS.some((c) => c.words[0] === firstWordOf(plain)) ? 4 : 2);
}

/**
 * Whether a text's first word is a command's (`learn …`) or a slip of one (`worksapce`): such a text is
 * that command, refused as typed (with the closest commands) when no sentence reads from it.
 */
export function startsWithCommand(text: string): boolean {
  const first = firstWordOf(decodeSlackEntities(text));
  const words = COMMANDS.map((c) => c.words[0]!);
  return words.includes(first) || suggest(first, words).length > 0;
}

const firstWordOf = (text: string) => /^\S+/.exec(text.trim())?.[0].toLowerCase() ?? '';
