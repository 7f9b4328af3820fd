import type { OpFailure } from '../../core/outcome.js';
import { type Asker, type Created, createSchedule } from '../../core/schedules/manage.js';
import type { Bot } from '../bot.js';
import { type Audience, postInChannel, tellUser } from '../reply.js';
import { goesBy } from '../users.js';
import type { MessageBody } from '../views/messages.js';
import { schedulingDeps } from './deps.js';
import { createdMessage } from './views.js';

/** The person a surface acts for, as the schedule path reads them: zone, locale and name from Slack. */
export async function askerOf(
  bot: Bot,
  who: { userId: string; teamId?: string; channelId: string; userName?: string },
): Promise<Asker> {
  const [info, timeZone] = await Promise.all([bot.users.lookup(who.userId), bot.zoneOf(who.userId)]);
  const userName = goesBy(info, who.userName);
  return {
    userId: who.userId,
    ...(who.teamId ? { teamId: who.teamId } : {}),
    channelId: who.channelId,
    person: { ...(userName ? { userName } : {}), timeZone, ...(info.locale ? { locale: info.locale } : {}) },
  };
}

/** A new schedule or digest in its channel (or, without the bot there, to the asker), then its approval card. */
export async function showCreated(
  bot: Bot,
  to: Audience,
  asker: Asker,
  created: Extract<Created, { ok: true }>,
): Promise<MessageBody> {
  const list = await bot.store.listSchedules({
    channelId: asker.channelId,
    ...(asker.teamId ? { teamId: asker.teamId } : {}),
  });
  const number = list.findIndex((s) => s.id === created.schedule.id) + 1;
  const body = createdMessage(created.schedule, { ...created, number });
  if (!(await postInChannel(bot, to, body))) await tellUser(bot, to, body);
  if (created.needsApproval) {
    const { askApproval } = await import('./approval.js');
    await askApproval(bot, created.schedule, created.runs);
  }
  return body;
}

/**
 * A command line from a form's "Repeat" or a finished flow's "Run this every …", made a schedule through
 * the one schedule path exactly as `/tsai schedule "<when>" <command>` would be, and shown. A refusal is
 * the caller's to show: a form offers its inputs back with it.
 */
export async function scheduleCommandLine(
  bot: Bot,
  asker: Asker,
  req: { whenText: string; commandText: string },
  to: Audience,
): Promise<{ ok: true; body: MessageBody } | OpFailure> {
  const created = await createSchedule(schedulingDeps(bot), asker, {
    kind: 'create',
    whenText: req.whenText,
    commandText: req.commandText.replace(/^\/tsai\s+/, ''),
  });
  if (!created.ok) return created;
  return { ok: true, body: await showCreated(bot, to, asker, created) };
}
