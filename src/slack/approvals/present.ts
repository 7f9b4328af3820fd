import { type DecisionOutcome, refusalText } from '../../core/approvals/index.js';
import type { ApprovalRequest } from '../../core/records.js';
import { errText } from '../../log.js';
import type { Bot } from '../bot.js';
import { announceChange, requestChange } from '../changes.js';
import { sendOrPlain } from '../reply.js';
import { slackFailure } from '../slack-errors.js';
import { connectActions } from '../views/connect.js';
import { askWhom, code, escapeMrkdwn, type KnownBlock, mention, section } from '../views/mrkdwn.js';
import {
  alreadyDecidedText,
  approvalMessage,
  describeAction,
  requesterNotice,
  statusText,
  withHomeHint,
} from './card.js';
import { type CardCopy, copiesOf } from './copies.js';

/** How often, and after how long at most, a card that Slack could not update for now is tried again. */
const CARD_RETRIES = 3;
const CARD_RETRY_MAX_MS = 60_000;

/**
 * Rewrites a request's message for its current state (the buttons follow the state): the card in the
 * approvals channel and any copies sent to approvers directly. A card Slack could not update for now
 * (429, Slack failing) is tried again in the background, from the store's state at that time; one it
 * will not update (the bot was removed from the channel, the message is gone) stays as it was, and the
 * requester and the person who clicked are told instead. True when every card shows the new state.
 */
export async function showRequest(bot: Bot, r: ApprovalRequest): Promise<boolean> {
  announceChange(bot, requestChange(r));
  const places = await cardsOf(bot, r);
  let all = true;
  for (const place of places) if (!(await updateCard(bot, r, place, 0))) all = false;
  return all;
}

/** Where a request's card is: the approvals channel's message, and the copies sent to approvers. */
export async function cardsOf(bot: Bot, r: ApprovalRequest): Promise<CardCopy[]> {
  const copies = await copiesOf(bot.store, r.id).catch((e: unknown) => {
    bot.logger.warn({ requestId: r.id, err: errText(e) }, 'could not read where a request was sent');
    return [];
  });
  return [...(r.messageTs ? [{ channel: r.approvalsChannelId, ts: r.messageTs }] : []), ...copies];
}

async function updateCard(bot: Bot, r: ApprovalRequest, place: CardCopy, retries: number): Promise<boolean> {
  const requestId = r.id;
  const card = approvalMessage(r);
  try {
    await sendOrPlain(
      bot,
      card,
      (b) => bot.slack.chat.update({ channel: place.channel, ts: place.ts, text: b.text, blocks: b.blocks }),
      // Only a card still waiting for a decision has buttons to point elsewhere for.
      r.status === 'pending' ? withHomeHint(card) : undefined,
    );
    return true;
  } catch (e) {
    const f = slackFailure(e);
    const again = (f.kind === 'rate-limited' || f.kind === 'unavailable') && retries < CARD_RETRIES;
    bot.logger.error(
      { requestId, channel: place.channel, err: errText(e), again },
      again
        ? 'could not update the request message; trying again later'
        : 'could not update the request message',
    );
    if (again) {
      const wait = Math.min(CARD_RETRY_MAX_MS, f.retryAfterMs ?? 2_000 * 2 ** retries);
      setTimeout(() => {
        // The state may have moved on meanwhile: what the store says then is shown.
        void bot.approvals
          .get(requestId)
          .then((now) => (now ? updateCard(bot, now, place, retries + 1) : false))
          .catch((err: unknown) =>
            bot.logger.warn({ requestId, err: errText(err) }, 'could not update the request message'),
          );
      }, wait).unref();
    }
    return false;
  }
}

/**
 * Tells the requester what happened: in the thread they asked from (a mention in a thread), else in the
 * request's thread, or by direct message when there is no thread (the card went to the approvers
 * directly) or none takes the reply.
 */
export async function tellRequester(bot: Bot, r: ApprovalRequest): Promise<void> {
  const text = requesterNotice(r);
  const body = { text, blocks: [section(text)] };
  const threads = [
    ...(r.originThreadTs ? [{ channel: r.originChannelId, ts: r.originThreadTs }] : []),
    ...(r.messageTs ? [{ channel: r.approvalsChannelId, ts: r.messageTs }] : []),
  ];
  for (const thread of threads) {
    try {
      await sendOrPlain(bot, body, (b) =>
        bot.slack.chat.postMessage({
          channel: thread.channel,
          thread_ts: thread.ts,
          text: b.text,
          blocks: b.blocks,
        }),
      );
      return;
    } catch (e) {
      bot.logger.info(
        { requestId: r.id, channel: thread.channel, err: errText(e) },
        'could not reply in a thread of the request; trying the next way',
      );
    }
  }
  try {
    await sendOrPlain(bot, body, (b) =>
      bot.slack.chat.postMessage({ channel: r.requesterId, text: b.text, blocks: b.blocks }),
    );
  } catch (e) {
    bot.logger.error({ requestId: r.id, err: errText(e) }, 'could not tell the requester');
  }
}

/** Requests the bot decided by itself (expired, or interrupted by a crash): their messages and requesters. */
export async function announceDecided(bot: Bot, requests: ApprovalRequest[]): Promise<void> {
  for (const r of requests) {
    // Through the installation of the request's workspace: a sweep decides for every workspace at once.
    const speaking = await bot.forTeam(r.teamId ?? undefined);
    if (!speaking) continue;
    await showRequest(speaking, r);
    await tellRequester(speaking, r);
  }
}

/**
 * Shows a decision's result wherever the click came from: the winner's result on the request's message
 * and to its requester, and to the person who clicked (`tell`, privately) why nothing changed.
 */
/** How the person who clicked is told (privately); `more`: blocks under the sentence (a button). */
export type Tell = (text: string, more?: KnownBlock[]) => Promise<unknown>;

export async function present(bot: Bot, outcome: DecisionOutcome, tell: Tell): Promise<void> {
  const refusal = refusalText(outcome);
  if (refusal) {
    const ask = refusal.ask ? ` ${refusal.askLead ?? 'Ask'} ${askWhom(refusal.ask)}.` : '';
    const more = outcome.kind === 'connect-first' ? [connectActions(outcome.connect)] : [];
    return void (await tell(`${escapeMrkdwn(refusal.message)}${ask}`, more));
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
    case 'outcome-unknown': {
      const r = outcome.request;
      const shown = await showRequest(bot, r);
      await tellRequester(bot, r);
      // Where the card could not show the decision, the person who made it is told here.
      if (!shown)
        await tell(
          `The request's card could not be updated. ${mention(r.requesterId)}'s request ${code(r.id)} to ${describeAction(r)}: ${statusText(r)}`,
        );
    }
  }
}
