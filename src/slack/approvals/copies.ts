import { copiesOf, type RequestCopy, recordCopies } from '../../core/approvals/copies.js';
import type { ApprovalRequest } from '../../core/records.js';
import { errText } from '../../log.js';
import type { Bot } from '../bot.js';

/**
 * Where a copy of a request's card was sent: a direct message to an approver. A request whose card could
 * not be posted in the approvals channel is sent to each approver; the copies are kept (`recordCopies`),
 * so that every decision, expiry and flow end updates them as it updates the channel's card, on any
 * replica and after a restart.
 */
export type CardCopy = RequestCopy;

export { copiesOf, recordCopies };

/**
 * The approvers who decide a request as people: the user IDs, and the members of the user groups (a group
 * that cannot be read is logged and left out).
 */
export async function approverUsers(
  bot: Pick<Bot, 'approvals' | 'slack' | 'logger'>,
  request: Pick<ApprovalRequest, 'approversWorkspace' | 'approversStrictest'>,
): Promise<string[]> {
  const { users, groups } = bot.approvals.approverIdsOf(request);
  return [...new Set([...users, ...(await groupMembers(bot, groups))])];
}

export async function groupMembers(bot: Pick<Bot, 'slack' | 'logger'>, groups: readonly string[]) {
  const members: string[] = [];
  for (const g of groups) {
    try {
      members.push(...((await bot.slack.usergroups.users.list({ usergroup: g })).users ?? []));
    } catch (e) {
      bot.logger.info({ group: g, err: errText(e) }, 'approver group not read');
    }
  }
  return members;
}
