import type { ServiceClient } from '../api/index.js';
import type { Store } from '../store/index.js';
import { Approvals, type ApprovalsConfig, createApprovalWorkflow } from './approvals/index.js';
import { AuditLog } from './audit.js';
import type { IdentityVault } from './identity/vault.js';
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
  /** Each person's own service token; absent: nobody is connected. */
  identity?: IdentityVault;
  /** A person's display name, for the names of the flows approvals create. */
  displayName?: (userId: string) => Promise<string | undefined>;
  /** Whether `service` has the bot's shared token (TSAI_TOKEN); default yes. */
  sharedToken?: boolean;
  /** Operations run only with a person's own token (TSAI_REQUIRE_USER_TOKEN). */
  requireUserToken?: boolean;
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
 * The runner takes every operation through the workflow's rules where it has them (filing a request,
 * deciding one) and creates an approved request's flow itself; the surfaces reach the decisions through
 * `approvals`, which hands them to the runner.
 */
export function createCore(o: CoreOptions): Core {
  const audit = new AuditLog(o.store);
  const policy = createPolicy({
    store: o.store,
    audit,
    now: o.now,
    expandGroup: o.expandGroup,
    ...(o.onGroupError ? { onGroupError: o.onGroupError } : {}),
    config: o.policy,
  });
  const tracker: FlowTracker | undefined = o.tracking
    ? new FlowTracker({
        store: o.store,
        service: o.service,
        serviceFor: (flow) =>
          operations.identity.forBackground({ teamId: flow.teamId ?? '', userId: flow.requesterId }),
        schedule: o.tracking.schedule,
        log: o.tracking.log,
        ...(o.tracking.leaseMs ? { leaseMs: o.tracking.leaseMs } : {}),
      })
    : undefined;
  const workflow = createApprovalWorkflow({
    store: o.store,
    now: o.now,
    expandGroup: o.expandGroup,
    ...(o.onGroupError ? { onGroupError: o.onGroupError } : {}),
    findCommonModel: (assessmentId) => o.service.findCommonModel(assessmentId),
    config: o.approvals,
  });
  const operations: Operations = new Operations({
    service: o.service,
    store: o.store,
    policy,
    approvals: workflow,
    now: o.now,
    log: o.log,
    timeZone: o.timeZone,
    audit,
    ...(o.identity ? { identity: o.identity } : {}),
    ...(o.displayName ? { displayName: o.displayName } : {}),
    ...(o.sharedToken !== undefined ? { sharedToken: o.sharedToken } : {}),
    ...(o.requireUserToken !== undefined ? { requireUserToken: o.requireUserToken } : {}),
    ...(o.approvalsChannel ? { approvalsChannel: o.approvalsChannel } : {}),
    ...(tracker ? { tracker } : {}),
  });
  const approvals = new Approvals(workflow, operations, o.timeZone);
  return { policy, approvals, operations, ...(tracker ? { tracker } : {}) };
}
