import type { Schedule, Store } from '../../store/index.js';
import type { ApproverRule } from '../approvals/approver-rule.js';
import { type Approvers, deciderRefusalText } from '../approvals/rules.js';
import type { AuditLog } from '../audit.js';
import { nextRunAfter, ruleOf } from './rule.js';

export type ScheduleDecision = 'approve' | 'reject' | 'revoke';

export type DecidedSchedule =
  | { ok: true; schedule: Schedule; decision: ScheduleDecision }
  /** `ask`: whom the refused person may ask instead (rendered after `askLead`). */
  | { ok: false; message: string; schedule?: Schedule; askLead?: string; ask?: Approvers };

export interface ScheduleDecisionDeps {
  store: Pick<Store, 'getSchedule' | 'setScheduleStatus'>;
  approvers: ApproverRule;
  now: () => Date;
  audit: AuditLog;
}

/**
 * The one approval of a schedule of live starts or stops, under the same rule as a request of the same
 * model (`ApproverRule`): only the approvers its kept route names decide, its owner does not approve their
 * own (unless self-approval is allowed), a schedule of another Slack team is not known here (the gate
 * reads it within the decider's team), and the first valid decision wins (a compare-and-set on its
 * status). An approval can be revoked later: the schedule is then rejected and never runs again.
 */
export async function decideSchedule(
  deps: ScheduleDecisionDeps,
  o: {
    /** The schedule as the gate read it within the decider's team; null when there is none there. */
    schedule: Schedule | null;
    userId: string;
    teamId?: string;
    channelId?: string;
    decision: ScheduleDecision;
  },
): Promise<DecidedSchedule> {
  const s = o.schedule;
  if (!s) return { ok: false, message: 'This schedule is not known to this bot; nothing changed.' };
  if (s.status === 'deleted') return { ok: false, message: 'This schedule was deleted; nothing to decide.' };
  const at = deps.now().getTime();
  const audit = (outcome: 'ok' | 'refused', error?: string) =>
    deps.audit.write([
      {
        at,
        userId: o.userId,
        ...(o.teamId ? { teamId: o.teamId } : {}),
        channelId: o.channelId ?? s.channelId,
        operation: `schedule.${o.decision}`,
        params: { schedule: s.id, name: s.name, command: s.command, when: s.whenText },
        outcome,
        ...(error ? { error } : {}),
      },
    ]);
  const refused = await deps.approvers.refusal(s, {
    requesterId: s.ownerId,
    userId: o.userId,
    approving: o.decision === 'approve',
  });
  if (refused) {
    await audit('refused', refused);
    const text = deciderRefusalText(refused, s, 'schedule', deps.approvers.approverIdsOf(s));
    return { ok: false, schedule: s, message: text.message, askLead: text.askLead!, ask: text.ask! };
  }
  const change =
    o.decision === 'approve'
      ? {
          status: 'active' as const,
          from: ['awaiting-approval' as const],
          nextRunAt: nextRunAfter(ruleOf(s), at),
        }
      : o.decision === 'reject'
        ? { status: 'rejected' as const, from: ['awaiting-approval' as const], nextRunAt: null }
        : { status: 'rejected' as const, from: ['active' as const, 'paused' as const], nextRunAt: null };
  const done = await deps.store.setScheduleStatus(s.id, {
    ...change,
    by: o.userId,
    at,
    // A decision holds for the owner it was taken on: a take-over in between sends it back to approvers.
    fromOwner: s.ownerId,
    reason:
      o.decision === 'approve'
        ? null
        : o.decision === 'reject'
          ? 'its approval was refused'
          : 'its approval was revoked',
  });
  if (!done) {
    const now = await deps.store.getSchedule(s.id);
    return { ok: false, message: 'This schedule was already decided.', ...(now ? { schedule: now } : {}) };
  }
  await audit('ok');
  return { ok: true, schedule: done, decision: o.decision };
}
