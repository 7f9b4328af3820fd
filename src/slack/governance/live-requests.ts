import type { LiveRequest } from '../deps.js';
import { approvalMessage, describeAction } from '../views/approvals.js';
import { errorMessage, type Invocation, invocationOf, type MessageBody } from '../views/messages.js';
import { code, escapeMrkdwn } from '../views/mrkdwn.js';
import type { Governance } from './index.js';

/**
 * `/tsai live start|stop …`: files the request (M[0] looked up for an assessment), posts it with
 * Approve/Reject in the approvals channel, and gives the requester an ephemeral link to it.
 */
export async function fileLiveRequest(gov: Governance, req: LiveRequest): Promise<void> {
  const { command, respond, client } = req;
  const who: Invocation = invocationOf(command);
  const ephemeral = (body: MessageBody | { text: string }) =>
    respond({ response_type: 'ephemeral', replace_original: false, ...body });

  const filed = await gov.approvals.fileRequest({
    action: req.request.action,
    modelId: req.request.modelId,
    assessmentId: req.request.assessmentId,
    reason: req.request.reason,
    requesterId: command.user_id,
    teamId: command.team_id,
    channelId: command.channel_id,
    approvalsChannelId: gov.config.approvals.channel,
  });
  if (!filed.ok) {
    await ephemeral(
      errorMessage(
        { ok: false, message: filed.message, ...(filed.example ? { example: filed.example } : {}) },
        who,
      ),
    );
    return;
  }
  const request = filed.request;
  let ts: string | undefined;
  try {
    const posted = await client.chat.postMessage({
      channel: request.approvalsChannelId,
      ...approvalMessage(request),
    });
    ts = posted.ts;
  } catch (e) {
    gov.logger.error(
      { requestId: request.id, err: e instanceof Error ? e.message : String(e) },
      'could not post the approval request',
    );
  }
  if (!ts) {
    await ephemeral(
      errorMessage(
        {
          ok: false,
          message: `The request was filed (${request.id}) but could not be posted in the approvals channel, so nobody can approve it. Invite the bot to that channel and file it again; this one expires by itself.`,
        },
        who,
      ),
    );
    return;
  }
  await gov.approvals.attachMessage(request.id, request.approvalsChannelId, ts);

  let link = `<#${request.approvalsChannelId}>`;
  try {
    const p = await client.chat.getPermalink({ channel: request.approvalsChannelId, message_ts: ts });
    // Slack renders no mention inside a link label, so the channel follows the link instead.
    if (p.permalink) link = `<${p.permalink}|the request> in <#${request.approvalsChannelId}>`;
  } catch (e) {
    gov.logger.warn(
      { requestId: request.id, err: e instanceof Error ? e.message : String(e) },
      'chat.getPermalink failed',
    );
  }
  const model =
    filed.modelFrom === 'assessment' ? ` (M[0] of assessment ${code(request.assessmentId ?? '')})` : '';
  const text =
    `:inbox_tray: Your request to ${describeAction(request)} is waiting for approval: ${link}.` +
    `${model ? ` Model ${code(request.modelId)}${model}.` : ''}` +
    `${request.reason ? ` Reason: ${escapeMrkdwn(request.reason)}.` : ''}` +
    ' Nothing starts or stops until another approver approves it.';
  await ephemeral({ text });
}
