import type { ApprovalRequest, Schedule, Store, TrackedFlow } from '../../store/index.js';
import { withinTeam } from '../read-scope.js';

/**
 * The team guarantee as reads: what the bot keeps of a service resource, read only within the tenant (the
 * team, or an org-wide install's organisation) that asks. A followed flow is kept by its tenant and the
 * service's ID, since two tenants' services may hand out the same one; a request or a schedule (the bot's
 * own IDs) is found by its ID and shown only to its team. The gate's getResource reads through here, and
 * so does everything that reads such a record on someone's behalf outside an operation: a workflow step's
 * wait, a button under a flow, the Home.
 */
export interface TeamRecords {
  flow(flowId: string): Promise<TrackedFlow | null>;
  request(requestId: string): Promise<ApprovalRequest | null>;
  schedule(scheduleId: string): Promise<Schedule | null>;
}

/**
 * `teamId` undefined: a caller in core that names no team (its own tests, sweeps over every team) reads a
 * request or a schedule of any team, and only the flows kept without one.
 */
export function teamRecords(
  store: Pick<Store, 'getTrackedFlow' | 'getApproval' | 'getSchedule'>,
  teamId: string | null | undefined,
): TeamRecords {
  const mine = <T extends { teamId: string | null }>(r: T | null): T | null =>
    r && (teamId === undefined || withinTeam(r.teamId, { userId: '', teamId: teamId ?? undefined }))
      ? r
      : null;
  return {
    flow: (flowId) => store.getTrackedFlow({ teamId, flowId }),
    request: async (id) => mine(await store.getApproval(id)),
    schedule: async (id) => mine(await store.getSchedule(id)),
  };
}
