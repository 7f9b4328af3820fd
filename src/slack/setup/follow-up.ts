import { errText } from '../../log.js';
import type { Asked } from '../asked.js';
import type { Bot } from '../bot.js';
import { type Audience, say, tellUser } from '../reply.js';
import type { JobOf } from '../runtime/jobs.js';
import { slackFailure, slackFailureText } from '../slack-errors.js';
import { escapeMrkdwn, section } from '../views/mrkdwn.js';
import { NOTHING_TO_SET_UP, setupMessage, setupModal } from './views.js';

/**
 * `/tsai setup` on any surface: with one bot token there is nothing to set up; otherwise the workspace's
 * admins get the form at once (its trigger lasts 3 seconds), or a button where no trigger exists (a
 * mention), and anyone else is told what it is connected to and who may change it.
 */
export async function followSetupCommand(bot: Bot, asked: Asked): Promise<void> {
  await offerOrOpen(bot, {
    teamId: asked.teamId,
    userId: asked.userId,
    to: asked.to,
    triggerId: asked.triggerId,
  });
}

/** A Set up button clicked. */
export async function followSetupOpen(job: JobOf<'setup-open'>, bot: Bot): Promise<void> {
  await offerOrOpen(bot, {
    teamId: job.teamId,
    userId: job.userId,
    triggerId: job.triggerId,
    to: {
      userId: job.userId,
      ...(job.channelId ? { channelId: job.channelId } : {}),
      responseUrls: job.responseUrl ? [job.responseUrl] : [],
    },
  });
}

async function offerOrOpen(
  bot: Bot,
  a: { teamId: string | undefined; userId: string; to: Audience; triggerId: string | undefined },
): Promise<void> {
  const accounts = bot.accounts;
  if (!accounts || !a.teamId) return void (await say(bot, a.to, NOTHING_TO_SET_UP));
  const asker = {
    teamId: a.teamId,
    userId: a.userId,
    ...(a.to.channelId ? { channelId: a.to.channelId } : {}),
    surface: 'setup' as const,
  };
  const [account, refused] = await Promise.all([
    accounts.account(a.teamId),
    // The gate, before the form opens: the form's sending asks it again.
    accounts.mayOpen(asker).catch((e: unknown) => {
      bot.logger.warn({ user: a.userId, err: errText(e) }, 'could not tell whether someone is an admin');
      return {
        ok: false as const,
        message: 'The bot could not tell whether you are one of the admins just now: try again in a moment.',
      };
    }),
  ]);
  if (refused) {
    const m = setupMessage(account, false);
    const why = escapeMrkdwn(refused.message);
    return void (await tellUser(bot, a.to, {
      text: `${m.text} ${why}`,
      blocks: [...m.blocks, section(why)],
    }));
  }
  if (!a.triggerId) return void (await tellUser(bot, a.to, setupMessage(account, true)));
  try {
    await bot.slack.views.open({
      trigger_id: a.triggerId,
      view: setupModal(
        account ?? (bot.config.service.baseUrl ? { baseUrl: bot.config.service.baseUrl } : {}),
      ),
    });
  } catch (e) {
    bot.logger.warn({ user: a.userId, err: errText(e) }, 'could not open the setup form');
    const why = escapeMrkdwn(slackFailureText(slackFailure(e)));
    await say(
      bot,
      a.to,
      `The setup form did not open: ${why}. Nothing was changed; type \`/tsai setup\` again.`,
    );
  }
}
