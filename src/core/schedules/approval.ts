import type { Schedule } from '../../store/index.js';
import { AuditLog } from '../audit.js';
import { ruleOf, type SchedulingDeps } from './manage.js';
import { nextRunAfter } from './rule.js';

export type ScheduleDecision = 'approve' | 'reject' | 'revoke';

export type DecidedSchedule =
  | { ok: true; schedule: Schedule; decision: ScheduleDecision }
  | { ok: false; message: string; schedule?: Schedule };

/**
 * The one approval of a schedule of live starts or stops, under the approvals' rules: only approvers
 * decide, a requester does not approve their own (unless self-approval is allowed), and the first valid
 * decision wins (a compare-and-set on the schedule's status). An approval can be revoked later: the
 * schedule is then rejected and never runs again.
 */
export async function decideSchedule(
  deps: SchedulingDeps & { allowSelfApproval: boolean },
  o: { scheduleId: string; userId: string; teamId?: string; decision: ScheduleDecision },
): Promise<DecidedSchedule> {
  const s = await deps.store.getSchedule(o.scheduleId);
  if (!s || s.status === 'deleted')
    return { ok: false, message: 'This schedule was deleted; nothing to decide.' };
  if (!(await deps.isApprover(o.userId)))
    return {
      ok: false,
      message: 'Only approvers can decide a schedule of live starts or stops.',
      schedule: s,
    };
  if (o.decision === 'approve' && s.ownerId === o.userId && !deps.allowSelfApproval)
    return { ok: false, message: 'You made this schedule, so someone else must approve it.', schedule: s };
  const at = deps.now().getTime();
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
  await new AuditLog(deps.store).write([
    {
      at,
      userId: o.userId,
      ...(o.teamId ? { teamId: o.teamId } : {}),
      channelId: s.channelId,
      operation: `schedule.${o.decision}`,
      params: { schedule: s.id, name: s.name, command: s.command, when: s.whenText },
      outcome: 'ok',
    },
  ]);
  return { ok: true, schedule: done, decision: o.decision };
}
