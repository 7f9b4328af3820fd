import { COMMANDS } from '../../core/grammar/commands.js';

/**
 * The table of commands README.md and docs/bot.md show, written from the command table (the registry's
 * operations and the bot's own commands) between these marks: a command added to or removed from the
 * registry changes it, and a test fails when a doc's table differs (`npm run manifest` writes it anew).
 */
export const COMMANDS_TABLE =
  /(<!-- commands table: generated, do not edit -->\n)[\s\S]*?(<!-- end of commands table -->)/;

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** Every command, in the order help lists them: its usage line, what it does, where it is answered. */
export function commandsTable(): string {
  const rows = COMMANDS.map(
    (c) =>
      `| \`${cell(c.usage)}\` | ${cell(c.summary)} | ${c.answers ?? (c.mutating ? 'in the channel' : 'only you')} |`,
  );
  return ['| Command | What it does | Answered |', '| --- | --- | --- |', ...rows].join('\n');
}

/** A doc with its commands table written anew. */
export function withCommandsTable(doc: string): string {
  return doc.replace(
    COMMANDS_TABLE,
    (_m, open: string, close: string) => `${open}${commandsTable()}\n${close}`,
  );
}
