import type { SlashCommand } from '@slack/bolt';
import {
  changeSchedule,
  channelSchedules,
  createDigest,
  createSchedule,
  readScheduling,
} from '../../core/schedules/manage.js';
import type { Bot } from '../bot.js';
import { type Audience, postInChannel, tellUser } from '../reply.js';
import { errorMessage, invocationOf } from '../views/messages.js';
import { askerOf, showCreated } from './create.js';
import { schedulingDeps } from './deps.js';
import { postDigestNow } from './digest.js';
import { changedMessage, listMessage } from './views.js';

/**
 * `/tsai schedule …`, `/tsai schedules`, `/tsai digest …` after the ack: core reads and decides; this
 * shows the outcome (a new or changed schedule in the channel, the list and refusals only to the asker).
 */
export async function followScheduling(
  bot: Bot,
  read: { id: string; text: string },
  command: SlashCommand,
  to: Audience,
): Promise<void> {
  const who = invocationOf(command);
  const req = readScheduling(read.id, read.text);
  if ('ok' in req) return void (await tellUser(bot, to, errorMessage(req, who)));
  const asker = await askerOf(bot, {
    userId: command.user_id,
    ...(command.team_id ? { teamId: command.team_id } : {}),
    channelId: command.channel_id,
    userName: command.user_name,
  });
  const deps = schedulingDeps(bot);
  const inChannel = async (body: Parameters<typeof postInChannel>[2]) =>
    (await postInChannel(bot, to, body)) || (await tellUser(bot, to, body));
  switch (req.kind) {
    case 'list':
      return void (await tellUser(
        bot,
        to,
        listMessage(await channelSchedules(bot.store, asker.channelId, asker.teamId)),
      ));
    case 'digest-now':
      return void (await postDigestNow(bot, asker, to));
    case 'change': {
      const changed = await changeSchedule(deps, asker, req);
      if (!changed.ok) return void (await tellUser(bot, to, errorMessage(changed, who)));
      return void (await inChannel(changedMessage(changed.schedule, changed.action, asker.userId)));
    }
    case 'create':
    case 'digest': {
      const created =
        req.kind === 'create'
          ? await createSchedule(deps, asker, req)
          : await createDigest(deps, asker, req.whenText);
      if (!created.ok) return void (await tellUser(bot, to, errorMessage(created, who)));
      await showCreated(bot, to, asker, created);
      return;
    }
  }
}
