import type { DecisionOutcome } from '../../core/approvals/index.js';
import { storeFaultOf } from '../../core/durable.js';
import type { ApprovalRequest } from '../../core/records.js';
import { errText } from '../../log.js';
import type { Bot } from '../bot.js';
import { type Audience, say } from '../reply.js';
import type { Job } from '../runtime/jobs.js';
import { slackFailure, slackFailureText } from '../slack-errors.js';
import { goesBy } from '../users.js';
import { code, escapeMrkdwn } from '../views/mrkdwn.js';
import { rejectReasonModal } from './card.js';
import { present, showRequest, type Tell } from './present.js';

type Click = Extract<Job, { kind: 'approval-click' }>;

/** A decision clicked on any surface: the request's card or a Home tab. */
export interface DecisionClick {
  action: 'approve' | 'retry' | 'reject';
  requestId: string;
  userId: string;
  teamId?: string;
  /** Where the clicker saw the request (the card's channel); absent for a Home tab. */
  channelId?: string;
  triggerId: string;
  /** The surface clicked on: the request's card (the default), or a Home tab. */
  surface?: 'button' | 'home';
}

/**
 * The one way a clicked decision is taken, whichever surface showed the button: Approve and Retry decide
 * now (the first valid click wins, and only it creates the flow); Reject first checks the rules, then opens
 * the form that asks for a reason. The outcome is presented (the card, the requester, the clicker through
 * `tell`) and returned; undefined when a form was opened or the bot failed inside (and said so).
 */
export async function decideClick(
  bot: Bot,
  click: DecisionClick,
  tell: Tell,
): Promise<DecisionOutcome | undefined> {
  try {
    if (click.action === 'reject') {
      const check = await bot.approvals.check(click.requestId, click.userId, 'reject', click.teamId);
      if (!check.ok) return void (await present(bot, check.refusal, tell));
      return void (await openRejectForm(bot, click.triggerId, check.request, tell));
    }
    const userName = goesBy(await bot.users.lookup(click.userId));
    const who = {
      requestId: click.requestId,
      userId: click.userId,
      ...(userName ? { userName } : {}),
      ...(click.teamId ? { teamId: click.teamId } : {}),
      ...(click.channelId ? { channelId: click.channelId } : {}),
      surface: click.surface ?? 'button',
      onExecuting: async (r: Parameters<typeof showRequest>[1]) => {
        await showRequest(bot, r);
      },
    };
    const outcome =
      click.action === 'approve'
        ? await bot.approvals.decide({ ...who, decision: 'approve' })
        : await bot.approvals.retry(who);
    await present(bot, outcome, tell);
    return outcome;
  } catch (e) {
    bot.logger.error(
      { err: errText(e, { stack: true }), action: click.action },
      'approval click failed inside the bot',
    );
    const doing = { approve: 'approving', retry: 'retrying', reject: 'rejecting' }[click.action];
    await tell(
      storeFaultText(e, doing, click.requestId) ??
        `Something went wrong inside the bot while ${doing} (the error is in its log).`,
    );
    return undefined;
  }
}

/**
 * Reject asks for a reason in a form. If Slack does not let it open (its trigger_id lasts 3 seconds, or
 * Slack fails), nothing was decided, and the person is told so and how to try again.
 */
async function openRejectForm(
  bot: Bot,
  triggerId: string,
  request: ApprovalRequest,
  tell: (text: string) => Promise<unknown>,
): Promise<void> {
  try {
    await bot.slack.views.open({ trigger_id: triggerId, view: rejectReasonModal(request) });
  } catch (e) {
    bot.logger.warn({ requestId: request.id, err: errText(e) }, 'the reject-reason form did not open');
    await tell(
      `The form asking for a reason did not open: ${escapeMrkdwn(slackFailureText(slackFailure(e)))}. Nothing was decided; request ${code(request.id)} is still pending. Click Reject again to reject it.`,
    );
  }
}

/** After an Approve, Retry or Reject click on a request's card: told through the card's response_url. */
export async function followApprovalClick(job: Click, bot: Bot): Promise<void> {
  const to: Audience = {
    userId: job.userId,
    ...(job.channelId ? { channelId: job.channelId } : {}),
    responseUrls: job.responseUrl ? [job.responseUrl] : [],
  };
  await decideClick(bot, job, (text, more) => say(bot, to, text, more));
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
  const tell: Tell = (text, more) => say(bot, to, text, more);
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
    await tell(
      storeFaultText(e, 'rejecting', job.requestId) ??
        'Something went wrong inside the bot while rejecting (the error is in its log).',
    );
  }
}

/**
 * A click the store failed under: whether the decision was stored before the failure cannot be told from
 * here, so the card (updated from the store) is where to look, and clicking again is safe: a decision is a
 * compare-and-set.
 */
function storeFaultText(e: unknown, doing: string, requestId: string): string | undefined {
  const fault = storeFaultOf(e);
  if (!fault) return undefined;
  const what =
    fault === 'unavailable'
      ? 'did not answer'
      : 'would not save it (its disk may be full, or it is read-only)';
  return `The bot's database ${what} while ${doing} request ${code(requestId)}. If its card still shows Approve and Reject, nothing was decided: click again in a minute.`;
}
