import type { AuditEntry } from '../../core/records.js';
import type { MessageBody } from './messages.js';
import { code, escapeMrkdwn, type KnownBlock, limitBlocks, mention, section, slackTime } from './mrkdwn.js';

const MAX_PARAMS = 300;

function who(userId: string): string {
  return userId === 'system' ? '_the bot_' : mention(userId);
}

/** One audit entry as a line: time, who, operation, outcome, flow or error, the request it belongs to. */
export function auditLine(e: AuditEntry): string {
  const parts = [`${slackTime(e.at)} ${who(e.userId)} ${code(e.operation)} *${e.outcome}*`];
  if (e.flowId) parts.push(`flow ${code(e.flowId)}${e.flowStatus ? ` (${escapeMrkdwn(e.flowStatus)})` : ''}`);
  if (e.error) parts.push(escapeMrkdwn(e.error));
  if (e.requestId) parts.push(`request ${code(e.requestId)}`);
  let params = JSON.stringify(e.params ?? {});
  if (params.length > MAX_PARAMS) params = `${params.slice(0, MAX_PARAMS)}…`;
  if (params !== '{}') parts.push(code(params));
  return parts.join(' · ');
}

/** `/tsai audit [n]`: the latest decisions and flow creations, newest first. */
export function auditMessage(entries: AuditEntry[]): MessageBody {
  if (entries.length === 0) {
    return {
      text: 'The audit log has no decisions or flow creations yet.',
      blocks: [section('The audit log has no decisions or flow creations yet.')],
    };
  }
  const blocks: KnownBlock[] = [
    section(`*Audit log: the last ${entries.length} decision(s) and flow creation(s), newest first*`),
  ];
  // Several entries per section keep long logs within the 50-block limit.
  for (let i = 0; i < entries.length; i += 5) {
    blocks.push(
      section(
        entries
          .slice(i, i + 5)
          .map(auditLine)
          .join('\n'),
      ),
    );
  }
  return { text: `Audit log: ${entries.length} entries`, blocks: limitBlocks(blocks) };
}
