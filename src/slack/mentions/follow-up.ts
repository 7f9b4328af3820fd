import { storeFaultMessage } from '../../core/durable.js';
import { errText } from '../../log.js';
import type { Asked } from '../asked.js';
import type { Bot } from '../bot.js';
import { type AskedOutcome, outcomeOf } from '../command/index.js';
import { tellInviteOnce } from '../invite-hint.js';
import { readAsked } from '../plain/index.js';
import { say } from '../reply.js';
import type { MessageJob } from './jobs.js';
import { botIsMember } from './membership.js';
import { audienceOf } from './place.js';
import { markCame, markMessage } from './reactions.js';

/**
 * How long the bot remembers a message it read: a delivery of the same message again (a retry Slack made
 * under a new event ID, a replica that missed the mark) within it runs nothing, and an edit within it is
 * read again only if the first wording was refused. An edit a day later is not read.
 */
const READ_FOR_MS = 24 * 60 * 60_000;

/**
 * What the store keeps of a message the bot read: what came of its last reading, and which version that was
 * (`first`, or the ts of the edit read). One edit at most is read after each refused version: it claims
 * the right to by that version, so two edits close together cannot both run.
 */
interface Read {
  outcome: AskedOutcome;
  version: string;
}

/**
 * How long an edit waits for what came of its message's reading, which may still be under way (an edit of
 * a message never read waits this long for nothing, holding no more than a timer).
 */
const FIRST_READING_WAIT_MS = 10_000;
const FIRST_READING_POLL_MS = 250;

/**
 * What came of a message's last reading. The refusal reaches the person just before it is recorded, so an
 * edit made at once may come first: it waits for the record (nothing read yet: undefined).
 */
async function lastReading(bot: Bot, key: string): Promise<Read | undefined> {
  const until = Date.now() + FIRST_READING_WAIT_MS;
  for (;;) {
    const read = await bot.store.submissionOutcome<Read>(key);
    if (read) return read;
    if (Date.now() >= until) return undefined;
    await new Promise((ok) => setTimeout(ok, FIRST_READING_POLL_MS));
  }
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
 * run as the same command typed with `/tsai` would be, and answered where it was asked. Its reactions say
 * that it was taken, then what came of it (reactions.ts). A mention from a channel the bot is not in is
 * answered where Slack lets it, and its person told, once, how to invite it.
 */
export async function followMessage(job: MessageJob, bot: Bot): Promise<void> {
  const log = bot.logger.child({ part: 'mentions', user: job.userId, channel: job.channelId });
  const key = `message:${job.teamId ?? '-'}:${job.channelId}:${job.ts}`;
  const now = bot.now().getTime();
  const claim = (k: string) => bot.store.claimSubmission(k, now, now + READ_FOR_MS);
  try {
    if (job.editedTs) {
      // A corrected command is not run again: only a wording that was refused (nothing done) is read anew.
      const last = await lastReading(bot, key);
      if (last?.outcome !== 'refused' || !(await claim(`${key}:after:${last.version}`)))
        return void log.info('an edited message; nothing is run again');
    } else if (!(await claim(key))) {
      return void log.info('a message read before, delivered again; nothing is run');
    }
  } catch (e) {
    const message = storeFaultMessage(e);
    if (!message) throw e;
    log.warn({ err: errText(e) }, 'could not claim a message');
    return void (await say(bot, audienceOf(job), message));
  }
  const message = { teamId: job.teamId, channelId: job.channelId, ts: job.ts };
  // An edit is read only after its first wording was refused, which the message shows.
  await markMessage(bot, message, 'taken', job.editedTs ? 'refused' : undefined);
  if (job.kind === 'mention' && !(await botIsMember(bot, job.channelId)))
    await tellInviteOnce(
      bot,
      { userId: job.userId, channelId: job.channelId },
      { kind: 'mention', channelId: job.channelId },
    );
  const came = await readAsked(bot, askedOf(job));
  await bot.store
    .recordSubmissionOutcome(key, {
      outcome: outcomeOf(came),
      version: job.editedTs ?? 'first',
    } satisfies Read)
    .catch((e: unknown) => log.warn({ err: errText(e) }, 'could not keep what came of a message'));
  await markCame(bot, message, came);
}
