import { describe, expect, it } from 'vitest';
import {
  alreadyDecidedText,
  approvalMessage,
  pendingListMessage,
  rejectReasonModal,
  requesterNotice,
} from '../../src/slack/approvals/card.js';
import { auditMessage } from '../../src/slack/views/audit.js';
import { askWhom, LIMITS } from '../../src/slack/views/mrkdwn.js';
import type { ApprovalRequest, ApprovalStatus, AuditEntry } from '../../src/store/index.js';
import { validateMessage, validateView } from '../../standins/localslack/index.js';
import { approvalRecord } from '../support/fixtures/records.js';

const EVIL = '<!channel> *bold* <http://evil|click> & more';
const T = Date.UTC(2026, 10, 22, 10, 42);

function request(status: ApprovalStatus, over: Partial<ApprovalRequest> = {}): ApprovalRequest {
  const decided = status !== 'pending' && status !== 'expired';
  return approvalRecord({
    assessmentId: '1060000000000000001',
    reason: EVIL,
    status,
    createdAt: T - 60_000,
    expiresAt: T + 4 * 3_600_000,
    decidedBy: decided ? 'U0BOB' : null,
    decidedAt: decided ? T : null,
    rejectReason: status === 'rejected' ? EVIL : null,
    attempts: 1,
    flowId: status === 'executed' ? '1400000000000000001' : null,
    flowStatus: status === 'executed' ? 'SCHEDULED' : null,
    error: status === 'failed' || status === 'unknown' ? `${EVIL} ${'x'.repeat(5000)}` : null,
    ...over,
  });
}

const buttons = (blocks: unknown[]) =>
  (blocks as { type: string; elements?: { action_id: string }[] }[])
    .filter((b) => b.type === 'actions')
    .flatMap((b) => b.elements!.map((e) => e.action_id));

const STATES: [ApprovalStatus, RegExp, string[]][] = [
  ['pending', /Waiting for approval/, ['approval_approve', 'approval_reject']],
  ['executing', /creating the flow/, []],
  ['executed', /Approved and executed[\s\S]*1400000000000000001[\s\S]*SCHEDULED/, []],
  ['failed', /could not be created/, ['approval_retry']],
  ['unknown', /outcome unknown[\s\S]*not retried/, []],
  ['rejected', /Rejected/, []],
  ['expired', /Expired/, []],
];

describe('approval request message', () => {
  it.each(STATES)(
    '%s: its state, its buttons, valid Block Kit, user text escaped',
    (status, re, expected) => {
      const body = approvalMessage(request(status));
      const all = JSON.stringify(body);
      expect(all).toMatch(re);
      expect(buttons(body.blocks)).toEqual(expected);
      expect(validateMessage(body.text, body.blocks)).toBeNull();
      expect(all).not.toContain('<!channel>');
      expect(all).toContain('&lt;!channel&gt;');
      if (status !== 'pending') expect(all).not.toContain('Expires');
      if (status === 'executed' || status === 'rejected') expect(all).toContain('<@U0BOB>');
    },
  );

  it('names requester, action, model, assessment, reason and expiry while pending', () => {
    const all = JSON.stringify(approvalMessage(request('pending')));
    for (const part of [
      '<@U0ALICE>',
      'STARTLIVEMODEL',
      '1070000000000000001',
      '1060000000000000001',
      'Reason',
      '2026-11-22 14:42 UTC',
    ]) {
      expect(all).toContain(part);
    }
  });

  it('tells the requester, and answers late clicks with who decided and when', () => {
    expect(requesterNotice(request('executed'))).toContain('flow `1400000000000000001`');
    expect(requesterNotice(request('rejected'))).toContain('&lt;!channel&gt;');
    expect(alreadyDecidedText(request('executed'))).toBe(
      'This request was already approved by <@U0BOB> at <!date^1795344120^{time}|2026-11-22 10:42 UTC>.',
    );
    expect(alreadyDecidedText(request('rejected'))).toContain('already rejected by <@U0BOB>');
    expect(alreadyDecidedText(request('expired'))).toContain('expired');
    expect(askWhom({ users: ['U1', 'U2'], groups: ['S1'] })).toBe('<@U1>, <@U2> or <!subteam^S1>');
  });

  it('the reject modal is a valid view carrying the request ID', () => {
    const view = rejectReasonModal(request('pending'));
    expect(validateView(view, 'modal')).toBeNull();
    expect(view.private_metadata).toBe(request('pending').id);
  });

  it('pending list and audit log stay within the limits for many entries', () => {
    const list = pendingListMessage(Array.from({ length: 120 }, () => request('pending')));
    expect(validateMessage(list.text, list.blocks)).toBeNull();
    expect(list.blocks.length).toBeLessThanOrEqual(LIMITS.blocksPerMessage);
    const entry: AuditEntry = {
      id: 1,
      at: T,
      userId: 'U0BOB',
      teamId: null,
      channelId: 'C0APPROVALS',
      operation: 'flow.STARTLIVEMODEL',
      params: { name: EVIL.repeat(50) },
      outcome: 'ok',
      flowId: '1400000000000000001',
      flowStatus: 'SCHEDULED',
      error: null,
      requestId: 'r1',
    };
    const audit = auditMessage(Array.from({ length: 100 }, (_, i) => ({ ...entry, id: i })));
    expect(validateMessage(audit.text, audit.blocks)).toBeNull();
    expect(JSON.stringify(audit)).not.toContain('<!channel>');
    expect(JSON.stringify(auditMessage([]))).toContain('no decisions');
  });
});
