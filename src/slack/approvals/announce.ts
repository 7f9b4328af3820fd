import { errText } from '../../log.js';
import type { ApprovalRequest } from '../../store/index.js';
import type { Bot } from '../bot.js';
import { refreshHomes, requestChange } from '../home/refresh.js';
import { type Audience, tellUser } from '../reply.js';
import { errorMessage, type Invocation } from '../views/messages.js';
import { code, escapeMrkdwn } from '../views/mrkdwn.js';
import { approvalMessage, describeAction } from './card.js';

/**
 * A request was filed: post it with Approve/Reject in the approvals channel, remember where (so it can be
 * updated in place), and give the requester a private link to it.
 */
export async function announceRequest(
  bot: Bot,
  request: ApprovalRequest,
  modelFrom: 'argument' | 'assessment',
  o: { to: Audience; who: Invocation },
): Promise<void> {
  let ts: string | undefined;
  try {
    const posted = await bot.slack.chat.postMessage({
      channel: request.approvalsChannelId,
      ...approvalMessage(request),
    });
    ts = posted.ts;
  } catch (e) {
    bot.logger.error({ requestId: request.id, err: errText(e) }, 'could not post the approval request');
  }
  if (!ts) {
    await tellUser(
      bot,
      o.to,
      errorMessage(
        {
          ok: false,
          message: `The request was filed (${request.id}) but could not be posted in the approvals channel, so nobody can approve it. Invite the bot to that channel and file it again; this one expires by itself.`,
        },
        o.who,
      ),
    );
    return;
  }
  await bot.approvals.attachMessage(request.id, request.approvalsChannelId, ts);
  refreshHomes(bot, requestChange(request));

  let link = `<#${request.approvalsChannelId}>`;
  try {
    const p = await bot.slack.chat.getPermalink({ channel: request.approvalsChannelId, message_ts: ts });
    // Slack renders no mention inside a link label, so the channel follows the link instead.
    if (p.permalink) link = `<${p.permalink}|the request> in <#${request.approvalsChannelId}>`;
  } catch (e) {
    bot.logger.warn({ requestId: request.id, err: errText(e) }, 'chat.getPermalink failed');
  }
  const model = modelFrom === 'assessment' ? ` (M[0] of assessment ${code(request.assessmentId ?? '')})` : '';
  const text =
    `:inbox_tray: Your request to ${describeAction(request)} is waiting for approval: ${link}.` +
    `${model ? ` Model ${code(request.modelId)}${model}.` : ''}` +
    `${request.reason ? ` Reason: ${escapeMrkdwn(request.reason)}.` : ''}` +
    ' Nothing starts or stops until another approver approves it.';
  await tellUser(bot, o.to, {
    text,
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text, verbatim: true } }],
  });
}
