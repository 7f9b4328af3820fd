import { createHash } from 'node:crypto';
import { storeFaultMessage } from '../../core/durable.js';
import { errText } from '../../log.js';
import type { Bot } from '../bot.js';
import { type Audience, tellUser } from '../reply.js';
import type { MessageBody } from '../views/messages.js';
import { context } from '../views/mrkdwn.js';

/**
 * A form sent twice runs once. Slack waits 3 seconds for a submission's acknowledgement; when it gives up,
 * the form stays open with "We had some trouble connecting" and the person presses Submit again, although
 * the bot has the first one in hand. Slack sends the second with a new signature, so the request marks
 * cannot tell the two apart; the view and its values can. The first submission claims their key in the
 * store (one atomic upsert, so a second replica cannot claim it too) and keeps what it came to there; the
 * same view with the same values, sent again while the key stands, creates nothing and is answered with
 * what the first one came to. A changed value is a new submission.
 *
 * A view stays open as long as the person leaves it, and nothing is sent twice in good faith after an
 * hour, so the key stands for one hour.
 */
export const SUBMISSION_KEY_MS = 60 * 60 * 1000;

/** How long a second submission waits for the first one's outcome before saying it is still running. */
const OUTCOME_WAIT_MS = 60_000;
const OUTCOME_POLL_MS = 250;

/** The first submission's message, and that it came from there. */
export const SENT_AGAIN =
  'This form had already been sent (Slack may have shown an error while the bot was still answering it), so nothing new was started. What the first one did:';

/** Said when the first one's outcome has not come within the wait. */
export const STILL_RUNNING =
  'This form had already been sent and the bot is still working on it, so nothing new was started. Its outcome will be posted as usual; check `/tsai flows` before sending it again.';

/** The key of one view's submission with these values: the same form sent again has the same key. */
export function submissionKey(
  teamId: string | undefined,
  view: { id?: string | undefined; state?: { values: unknown } | undefined },
): string | undefined {
  if (!view.id) return undefined;
  const values = createHash('sha256')
    .update(canonicalJson(view.state?.values ?? {}))
    .digest('base64url');
  return `form:${teamId ?? '-'}:${view.id}:${values}`;
}

/**
 * Claims the submission's key before it runs. False when it must not run: the same form was sent before
 * (the person is told what that one came to), or the store could not take the claim (the person is told
 * nothing was done, as a command would be).
 */
export async function runsOnce(bot: Bot, key: string | undefined, to: Audience): Promise<boolean> {
  if (!key) return true;
  const now = bot.now().getTime();
  try {
    if (await bot.store.claimSubmission(key, now, now + SUBMISSION_KEY_MS)) return true;
  } catch (e) {
    const message = storeFaultMessage(e);
    if (!message) throw e;
    bot.logger.warn({ err: errText(e), user: to.userId }, 'could not claim a form submission');
    await tellUser(bot, to, {
      text: message,
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: message } }],
    });
    return false;
  }
  bot.logger.info({ user: to.userId }, 'the same form was sent again; answering with the first outcome');
  const first = await firstOutcome(bot, key);
  const body: MessageBody = first
    ? { text: `${SENT_AGAIN} ${first.text}`, blocks: [context(SENT_AGAIN), ...first.blocks] }
    : { text: STILL_RUNNING, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: STILL_RUNNING } }] };
  await tellUser(bot, to, body);
  return false;
}

/** Keeps what the submission came to (the message its person was shown), for the same form sent again. */
export async function recordOutcome(bot: Bot, key: string | undefined, body: MessageBody): Promise<void> {
  if (!key) return;
  try {
    await bot.store.recordSubmissionOutcome(key, body);
  } catch (e) {
    // The submission ran; a second one finds no outcome and is told the first is still running.
    bot.logger.warn({ err: errText(e) }, 'could not keep what a form submission came to');
  }
}

async function firstOutcome(bot: Bot, key: string): Promise<MessageBody | undefined> {
  const until = Date.now() + OUTCOME_WAIT_MS;
  for (;;) {
    const outcome = await bot.store.submissionOutcome<MessageBody>(key).catch(() => null);
    if (outcome && typeof outcome.text === 'string' && Array.isArray(outcome.blocks)) return outcome;
    if (Date.now() >= until) return undefined;
    await new Promise((ok) => setTimeout(ok, OUTCOME_POLL_MS));
  }
}

/** JSON with every object's keys in order, so that the same values always hash alike. */
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}
