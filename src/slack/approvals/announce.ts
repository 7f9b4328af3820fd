import { MODEL_DOUBT_CHECK, modelDoubtText } from '../../core/approvals/index.js';
import type { ApprovalRequest } from '../../core/records.js';
import { errText } from '../../log.js';
import type { Bot } from '../bot.js';
import { announceChange, requestChange } from '../changes.js';
import { type Audience, postInChannel, sendOrPlain, tellUser } from '../reply.js';
import { type SlackFailure, slackFailure, slackFailureText } from '../slack-errors.js';
import type { Invocation, MessageBody } from '../views/messages.js';
import { code, context, escapeMrkdwn, mention, section, slackTime } from '../views/mrkdwn.js';
import { approvalMessage, describeAction, withHomeHint } from './card.js';
import { approverUsers, type CardCopy, recordCopies } from './copies.js';

/** Why a request asked in a direct message, with no approvals channel set, goes to the approvers directly. */
const ASKED_IN_DM =
  'it was asked in a direct message and no approvals channel is set (TSAI_APPROVALS_CHANNEL), where approvers could see it';

/** A 429 this short on the approvals channel (a burst of requests) is waited out once, inside the job. */
const SHORT_RETRY_AFTER_MS = 5_000;

/**
 * A request was filed: post it with Approve/Reject in the approvals channel, remember where (so it can be
 * updated in place), and give the requester a private link to it. When the channel does not take it, the
 * card goes to the approvers by direct message instead (`sendToApprovers`).
 */
export async function announceRequest(
  bot: Bot,
  request: ApprovalRequest,
  modelFrom: 'argument' | 'assessment',
  o: { to: Audience; who: Invocation },
): Promise<void> {
  announceChange(bot, requestChange(request));
  // Asked in the requester's direct messages with no approvals channel set, the card would be posted
  // where no approver can see it: it goes to the approvers directly.
  if (o.to.direct && request.approvalsChannelId === o.to.channelId)
    return sendToApprovers(bot, request, undefined, o, ASKED_IN_DM);
  let ts: string | undefined;
  let failure: SlackFailure | undefined;
  for (let attempt = 0; attempt < 2 && !ts; attempt++) {
    try {
      const posted = await postCard(bot, request.approvalsChannelId, approvalMessage(request));
      ts = posted.ts;
    } catch (e) {
      failure = slackFailure(e);
      const wait = failure.retryAfterMs;
      if (
        attempt === 0 &&
        failure.kind === 'rate-limited' &&
        wait !== undefined &&
        wait <= SHORT_RETRY_AFTER_MS
      ) {
        await new Promise((r) => setTimeout(r, wait));
        continue;
      }
      bot.logger.warn(
        { requestId: request.id, channel: request.approvalsChannelId, err: errText(e) },
        'could not post the approval request in the approvals channel; sending it to the approvers directly',
      );
      break;
    }
  }
  if (!ts) return sendToApprovers(bot, request, failure, o);
  await bot.approvals.attachMessage(request.id, request.approvalsChannelId, ts);

  let link = `<#${request.approvalsChannelId}>`;
  try {
    const p = await bot.slack.chat.getPermalink({ channel: request.approvalsChannelId, message_ts: ts });
    // Slack renders no mention inside a link label, so the channel follows the link instead.
    if (p.permalink) link = `<${p.permalink}|the request> in <#${request.approvalsChannelId}>`;
  } catch (e) {
    bot.logger.warn({ requestId: request.id, err: errText(e) }, 'chat.getPermalink failed');
  }
  const model = modelFrom === 'assessment' ? ` (M[0] of assessment ${code(request.assessmentId ?? '')})` : '';
  // Asked in a thread, everyone in it learns where the request waits, and its decision is told there too.
  const inThread = o.to.threadTs !== undefined;
  const whose = inThread ? `${mention(request.requesterId)}'s request` : 'Your request';
  const text =
    `:inbox_tray: ${whose} to ${describeAction(request)} is waiting for approval: ${link}.` +
    `${model ? ` Model ${code(request.modelId)}${model}.` : ''}` +
    `${request.reason ? ` Reason: ${escapeMrkdwn(request.reason)}.` : ''}` +
    ' Nothing starts or stops until another approver approves it.' +
    doubtNote(request);
  const note = {
    text,
    blocks: [{ type: 'section' as const, text: { type: 'mrkdwn' as const, text, verbatim: true } }],
  };
  if (inThread && (await postInChannel(bot, o.to, note))) return;
  await tellUser(bot, o.to, note);
}

/**
 * Posts a request's card; if Slack refuses the card itself, its plain version, which says where to decide
 * (the Home tab has the buttons). Returns where it went.
 */
export async function postCard(
  bot: Bot,
  channel: string,
  card: MessageBody,
): Promise<{ ts?: string; channel?: string }> {
  return sendOrPlain(
    bot,
    card,
    (b) => bot.slack.chat.postMessage({ channel, text: b.text, blocks: b.blocks }),
    withHomeHint(card),
  );
}

/**
 * The approvals channel did not take a request's card (the bot is not in it, it is archived or gone,
 * Slack failed or refused the token). The request stays pending: it can be decided and it expires as any
 * other. Each approver who may decide it gets the card by direct message, with why it is there, and the
 * copies are recorded so that the decision updates them; the requester is told where it went and when it
 * expires, and, if no approver could be reached, that it can still be decided in the Home tab.
 */
async function sendToApprovers(
  bot: Bot,
  request: ApprovalRequest,
  failure: SlackFailure | undefined,
  o: { to: Audience; who: Invocation },
  reason?: string,
): Promise<void> {
  const where = `<#${request.approvalsChannelId}>`;
  const why = escapeMrkdwn(failure ? slackFailureText(failure) : 'Slack gave no message');
  const because = reason ?? `it could not be posted in ${where} (${why})`;
  const deciders = (await approverUsers(bot, request)).filter(
    (u) => u !== request.requesterId || bot.config.approvals.allowSelfApproval,
  );
  const card = approvalMessage(request);
  const copy: MessageBody = {
    text: card.text,
    blocks: [...card.blocks, context(`:warning: Sent to you directly: ${because}.`)],
  };
  const copies: CardCopy[] = [];
  for (const user of deciders) {
    try {
      const posted = await postCard(bot, user, copy);
      if (posted.ts && posted.channel) copies.push({ channel: posted.channel, ts: posted.ts });
    } catch (e) {
      bot.logger.info(
        { requestId: request.id, user, err: errText(e) },
        'could not send an approver the request',
      );
    }
  }
  if (copies.length > 0)
    await recordCopies(bot.store, request.id, copies, Date.now()).catch((e: unknown) =>
      bot.logger.error(
        { requestId: request.id, err: errText(e) },
        'could not record where the request was sent',
      ),
    );
  bot.logger.warn(
    { requestId: request.id, approvers: deciders.length, reached: copies.length },
    'approval request sent to the approvers by direct message',
  );
  const expires = slackTime(request.expiresAt);
  const message =
    copies.length > 0
      ? `Your request to ${describeAction(request)} (${code(request.id)}) is filed, but ${because}, so it was sent to the approvers directly (${copies.length}). Nothing starts or stops until one of them approves it; if nobody decides, it expires ${expires}.`
      : `Your request to ${describeAction(request)} (${code(request.id)}) is filed, but ${because}, and no approver could be sent it. Approvers can still decide it in the bot's Home tab; if nobody does, it expires ${expires}. ${reason ? 'Ask whoever runs the bot to set an approvals channel (TSAI_APPROVALS_CHANNEL).' : `Ask whoever runs the bot to invite it to ${where}.`}`;
  const note = doubtNote(request);
  const icon = copies.length > 0 ? ':inbox_tray:' : ':warning:';
  await tellUser(bot, o.to, {
    text: message + note,
    blocks: [section(`${icon} ${message}${note}`), context(`You typed: ${code(o.who.commandText)}`)],
  });
}

/** What the requester is told when the bot cannot vouch for the model, as the card tells the approvers. */
function doubtNote(request: ApprovalRequest): string {
  const doubt = modelDoubtText(request);
  return doubt
    ? ` :warning: ${escapeMrkdwn(doubt)} The card says so too. ${escapeMrkdwn(MODEL_DOUBT_CHECK)} If you know the model's assessment, naming it lets the service say: ${code(`/tsai live ${request.action} assessment=<assessment ID>`)}.`
    : '';
}
