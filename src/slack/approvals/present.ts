import { type DecisionOutcome, refusalText } from '../../core/approvals/index.js';
import { errText } from '../../log.js';
import type { ApprovalRequest } from '../../store/index.js';
import type { Bot } from '../bot.js';
import { refreshHomes, requestChange } from '../home/refresh.js';
import { askWhom } from '../views/mrkdwn.js';
import { alreadyDecidedText, approvalMessage, requesterNotice } from './card.js';

/** Rewrites a request's message for its current state (the buttons follow the state). */
export async function showRequest(bot: Bot, r: ApprovalRequest): Promise<void> {
  refreshHomes(bot, requestChange(r));
  if (!r.messageTs) return;
  try {
    await bot.slack.chat.update({ channel: r.approvalsChannelId, ts: r.messageTs, ...approvalMessage(r) });
  } catch (e) {
    bot.logger.error({ requestId: r.id, err: errText(e) }, 'could not update the request message');
  }
}

/** Tells the requester in the request's thread what happened. */
export async function tellRequester(bot: Bot, r: ApprovalRequest): Promise<void> {
  if (!r.messageTs) return;
  try {
    await bot.slack.chat.postMessage({
      channel: r.approvalsChannelId,
      thread_ts: r.messageTs,
      text: requesterNotice(r),
    });
  } catch (e) {
    bot.logger.error({ requestId: r.id, err: errText(e) }, 'could not tell the requester');
  }
}

/** Requests the bot decided by itself (expired, or interrupted by a crash): their messages and requesters. */
export async function announceDecided(bot: Bot, requests: ApprovalRequest[]): Promise<void> {
  for (const r of requests) {
    await showRequest(bot, r);
    await tellRequester(bot, r);
  }
}

/**
 * Shows a decision's result wherever the click came from: the winner's result on the request's message
 * and to its requester, and to the person who clicked (`tell`, privately) why nothing changed.
 */
export async function present(
  bot: Bot,
  outcome: DecisionOutcome,
  tell: (text: string) => Promise<unknown>,
): Promise<void> {
  const refusal = refusalText(outcome, bot.approvals.approverIds);
  if (refusal) {
    const ask = refusal.ask ? ` ${refusal.askLead ?? 'Ask'} ${askWhom(refusal.ask)}.` : '';
    return void (await tell(`${refusal.message}${ask}`));
  }
  switch (outcome.kind) {
    case 'expired':
      if (outcome.expiredNow) await announceDecided(bot, [outcome.request]);
      return void (await tell(alreadyDecidedText(outcome.request)));
    case 'already-decided':
      return void (await tell(alreadyDecidedText(outcome.request)));
    case 'rejected':
    case 'executed':
    case 'failed':
    case 'outcome-unknown':
      await showRequest(bot, outcome.request);
      await tellRequester(bot, outcome.request);
  }
}
