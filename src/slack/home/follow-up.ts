import { errText } from '../../log.js';
import { describeAction, rejectReasonModal, statusText } from '../approvals/card.js';
import { present, showRequest } from '../approvals/present.js';
import type { Bot } from '../bot.js';
import type { Job } from '../follow-up/jobs.js';
import { type Audience, say } from '../reply.js';
import { code, mention } from '../views/mrkdwn.js';
import { HOME_OPEN_DELAY_MS, homes } from './publish.js';

/** The Home tab was opened: publish it (visits in quick succession, and a publish on its way, are joined). */
export async function followHomeOpened(job: Extract<Job, { kind: 'home-opened' }>, bot: Bot): Promise<void> {
  homes(bot).request(
    { teamId: job.teamId, userId: job.userId },
    { delayMs: HOME_OPEN_DELAY_MS, ...(job.hash ? { hash: job.hash } : {}) },
  );
}

/**
 * Approve or Reject in the Home tab goes through the card's code: the same rules (`check`), the same
 * exactly-once decision (`decide`) and the same presentation (`present`: the request's card and its
 * requester). A Home click has no response_url, so the clicker is told privately by direct message, and
 * their Home is published again. Reject opens the card's reason form.
 */
export async function followHomeDecision(
  job: Extract<Job, { kind: 'home-decision' }>,
  bot: Bot,
): Promise<void> {
  const to: Audience = { userId: job.userId, responseUrls: [] };
  const tell = (text: string) => say(bot, to, text);
  try {
    if (job.action === 'reject') {
      const check = await bot.approvals.check(job.requestId, job.userId, 'reject');
      if (!check.ok) return await present(bot, check.refusal, tell);
      await bot.slack.views.open({ trigger_id: job.triggerId, view: rejectReasonModal(check.request) });
      return;
    }
    const outcome = await bot.approvals.decide({
      requestId: job.requestId,
      userId: job.userId,
      ...(job.teamId ? { teamId: job.teamId } : {}),
      decision: 'approve',
      onExecuting: (r) => showRequest(bot, r),
    });
    await present(bot, outcome, tell);
    if (outcome.kind === 'executed' || outcome.kind === 'failed' || outcome.kind === 'outcome-unknown') {
      const r = outcome.request;
      // On the card the approver sees the result in place; from the Home they are told.
      await tell(
        `${mention(r.requesterId)}'s request ${code(r.id)} to ${describeAction(r)}: ${statusText(r)}`,
      );
    }
  } catch (e) {
    bot.logger.error(
      { err: errText(e, { stack: true }), action: job.action },
      'Home decision failed inside the bot',
    );
    await tell(
      `Something went wrong inside the bot while ${job.action === 'approve' ? 'approving' : 'rejecting'} (the error is in its log).`,
    );
  } finally {
    if (job.teamId) homes(bot).request({ teamId: job.teamId, userId: job.userId });
  }
}
