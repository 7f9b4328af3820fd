import type { Schedule, ScheduleStatus } from '../../store/index.js';
import type { OpFailure } from '../outcome.js';
import { findSchedule } from './find.js';
import { type Asker, auditSchedule, overPersonLimit, type SchedulingDeps } from './manage.js';
import { refusal, type ScheduleChange, type SchedulingRequest } from './read.js';
import { ownerOf, readForOwner } from './reading.js';
import { nextRunAfter, ruleOf } from './rule.js';
import { STATUS_WORDS } from './status.js';

export type Changed =
  | {
      ok: true;
      schedule: Schedule;
      action: ScheduleChange;
      /** A live start or stop taken over waits for its approvers again. */
      needsApproval?: boolean;
      /** Whose it was, for a take-over. */
      previousOwner?: string;
    }
  | OpFailure;

const PAST: Record<ScheduleChange, string> = {
  pause: 'paused',
  resume: 'resumed',
  delete: 'deleted',
  take: 'taken over',
};

/**
 * Pause, resume, delete or take over a schedule, found by its number, name or ID in the asker's channel.
 * Its owner and the approvers its rule names (the bot's, or those of its model's workspace) may pause,
 * resume and delete it; everyone else reads it. The channel policy is not asked to stop one: a channel
 * taken off TSAI_ALLOWED_CHANNELS must still let its schedules be stopped, and each run passes the gate
 * anyway. A resumed one must be one its owner may run now (else it would only pause again at its next
 * run); taking one over is for one the bot paused because its owner may no longer run it.
 */
export async function changeSchedule(
  deps: SchedulingDeps,
  asker: Asker,
  req: Extract<SchedulingRequest, { kind: 'change' }>,
): Promise<Changed> {
  const found = await findSchedule(deps.store, asker, req.ref);
  if (!found.ok) return { ...refusal(found.message, `/tsai schedule ${req.action} 1`) };
  const s = found.schedule;
  if (req.action === 'take') return takeOver(deps, asker, s);
  const approvers = deps.operations.approvers;
  if (s.ownerId !== asker.userId && !(await approvers.mayDecide(s, asker.userId)))
    return notOwner(
      deps,
      s,
      `Only the schedule's owner or an approver can ${req.action} it; you can read it with \`/tsai schedules\`.`,
    );
  const at = deps.now().getTime();
  if (req.action === 'resume' && s.kind === 'command' && s.status === 'paused') {
    const may = await readForOwner(deps, {
      owner: ownerOf(s, undefined, s.ownerId === asker.userId ? asker.person.locale : undefined),
      channelId: s.channelId,
      command: s.command,
      asked: `/tsai schedule resume ${s.id}`,
      example: () => `/tsai schedule delete ${s.id}`,
      nothing: `It stays paused: its owner may not run it now. Delete it (\`/tsai schedule delete ${s.id}\`), or someone who may run it can take it over.`,
    });
    if (!may.ok) return may;
  }
  const change = {
    pause: { status: 'paused', from: ['active'], next: null },
    resume: { status: 'active', from: ['paused'], next: nextRunAfter(ruleOf(s), at) },
    delete: { status: 'deleted', from: ['active', 'paused', 'awaiting-approval', 'rejected'], next: null },
  }[req.action] as { status: ScheduleStatus; from: ScheduleStatus[]; next: number | null };
  const done = await deps.store.setScheduleStatus(s.id, {
    status: change.status,
    from: change.from,
    by: asker.userId,
    at,
    nextRunAt: change.next,
    reason: req.action === 'pause' ? 'paused by a person' : null,
  });
  if (!done) return notNow(deps, s, req.action);
  await auditSchedule(deps, asker, `schedule.${req.action}`, done, {});
  return { ok: true, schedule: done, action: req.action };
}

/**
 * A schedule the bot paused because its owner may no longer run it (policy, channel, Slack, token), made the
 * asker's: they must be able to run its command there now, within their own limit. A live start or stop
 * goes back to the approvers who decide its model now (the approval was given for its former owner); any
 * other runs again, as the asker.
 */
async function takeOver(deps: SchedulingDeps, asker: Asker, s: Schedule): Promise<Changed> {
  if (s.ownerId === asker.userId)
    return refusal(
      `This schedule is yours already. Once you may run it again, resume it: \`/tsai schedule resume ${s.id}\`.`,
      `/tsai schedule resume ${s.id}`,
    );
  if (s.status !== 'paused' || s.statusBy !== 'system')
    return notOwner(
      deps,
      s,
      `Only a schedule the bot paused because its owner may no longer run it can be taken over, and this one is ${STATUS_WORDS[s.status]}. Its owner or one of its approvers can pause or delete it.`,
    );
  let needsApproval = false;
  let approvers: Parameters<SchedulingDeps['store']['setScheduleStatus']>[1]['approvers'];
  if (s.kind === 'command') {
    const read = await readForOwner(deps, {
      owner: { ...asker, person: { ...asker.person, timeZone: s.timeZone } },
      channelId: s.channelId,
      command: s.command,
      asked: `/tsai schedule take ${s.id}`,
      example: () => `/tsai schedule take ${s.id}`,
      nothing: 'It was not taken over.',
    });
    if (!read.ok) return read;
    if (read.operation.kind === 'live-request' && read.operation.modelId) {
      const rule = deps.operations.approvers;
      const route = await rule.route(read.operation.modelId, s.teamId ?? undefined);
      const nobody = rule.nobodyCouldApprove(
        read.operation.action,
        read.operation.modelId,
        route,
        'schedule',
      );
      if (nobody) return { ok: false, message: nobody };
      needsApproval = true;
      approvers = route;
    }
  }
  const full = await overPersonLimit(deps, asker, 'it was not taken over');
  if (full) return full;
  const at = deps.now().getTime();
  const done = await deps.store.setScheduleStatus(s.id, {
    status: needsApproval ? 'awaiting-approval' : 'active',
    from: ['paused'],
    fromOwner: s.ownerId,
    ownerId: asker.userId,
    ...(approvers ? { approvers } : {}),
    by: asker.userId,
    at,
    nextRunAt: needsApproval ? null : nextRunAfter(ruleOf(s), at),
    reason: null,
  });
  if (!done) return notNow(deps, s, 'take');
  await auditSchedule(deps, asker, 'schedule.take', done, { from: s.ownerId });
  return { ok: true, schedule: done, action: 'take', needsApproval, previousOwner: s.ownerId };
}

/** Refused: only its owner or one of its approvers may; both are named. */
function notOwner(deps: SchedulingDeps, s: Schedule, message: string): OpFailure {
  const ask = deps.operations.approvers.approverIdsOf(s);
  return {
    ok: false,
    message,
    refusal: {
      reason: 'not-owner',
      owner: s.ownerId,
      askUsers: ask.users,
      askGroups: ask.groups,
      allowedChannels: [],
    },
  };
}

/** Someone else changed it first: said as it is now. */
async function notNow(deps: SchedulingDeps, s: Schedule, action: ScheduleChange): Promise<OpFailure> {
  const now = await deps.store.getSchedule(s.id);
  const status = now?.status ?? s.status;
  return {
    ok: false,
    message:
      now && now.ownerId !== s.ownerId
        ? `Schedule \`${s.name}\` was taken over by someone else just now, so it was not ${PAST[action]}.`
        : `Schedule \`${s.name}\` is ${STATUS_WORDS[status]}, so it cannot be ${PAST[action]}.`,
  };
}
