import { clearChannelDefaults, setChannelDefaults } from '../../core/channel-defaults.js';
import type { GovernanceCommand } from '../../core/grammar/types.js';
import type { CommandInvocation } from '../deps.js';
import { askWhom, pendingListMessage } from '../views/approvals.js';
import { auditMessage } from '../views/audit.js';
import { channelDefaultsMessage } from '../views/channel-defaults.js';
import type { MessageBody } from '../views/messages.js';
import { context, mention, section } from '../views/mrkdwn.js';
import type { Governance } from './index.js';

/** `/tsai use …`, `/tsai approvals`, `/tsai audit [n]`. */
export async function handleGovernanceCommand(
  gov: Governance,
  req: CommandInvocation & { request: GovernanceCommand },
): Promise<void> {
  const { command, respond, request } = req;
  const reply = (visibility: 'in_channel' | 'ephemeral', body: MessageBody) =>
    respond({ response_type: visibility, replace_original: false, ...body });
  const channelId = command.channel_id;
  const userId = command.user_id;
  const now = gov.now;

  switch (request.kind) {
    case 'use': {
      if (request.action === 'show') {
        return void (await reply(
          'ephemeral',
          channelDefaultsMessage(channelId, await gov.store.getChannelDefaults(channelId)),
        ));
      }
      if (request.action === 'clear') {
        const cleared = await clearChannelDefaults(gov.store, {
          channelId,
          userId,
          teamId: command.team_id,
          now,
        });
        if (!cleared)
          return void (await reply('ephemeral', {
            text: 'This channel has no defaults to clear.',
            blocks: [section('This channel has no defaults to clear.')],
          }));
        const text = `${mention(userId)} cleared this channel's defaults.`;
        return void (await reply('in_channel', {
          text,
          blocks: [section(text), context('Run by `/tsai use clear`')],
        }));
      }
      const stored = await setChannelDefaults(gov.store, {
        channelId,
        values: request.values,
        userId,
        teamId: command.team_id,
        now,
      });
      const body = channelDefaultsMessage(channelId, stored, true);
      const text = `${mention(userId)} set this channel's defaults.`;
      return void (await reply('in_channel', {
        text: `${text} ${body.text}`,
        blocks: [section(text), ...body.blocks],
      }));
    }
    case 'approvals': {
      // Expire through the governance so the messages of requests expiring now are updated too.
      await gov.expireDue();
      const at = gov.now().getTime();
      const pending = (await gov.store.listApprovals({ statuses: ['pending'], limit: 40 })).filter(
        (r) => r.expiresAt > at,
      );
      return void (await reply('ephemeral', pendingListMessage(pending)));
    }
    case 'audit': {
      const trail = await gov.approvals.auditTrail(userId, request.limit ?? 20);
      if (!trail.ok) {
        const text = `Only approvers can read the audit log. Ask ${askWhom(trail.approvers)}.`;
        return void (await reply('ephemeral', { text, blocks: [section(`:lock: ${text}`)] }));
      }
      return void (await reply('ephemeral', auditMessage(trail.entries)));
    }
  }
}
