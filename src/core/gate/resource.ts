import type { ApprovalRequest, Schedule, Store, TrackedFlow } from '../../store/index.js';
import type { Actor, Operation } from '../operations/operation.js';
import { teamRecords } from './team.js';

/**
 * The second step of the gate: what the operation touches, read within the Slack team that asks
 * (`team.ts`). A record of another team (a followed flow, a request, a schedule) is not found here, to
 * read or to decide, whichever surface asked; a live flow's approval (a request's, or a schedule's) names
 * who asked for it and where, on whose behalf the flow acts.
 */

/** What a live start or stop is approved by: a request just approved, a schedule approved once. */
export type LiveApproval =
  | { kind: 'request'; request: ApprovalRequest }
  | { kind: 'schedule'; schedule: Schedule }
  /** None of this team by that ID. */
  | { kind: 'unknown' };

export type Resource =
  | { kind: 'none' }
  /**
   * `/tsai flow <id>`: its record when the bot followed it in this team. `visible`: the service may be
   * asked: not when, on the one service every team shares (one bot token), another team followed that ID.
   */
  | { kind: 'flow'; tracked: TrackedFlow | null; visible: boolean }
  /** A request to decide, when it is this team's. */
  | { kind: 'request'; request: ApprovalRequest | null }
  /** A schedule to decide, when it is this team's. */
  | { kind: 'schedule'; schedule: Schedule | null }
  /** The model of a live start or stop about to be created, its approval, and whom it acts for. */
  | {
      kind: 'live';
      action: 'start' | 'stop';
      modelId: string;
      approval: LiveApproval;
      asker: { userId: string; channelId: string };
    };

/** A schedule's approval stands for a live flow's as `schedule:<id>` (the audit's request ID). */
const SCHEDULE_APPROVAL = /^schedule:(.+)$/;

export async function getResource(
  store: Pick<Store, 'getTrackedFlow' | 'getApproval' | 'getSchedule' | 'listTrackedFlows'>,
  actor: Actor,
  op: Operation,
  o: { sharedService: boolean },
): Promise<Resource> {
  // A surface that names no team (core's own callers) is not asked for one; every Slack surface names it.
  const mine = teamRecords(store, actor.teamId);
  switch (op.kind) {
    case 'flow': {
      const tracked = await mine.flow(op.flowId);
      const elsewhere =
        !tracked &&
        o.sharedService &&
        (await store.listTrackedFlows({ flowId: op.flowId, limit: 1 })).length > 0;
      return { kind: 'flow', tracked, visible: !elsewhere };
    }
    case 'approval-decision':
      return { kind: 'request', request: await mine.request(op.requestId) };
    case 'schedule-decision':
      return { kind: 'schedule', schedule: await mine.schedule(op.scheduleId) };
    case 'live-model': {
      const scheduleId = SCHEDULE_APPROVAL.exec(op.approvalId)?.[1];
      const approval: LiveApproval = scheduleId
        ? schedule(await mine.schedule(scheduleId))
        : request(await mine.request(op.approvalId));
      const asker =
        approval.kind === 'request'
          ? { userId: approval.request.requesterId, channelId: approval.request.originChannelId }
          : approval.kind === 'schedule'
            ? { userId: approval.schedule.ownerId, channelId: approval.schedule.channelId }
            : { userId: actor.userId, channelId: actor.channelId };
      return { kind: 'live', action: op.action, modelId: op.modelId, approval, asker };
    }
    default:
      return { kind: 'none' };
  }
}

function schedule(s: Schedule | null): LiveApproval {
  return s ? { kind: 'schedule', schedule: s } : { kind: 'unknown' };
}

function request(r: ApprovalRequest | null): LiveApproval {
  return r ? { kind: 'request', request: r } : { kind: 'unknown' };
}
