import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../src/core/grammar/commands.js';
import { REGISTRY } from '../../../src/core/operations/registry/index.js';
import { COMMANDS_TABLE, commandsTable, withCommandsTable } from '../../../src/slack/command/table.js';

const DOCS = ['../../../README.md', '../../../docs/bot.md'].map((d) => new URL(d, import.meta.url));

describe('the commands tables of README.md and docs/bot.md', () => {
  // `npm run manifest` writes them anew, as it writes manifest.yml and the steps table.
  if (process.env.UPDATE_MANIFEST === '1')
    for (const doc of DOCS) {
      const text = readFileSync(doc, 'utf8');
      const written = withCommandsTable(text);
      if (written !== text) writeFileSync(doc, written);
    }

  it.each(DOCS.map((d) => [d.pathname.split('/').slice(-2).join('/'), d] as const))(
    '%s holds the table the command table writes, row for row',
    (_name, doc) => {
      const text = readFileSync(doc, 'utf8');
      expect(COMMANDS_TABLE.test(text), 'the table is between its marks').toBe(true);
      expect(text).toBe(withCommandsTable(text));
    },
  );

  it('has a row per command, in the order help lists them, each registry operation included', () => {
    const rows = commandsTable().split('\n').slice(2);
    expect(rows).toHaveLength(COMMANDS.length);
    for (const [i, c] of COMMANDS.entries()) expect(rows[i]).toContain(c.usage.replaceAll('|', '\\|'));
    for (const e of REGISTRY) expect(commandsTable()).toContain(e.command.summary.replaceAll('|', '\\|'));
  });

  it('a row edited by hand, or a command the registry no longer has, is a table the check refuses', () => {
    const text = readFileSync(DOCS[0]!, 'utf8');
    const edited = text.replace(/\| only you \|/, '| everyone |');
    expect(edited).not.toBe(withCommandsTable(edited));
    const row = commandsTable().split('\n')[3]!;
    const removed = text.replace(`${row}\n`, '');
    expect(removed).not.toBe(text);
    expect(removed).not.toBe(withCommandsTable(removed));
  });
});
