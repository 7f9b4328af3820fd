import { findSpec } from '../../core/grammar/commands.js';
import type { Bot } from '../bot.js';
import { followAsked } from '../command/index.js';
import { claimOnce, keptValue } from '../kept.js';
import { type Audience, say, tellUser } from '../reply.js';
import { code, mention } from '../views/mrkdwn.js';
import { KEPT_FOR_MS, type Offered, readingKey } from './answer.js';
import type { PlainJob } from './jobs.js';
import { otherWaysMessage } from './views.js';

/** Where the clicker is answered before anything is known of the reading: the click's own message. */
const clicker = (job: PlainJob): Audience => ({
  userId: job.userId,
  responseUrls: job.responseUrl ? [job.responseUrl] : [],
});

/**
 * The reading a click is about, when its clicker may act on it: only the person who asked may run what
 * the bot read from their words (another who sees the buttons is told to type it), and a reading is kept
 * for a day, under the tenant it was asked in.
 */
async function readingFor(bot: Bot, job: PlainJob): Promise<Offered | undefined> {
  const offered = await keptValue<Offered>(bot, readingKey(job.teamId, job.id));
  if (!offered) {
    await say(
      bot,
      clicker(job),
      'That reading is no longer kept (readings are kept for a day): nothing was done. Write your request again.',
    );
    return undefined;
  }
  if (offered.asked.userId !== job.userId) {
    bot.logger.warn({ user: job.userId, asker: offered.asked.userId }, 'a reading clicked by another person');
    await say(
      bot,
      clicker(job),
      `Only ${mention(offered.asked.userId)}, who asked, can run what the bot read from their message: nothing was done. To run it yourself, type ${code(`/tsai ${offered.asked.text}`)}.`,
    );
    return undefined;
  }
  return offered;
}

/**
 * "Run it": the command the bot read, run once by the one command path as if its asker had typed it where
 * they asked, at the moment of the click: the gate, the approvals, the masking, the limits and the audit
 * are a typed command's. A form it needs opens with the click's trigger.
 */
export async function followRun(job: PlainJob, bot: Bot): Promise<void> {
  const offered = await readingFor(bot, job);
  if (!offered) return;
  if (!(await claimOnce(bot, `${readingKey(job.teamId, job.id)}:ran`, KEPT_FOR_MS)))
    return void (await say(
      bot,
      offered.asked.to,
      `This was run already: ${code(`/tsai ${offered.asked.text}`)}. Nothing was run again.`,
    ));
  await followAsked(bot, {
    ...offered.asked,
    userId: job.userId,
    ...(job.teamId ? { teamId: job.teamId } : {}),
    triggerId: job.triggerId,
  });
}

/** "Not what I meant": each command the sentence came near, exactly as typed, with an example. */
export async function followOther(job: PlainJob, bot: Bot): Promise<void> {
  const offered = await readingFor(bot, job);
  if (!offered) return;
  const specs = [...new Set(offered.specs)].flatMap((id) => findSpec(id) ?? []);
  await tellUser(bot, offered.asked.to, otherWaysMessage(specs));
}
