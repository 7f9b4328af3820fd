import { errText } from '../../log.js';
import type { Bot } from '../bot.js';
import type { Job } from '../follow-up/jobs.js';
import { type Audience, say } from '../reply.js';
import { rejectReasonModal } from './card.js';
import { present, showRequest } from './present.js';

type Click = Extract<Job, { kind: 'approval-click' }>;

/**
 * After an Approve, Retry or Reject click: Approve and Retry decide now (the first valid click wins, and
 * only it creates the flow); Reject first checks the rules, then opens the form that asks for a reason.
 */
export async function followApprovalClick(job: Click, bot: Bot): Promise<void> {
  const to: Audience = {
    userId: job.userId,
    ...(job.channelId ? { channelId: job.channelId } : {}),
    responseUrls: job.responseUrl ? [job.responseUrl] : [],
  };
  const tell = (text: string) => say(bot, to, text);
  try {
    if (job.action === 'reject') {
      const check = await bot.approvals.check(job.requestId, job.userId, 'reject');
      if (!check.ok) return await present(bot, check.refusal, tell);
      await bot.slack.views.open({ trigger_id: job.triggerId, view: rejectReasonModal(check.request) });
      return;
    }
    const who = {
      requestId: job.requestId,
      userId: job.userId,
      ...(job.teamId ? { teamId: job.teamId } : {}),
      ...(job.channelId ? { channelId: job.channelId } : {}),
      onExecuting: (r: Parameters<typeof showRequest>[1]) => showRequest(bot, r),
    };
    const outcome =
      job.action === 'approve'
        ? await bot.approvals.decide({ ...who, decision: 'approve' })
        : await bot.approvals.retry(who);
    await present(bot, outcome, tell);
  } catch (e) {
    bot.logger.error(
      { err: errText(e, { stack: true }), job: job.action },
      'approval click failed inside the bot',
    );
    const doing = { approve: 'approving', retry: 'retrying', reject: 'rejecting' }[job.action];
    await tell(`Something went wrong inside the bot while ${doing} (the error is in its log).`);
  }
}

/** After the reject-reason form: the rejection is decided like any other click. */
export async function followRejectReason(
  job: Extract<Job, { kind: 'approval-reject' }>,
  bot: Bot,
): Promise<void> {
  const request = await bot.approvals.get(job.requestId).catch(() => null);
  const to: Audience = {
    userId: job.userId,
    ...(request ? { channelId: request.approvalsChannelId } : {}),
    responseUrls: [],
  };
  const tell = (text: string) => say(bot, to, text);
  try {
    const outcome = await bot.approvals.decide({
      requestId: job.requestId,
      userId: job.userId,
      ...(job.teamId ? { teamId: job.teamId } : {}),
      ...(request ? { channelId: request.approvalsChannelId } : {}),
      decision: 'reject',
      ...(job.reason ? { reason: job.reason } : {}),
    });
    await present(bot, outcome, tell);
  } catch (e) {
    bot.logger.error({ err: errText(e, { stack: true }) }, 'reject failed inside the bot');
    await tell('Something went wrong inside the bot while rejecting (the error is in its log).');
  }
}
