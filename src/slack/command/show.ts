import type { OperationResult } from '../../core/operations/operation.js';
import { type Presentation, present, type Shown } from '../../core/present.js';
import { announceDecided, announceRequest, pendingListMessage } from '../approvals/index.js';
import type { Bot } from '../bot.js';
import { announceFlow, flowStatusMessage, flowsListMessage } from '../flows/index.js';
import { type Audience, postInChannel, tellUser } from '../reply.js';
import { auditMessage } from '../views/audit.js';
import { channelDefaultsMessage } from '../views/channel-defaults.js';
import { errorMessage, type Invocation, type MessageBody, resultMessage } from '../views/messages.js';
import { context, mention, section } from '../views/mrkdwn.js';

/**
 * Shows what the operation runner returned for a command where core's presentation says (in the channel,
 * or only to the person who asked), as Block Kit.
 */
export async function showResult(
  bot: Bot,
  result: OperationResult,
  o: { to: Audience; who: Invocation },
): Promise<void> {
  const presentation = present(result, { followsFlows: bot.tracker !== undefined });
  if (!presentation) return;
  const { shown } = presentation;
  if (shown.kind === 'approval-request')
    return announceRequest(bot, shown.request, shown.modelFrom, { to: o.to, who: o.who });
  if (presentation.redraw?.length) await announceDecided(bot, presentation.redraw);
  await deliver(bot, presentation, await render(bot, shown, o), o.to);
}

async function deliver(bot: Bot, p: Presentation, body: MessageBody, to: Audience): Promise<void> {
  const privately = () => tellUser(bot, to, body);
  // Asked where what only the person sees is apart from the channel (the assistant pane), the person is
  // shown there what was posted in the channel, and where.
  const posted = async (ok: boolean) => {
    if (!ok) return void (await privately());
    if (to.privately && to.channelId)
      await tellUser(bot, to, {
        text: body.text,
        blocks: [...body.blocks, context(`Posted in <#${to.channelId}>, where your team sees it.`)],
      });
  };
  // Nowhere in the channel would take it: the person still learns what happened.
  if (p.to === 'channel') return posted(await postInChannel(bot, to, body));
  if (p.to === 'followed-flow' && p.shown.kind === 'result' && p.shown.outcome.flow) {
    // The bot speaks to the tenant that asked (`forTeam`), whose flow this is.
    const flow = { teamId: bot.team, flowId: p.shown.outcome.flow.id };
    return posted(await announceFlow(bot, to, body, flow));
  }
  await privately();
}

async function render(
  bot: Bot,
  shown: Exclude<Shown, { kind: 'approval-request' }>,
  { to, who }: { to: Audience; who: Invocation },
): Promise<MessageBody> {
  const channelId = to.channelId ?? '';
  switch (shown.kind) {
    case 'error':
      return errorMessage(shown.failure, who);
    case 'result':
      return resultMessage(shown.outcome, who);
    case 'tracked-flows':
      return flowsListMessage(shown.flows, Date.now());
    case 'flow-status': {
      const fresh = shown.now.ok ? resultMessage(shown.now, who) : errorMessage(shown.now, who);
      const timeZone = await bot.zoneOf(to.userId);
      return flowStatusMessage(shown.flowId, shown.tracked, fresh, { now: Date.now(), timeZone });
    }
    case 'channel-defaults':
      return channelDefaultsMessage(channelId, shown.defaults);
    case 'nothing-to-clear': {
      const text = 'This channel has no defaults to clear.';
      return { text, blocks: [section(text)] };
    }
    case 'channel-defaults-cleared': {
      const text = `${mention(to.userId)} cleared this channel's defaults.`;
      return { text, blocks: [section(text), context('Run by `/tsai use clear`')] };
    }
    case 'channel-defaults-set': {
      const body = channelDefaultsMessage(channelId, shown.defaults, true);
      const text = `${mention(to.userId)} set this channel's defaults.`;
      return { text: `${text} ${body.text}`, blocks: [section(text), ...body.blocks] };
    }
    case 'pending-approvals':
      return pendingListMessage(shown.requests, shown.everyone);
    case 'audit-trail':
      return auditMessage(shown.entries);
  }
}
