import { storeFaultMessage } from '../../core/durable.js';
import { errText } from '../../log.js';
import type { Asked } from '../asked.js';
import type { Bot } from '../bot.js';
import { type AskedOutcome, followAsked } from '../command/index.js';
import { tellInviteOnce } from '../invite-hint.js';
import { say } from '../reply.js';
import type { MessageJob } from './jobs.js';
import { botIsMember } from './membership.js';
import { audienceOf } from './place.js';

/**
 * How long the bot remembers a message it read: a delivery of the same message again (a retry Slack made
 * under a new event ID, a replica that missed the mark) within it runs nothing, and an edit within it is
 * read again only if the first wording was refused. An edit a day later is not read.
 */
const READ_FOR_MS = 24 * 60 * 60_000;

/** What the store keeps of a message the bot read: what came of it. */
interface Read {
  outcome: AskedOutcome;
}

/** A message as the one command path takes it: answered where it was asked; no form opens without a click. */
function askedOf(job: MessageJob): Asked {
  return {
    text: job.text,
    userId: job.userId,
    ...(job.teamId ? { teamId: job.teamId } : {}),
    channelId: job.channelId,
    via: job.kind,
    to: audienceOf(job),
    correctable: true,
  };
}

/**
 * A mention or a direct message after its acknowledgement: read once (the same message delivered again
 * runs nothing; an edit is read again only when its first wording was refused and nothing was done), then
 * run as the same command typed with `/tsai` would be, and answered where it was asked. A mention from a
 * channel the bot is not in is answered where Slack lets it, and its person told, once, how to invite it.
 */
export async function followMessage(job: MessageJob, bot: Bot): Promise<void> {
  const log = bot.logger.child({ part: 'mentions', user: job.userId, channel: job.channelId });
  const key = `message:${job.teamId ?? '-'}:${job.channelId}:${job.ts}`;
  const now = bot.now().getTime();
  try {
    if (job.editedTs) {
      // A corrected command is not run again: only a wording that was refused (nothing done) is read anew.
      const first = await bot.store.submissionOutcome<Read>(key);
      if (first?.outcome !== 'refused') return void log.info('an edited message; nothing is run again');
      if (!(await bot.store.claimSubmission(`${key}:edited:${job.editedTs}`, now, now + READ_FOR_MS))) return;
    } else if (!(await bot.store.claimSubmission(key, now, now + READ_FOR_MS))) {
      return void log.info('a message read before, delivered again; nothing is run');
    }
  } catch (e) {
    const message = storeFaultMessage(e);
    if (!message) throw e;
    log.warn({ err: errText(e) }, 'could not claim a message');
    return void (await say(bot, audienceOf(job), message));
  }
  if (job.kind === 'mention' && !(await botIsMember(bot, job.channelId)))
    await tellInviteOnce(
      bot,
      { userId: job.userId, channelId: job.channelId },
      { kind: 'mention', channelId: job.channelId },
    );
  const outcome = await followAsked(bot, askedOf(job));
  await bot.store
    .recordSubmissionOutcome(key, { outcome } satisfies Read)
    .catch((e: unknown) => log.warn({ err: errText(e) }, 'could not keep what came of a message'));
}
