import type { webApi } from '@slack/bolt';
import { defaultedFields, fieldsFromCommand } from '../core/forms/prefill.js';
import type { BotDeps, MissingArgsRequest, SlackDeps } from './deps.js';
import { openModal } from './modals/open.js';
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
  full.hooks.openModalForMissingArgs ??= (req: MissingArgsRequest) =>
    openModal(full, {
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
