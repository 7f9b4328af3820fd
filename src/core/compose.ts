import type { ServiceClient } from '../api/index.js';
import type { Store } from '../store/index.js';
import { type Approvals, type ApprovalsConfig, createApprovals } from './approvals/index.js';
import { type OperationLog, Operations } from './operations/run.js';
import { type AccessPolicy, createPolicy, type PolicyConfig } from './policy.js';
import type { ExpandGroup } from './principals.js';
import type { PollSchedule } from './tracking/schedule.js';
import { FlowTracker, type TrackerLog } from './tracking/tracker.js';

export interface CoreOptions {
  store: Store;
  service: ServiceClient;
  now: () => Date;
  log: OperationLog;
  expandGroup: ExpandGroup;
  onGroupError?: (groupId: string, err: unknown) => void;
  policy: PolicyConfig;
  approvals: ApprovalsConfig;
  /** Where approval requests are posted (TSAI_APPROVALS_CHANNEL); absent: the channel asked in. */
  approvalsChannel?: string;
  /** The zone in which an approved request's outcome is described. */
  timeZone: string;
  /** Follow created flows until they end, on this schedule; absent: not followed. */
  tracking?: { schedule: PollSchedule; log: TrackerLog; leaseMs?: number };
}

export interface Core {
  policy: AccessPolicy;
  approvals: Approvals;
  operations: Operations;
  tracker?: FlowTracker;
}

/**
 * The Slack-free core of the bot: who may do what, the approvals workflow, and the one operation runner.
 * The workflow creates an approved request's flow through the runner, and the runner files requests
 * through the workflow: each gets the other once both exist.
 */
export function createCore(o: CoreOptions): Core {
  const policy = createPolicy({
    store: o.store,
    now: o.now,
    expandGroup: o.expandGroup,
    ...(o.onGroupError ? { onGroupError: o.onGroupError } : {}),
    config: o.policy,
  });
  const tracker = o.tracking
    ? new FlowTracker({
        store: o.store,
        service: o.service,
        schedule: o.tracking.schedule,
        log: o.tracking.log,
        ...(o.tracking.leaseMs ? { leaseMs: o.tracking.leaseMs } : {}),
      })
    : undefined;
  let operations!: Operations;
  const approvals = createApprovals({
    store: o.store,
    now: o.now,
    expandGroup: o.expandGroup,
    ...(o.onGroupError ? { onGroupError: o.onGroupError } : {}),
    findCommonModel: (assessmentId) => o.service.findCommonModel(assessmentId),
    config: o.approvals,
    runLiveFlow: (input) => operations.runApproved(input, o.timeZone),
  });
  operations = new Operations({
    service: o.service,
    store: o.store,
    policy,
    approvals,
    now: o.now,
    log: o.log,
    ...(o.approvalsChannel ? { approvalsChannel: o.approvalsChannel } : {}),
    ...(tracker ? { tracker } : {}),
  });
  return { policy, approvals, operations, ...(tracker ? { tracker } : {}) };
}
