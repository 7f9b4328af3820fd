import type {
  AllMiddlewareArgs,
  App,
  BlockAction,
  ButtonAction,
  RespondFn,
  SlackActionMiddlewareArgs,
} from '@slack/bolt';
import type { ApprovalRequest } from '../../store/index.js';
import type { SlackDeps } from '../deps.js';
import type { Governance } from '../governance/index.js';
import {
  APPROVAL_ACTION,
  alreadyDecidedText,
  askWhom,
  REJECT_MODAL_CALLBACK,
  REJECT_REASON_ACTION,
  REJECT_REASON_BLOCK,
  rejectReasonModal,
} from '../views/approvals.js';

type Click = BlockAction<ButtonAction>;
type ClickArgs = SlackActionMiddlewareArgs<Click> & AllMiddlewareArgs;

const CLICKS = new RegExp(`^(${Object.values(APPROVAL_ACTION).join('|')})$`);

/** Approve, Reject (opens the reason modal) and Retry on a request message, and the modal's submission. */
export function register(app: App, deps: SlackDeps): void {
  const gov = deps.governance;
  if (!gov) return;
  const errText = (e: unknown) => (e instanceof Error ? (e.stack ?? e.message) : String(e));
  const ephemeral = (respond: RespondFn) => async (text: string) => {
    try {
      await respond({ response_type: 'ephemeral', replace_original: false, text });
    } catch (e) {
      gov.logger.error({ err: errText(e) }, 'could not answer a click');
    }
  };

  const approve = async ({ ack, body, action, respond }: ClickArgs) => {
    await ack();
    try {
      const outcome = await gov.approvals.decide({
        requestId: action.value ?? '',
        userId: body.user.id,
        teamId: body.team?.id,
        channelId: body.channel?.id,
        decision: 'approve',
        onExecuting: (r) => gov.showRequest(r),
      });
      await gov.present(outcome, ephemeral(respond));
    } catch (e) {
      gov.logger.error({ err: errText(e) }, 'approve failed inside the bot');
      await ephemeral(respond)(
        'Something went wrong inside the bot while approving (the error is in its log).',
      );
    }
  };

  const retry = async ({ ack, body, action, respond }: ClickArgs) => {
    await ack();
    try {
      const outcome = await gov.approvals.retry({
        requestId: action.value ?? '',
        userId: body.user.id,
        teamId: body.team?.id,
        channelId: body.channel?.id,
        onExecuting: (r) => gov.showRequest(r),
      });
      await gov.present(outcome, ephemeral(respond));
    } catch (e) {
      gov.logger.error({ err: errText(e) }, 'retry failed inside the bot');
      await ephemeral(respond)(
        'Something went wrong inside the bot while retrying (the error is in its log).',
      );
    }
  };

  const reject = async ({ ack, body, action, respond, client }: ClickArgs) => {
    await ack();
    const tell = ephemeral(respond);
    try {
      const check = await mayReject(gov, action.value ?? '', body.user.id);
      if (!check.ok) return await tell(check.text);
      await client.views.open({ trigger_id: body.trigger_id, view: rejectReasonModal(check.request) });
    } catch (e) {
      gov.logger.error({ err: errText(e) }, 'reject failed inside the bot');
      await tell('Something went wrong inside the bot while rejecting (the error is in its log).');
    }
  };

  // One listener for the three buttons: Bolt runs every listener's middleware on every request.
  const clicks: Record<string, (args: ClickArgs) => Promise<void>> = {
    [APPROVAL_ACTION.approve]: approve,
    [APPROVAL_ACTION.retry]: retry,
    [APPROVAL_ACTION.reject]: reject,
  };
  app.action<Click>(CLICKS, async (args) => {
    await clicks[args.action.action_id]?.(args);
  });

  app.view(REJECT_MODAL_CALLBACK, async ({ ack, body, view, client }) => {
    await ack();
    const requestId = view.private_metadata;
    const userId = body.user.id;
    const reason = view.state.values[REJECT_REASON_BLOCK]?.[REJECT_REASON_ACTION]?.value ?? undefined;
    const request = await gov.approvals.get(requestId).catch(() => null);
    const tell = async (text: string) => {
      if (!request) return;
      try {
        await client.chat.postEphemeral({ channel: request.approvalsChannelId, user: userId, text });
      } catch (e) {
        gov.logger.error({ err: errText(e) }, 'could not answer a reject');
      }
    };
    try {
      const outcome = await gov.approvals.decide({
        requestId,
        userId,
        teamId: body.team?.id,
        channelId: request?.approvalsChannelId,
        decision: 'reject',
        ...(reason ? { reason } : {}),
      });
      await gov.present(outcome, tell);
    } catch (e) {
      gov.logger.error({ err: errText(e) }, 'reject failed inside the bot');
      await tell('Something went wrong inside the bot while rejecting (the error is in its log).');
    }
  });
}

/**
 * Whether a Reject click may open the modal: not for non-approvers or decided or expired requests.
 * The decision itself is checked again, atomically, when the modal is submitted.
 */
async function mayReject(
  gov: Governance,
  requestId: string,
  userId: string,
): Promise<{ ok: true; request: ApprovalRequest } | { ok: false; text: string }> {
  const r = await gov.approvals.get(requestId);
  if (!r) return { ok: false, text: 'This request is not known to this bot; nothing changed.' };
  if (!(await gov.approvals.isApprover(userId))) {
    return {
      ok: false,
      text: `You are not an approver for starting or stopping live models, so nothing changed. Ask ${askWhom(gov.approvals.approverIds)}.`,
    };
  }
  if (r.status === 'pending' && r.expiresAt <= gov.now().getTime()) {
    await gov.expireDue();
    return { ok: false, text: alreadyDecidedText({ ...r, status: 'expired' }) };
  }
  if (r.status !== 'pending') return { ok: false, text: alreadyDecidedText(r) };
  return { ok: true, request: r };
}
