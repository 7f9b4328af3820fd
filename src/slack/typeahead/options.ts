import type { BlockSuggestion, SlackOptionsMiddlewareArgs } from '@slack/bolt';
import { getChannelDefaults } from '../../core/channel-defaults.js';
import { blockIdOf, selectFields } from '../../core/forms/fields.js';
import { fieldOptions } from '../../core/forms/options.js';
import { errText } from '../../log.js';
import type { Bot } from '../bot.js';
import { decodeMeta, pickedResources, type StateValues } from '../forms/index.js';
import { teamOf } from '../tenant.js';

type OptionsAck = Pick<SlackOptionsMiddlewareArgs<'block_suggestion'>, 'ack'>['ack'];
type Option = {
  text: { type: 'plain_text'; text: string };
  value: string;
  description?: { type: 'plain_text'; text: string };
};

/**
 * A user types into a form's type-ahead field: the options are answered in the ack itself (Slack waits
 * 3 seconds; the catalog search is one store query), on this thread. The form, its channel's defaults
 * and what else the view has picked shape the list; anything unreadable gives fewer options, never an
 * error: a view from another version of the bot, a payload without a team.
 */
export async function ackFieldOptions(
  { ack, body }: { ack: OptionsAck; body: BlockSuggestion },
  bot: Pick<Bot, 'store' | 'logger'>,
): Promise<void> {
  let options: Option[] = [];
  try {
    options = await optionsFor(body, bot);
  } catch (e) {
    bot.logger.warn({ err: errText(e), user: body?.user?.id }, 'could not list the options of a form field');
  }
  await ack({ options });
}

async function optionsFor(body: BlockSuggestion, bot: Pick<Bot, 'store'>): Promise<Option[]> {
  const teamId = teamOf(body);
  if (typeof teamId !== 'string' || !teamId) return [];
  const view = body.view as { private_metadata?: unknown; state?: { values?: unknown } } | undefined;
  const meta = decodeMeta(typeof view?.private_metadata === 'string' ? view.private_metadata : undefined);
  // The field is the form's type-ahead field of that block (of any form's, when the view is unreadable).
  const field = selectFields(meta?.kind).find((f) => f.blockId === String(body.block_id));
  if (!field) return [];
  const values =
    view?.state?.values && typeof view.state.values === 'object'
      ? (view.state.values as StateValues)
      : undefined;
  const channelBlock = values?.[blockIdOf('channel')];
  const chosenChannel = channelBlock ? Object.values(channelBlock)[0]?.selected_conversation : undefined;
  const channel = meta?.channel ?? (typeof chosenChannel === 'string' ? chosenChannel : undefined);
  const defaults = channel ? await getChannelDefaults(bot.store, channel) : null;
  const found = await fieldOptions(bot.store, {
    teamId,
    ...(meta ? { form: meta.kind } : {}),
    field: field.name,
    text: typeof body.value === 'string' ? body.value : '',
    picked: pickedResources(meta?.kind, values),
    defaults,
  });
  return found.map((c) => ({
    text: { type: 'plain_text', text: c.label },
    value: c.value,
    ...(c.description ? { description: { type: 'plain_text', text: c.description } } : {}),
  }));
}
