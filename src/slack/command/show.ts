import type { OperationResult } from '../../core/operations/operation.js';
import { announceDecided, announceRequest, pendingListMessage } from '../approvals/index.js';
import type { Bot } from '../bot.js';
import { announceFlow, flowStatusMessage, flowsListMessage } from '../flows/index.js';
import { type Audience, postInChannel, tellUser } from '../reply.js';
import { auditMessage } from '../views/audit.js';
import { channelDefaultsMessage } from '../views/channel-defaults.js';
import { errorMessage, type Invocation, type MessageBody, resultMessage } from '../views/messages.js';
import { context, mention, section } from '../views/mrkdwn.js';

/**
 * How a command shows what the operation runner returned: changes in the channel (the team sees who did
 * what), lookups, lists and errors only to the person who asked.
 */
export async function showResult(
  bot: Bot,
  result: OperationResult,
  o: { to: Audience; who: Invocation },
): Promise<void> {
  const { to, who } = o;
  const privately = (body: MessageBody) => tellUser(bot, to, body);
  const inChannel = async (body: MessageBody) => {
    // Nowhere in the channel would take it: the person still learns what happened.
    if (!(await postInChannel(bot, to, body))) await privately(body);
  };
  if (!result.ok) return void (await privately(errorMessage(result, who)));
  switch (result.kind) {
    case 'service': {
      const body = resultMessage(result, who);
      if (result.visibility !== 'channel') return void (await privately(body));
      // A followed flow is announced where its status can be updated in place.
      if (result.flow && bot.tracker) {
        if (!(await announceFlow(bot, to, body, result.flow.id))) await privately(body);
        return;
      }
      return void (await inChannel(body));
    }
    case 'tracked-flows':
      return void (await privately(flowsListMessage(result.flows, Date.now())));
    case 'flow-status': {
      const fresh = result.now.ok ? resultMessage(result.now, who) : errorMessage(result.now, who);
      const timeZone = await bot.zoneOf(to.userId);
      return void (await privately(
        flowStatusMessage(result.flowId, result.tracked, fresh, { now: Date.now(), timeZone }),
      ));
    }
    case 'approval-filed':
      return announceRequest(bot, result.request, result.modelFrom, { to, who });
    case 'channel-defaults': {
      const channelId = to.channelId ?? '';
      if (result.change === 'show')
        return void (await privately(channelDefaultsMessage(channelId, result.defaults)));
      if (result.change === 'clear') {
        if (!result.cleared) {
          const text = 'This channel has no defaults to clear.';
          return void (await privately({ text, blocks: [section(text)] }));
        }
        const text = `${mention(to.userId)} cleared this channel's defaults.`;
        return void (await inChannel({ text, blocks: [section(text), context('Run by `/tsai use clear`')] }));
      }
      const body = channelDefaultsMessage(channelId, result.defaults, true);
      const text = `${mention(to.userId)} set this channel's defaults.`;
      return void (await inChannel({
        text: `${text} ${body.text}`,
        blocks: [section(text), ...body.blocks],
      }));
    }
    case 'pending-approvals':
      await announceDecided(bot, result.expired);
      return void (await privately(pendingListMessage(result.requests)));
    case 'audit-trail':
      return void (await privately(auditMessage(result.entries)));
  }
}
