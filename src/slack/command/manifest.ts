import { COMMANDS } from '../../core/grammar/commands.js';
import { REGISTRY, registeredSpec } from '../../core/operations/registry/index.js';
import type { ManifestPart } from '../manifest/part.js';
import { COMMAND_NAME } from './name.js';

/**
 * A command's leading words, as its usage line begins (`live start/stop`, `help`): what a person types
 * before its arguments. Choices of a word are shown with `/`, since the hint separates commands with `|`.
 */
export function commandHead(usage: string): string {
  const words: string[] = [];
  for (const w of usage.split(/\s+/).slice(1)) {
    if (!/^[a-z][a-z|-]*$/.test(w)) break;
    words.push(w.replaceAll('|', '/'));
  }
  return words.join(' ');
}

/**
 * The slash command as Slack shows it while people type `/`: its description names the service's
 * operations (the registry's commands), its usage hint every command, `help [command]` first, as the
 * command table lists them.
 */
export function commandManifest(): ManifestPart {
  const operations = REGISTRY.map((e) => commandHead(registeredSpec(e.command.id)?.usage ?? ''));
  const [help, ...others] = COMMANDS.map((c) => c.usage);
  return {
    slashCommands: [
      {
        command: COMMAND_NAME,
        description: `Run the time-series AI service from Slack: ${operations.join(', ')}.`,
        usage_hint: [help!.replace(/^\/\S+\s+/, ''), ...others.map(commandHead)].join(' | '),
        // People's @mentions, #channels and links arrive as Slack's IDs (`<@U…>`), not as display names.
        should_escape: true,
      },
    ],
    scopes: [{ scope: 'commands', why: `${COMMAND_NAME} itself` }],
  };
}
