import type { webApi } from '@slack/bolt';
import { defaultedFields, fieldsFromCommand } from '../core/forms/prefill.js';
import type { BotDeps, MissingArgsRequest, SlackDeps } from './deps.js';
import { createUserDirectory } from './users.js';

/**
 * Fills in what the command path and the listeners need besides `BotDeps`: the user directory over
 * `client`, the user's zone, and the modal hook for commands with missing arguments. The Bolt app and
 * the command worker (src/slack/command-worker/) both build their deps here, so a command behaves the
 * same in either.
 */
export function completeDeps(deps: BotDeps, client: webApi.WebClient): SlackDeps {
  const users = deps.users ?? createUserDirectory(client, { logger: deps.logger });
  const full: SlackDeps = {
    ...deps,
    users,
    hooks: { ...deps.hooks },
    zoneOf: async (userId) => (await users.lookup(userId)).tz ?? deps.config.defaultTimeZone,
  };
  // The forms' code loads on the first form (see modals/register.ts).
  full.hooks.openModalForMissingArgs ??= async (req: MissingArgsRequest) =>
    (await import('./modals/open.js')).openModal(full, {
      client: req.client,
      triggerId: req.command.trigger_id,
      userId: req.command.user_id,
      kind: req.which,
      fields: fieldsFromCommand(req.which, req.given),
      origin: 'command',
      channel: req.command.channel_id,
      responseUrl: req.command.response_url,
      fromDefaults: defaultedFields(req.fromDefaults ?? []),
    });
  return full;
}
