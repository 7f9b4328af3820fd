import { changeSchedule } from '../../core/schedules/change.js';
import { schedulesPage } from '../../core/schedules/find.js';
import { createDigest, createSchedule, readScheduling } from '../../core/schedules/manage.js';
import { previewRuns } from '../../core/schedules/preview.js';
import { ruleOf } from '../../core/schedules/rule.js';
import { type Asked, invocationOfAsked } from '../asked.js';
import type { Bot } from '../bot.js';
import { postInChannel, tellUser } from '../reply.js';
import { errorMessage } from '../views/messages.js';
import { askApproval } from './approval.js';
import { askerOf, showCreated } from './create.js';
import { schedulingDeps } from './deps.js';
import { postDigestNow } from './digest.js';
import { changedMessage, listMessage } from './views.js';

/**
 * `schedule …`, `schedules`, `digest …` typed on any surface, after the ack: core reads and decides; this
 * shows the outcome where it was asked (a new or changed schedule in the channel, or the thread asked in;
 * the list and refusals only to the asker). A schedule belongs to its channel, so its runs are shown there.
 */
export async function followScheduling(
  bot: Bot,
  read: { id: string; text: string },
  asked: Asked,
): Promise<void> {
  const { to } = asked;
  const who = invocationOfAsked(asked);
  const req = readScheduling(read.id, read.text);
  if ('ok' in req) return void (await tellUser(bot, to, errorMessage(req, who)));
  const asker = await askerOf(bot, {
    userId: asked.userId,
    ...(asked.teamId ? { teamId: asked.teamId } : {}),
    channelId: asked.channelId,
    ...(asked.userName ? { userName: asked.userName } : {}),
  });
  const deps = schedulingDeps(bot);
  const inChannel = async (body: Parameters<typeof postInChannel>[2]) =>
    (await postInChannel(bot, to, body)) || (await tellUser(bot, to, body));
  switch (req.kind) {
    case 'list':
      return void (await tellUser(bot, to, listMessage(await schedulesPage(bot.store, asker, req.page))));
    case 'digest-now':
      return void (await postDigestNow(bot, asker, to));
    case 'change': {
      const changed = await changeSchedule(deps, asker, req);
      if (!changed.ok) return void (await tellUser(bot, to, errorMessage(changed, who)));
      await inChannel(changedMessage(changed, asker.userId));
      if (changed.needsApproval)
        await askApproval(
          bot,
          changed.schedule,
          previewRuns(ruleOf(changed.schedule), bot.now().getTime(), 3),
        );
      return;
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
