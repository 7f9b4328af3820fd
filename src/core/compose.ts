import type { ServiceClient, TokenCheck } from '../api/index.js';
import type { Store } from '../store/index.js';
import { Approvals, type ApprovalsConfig, createApprovalWorkflow } from './approvals/index.js';
import { AuditLog } from './audit.js';
import type { SlackStanding } from './gate/index.js';
import {
  Connections,
  createLockedVault,
  createVault,
  type IdentityVault,
  type SecretKeys,
} from './identity/index.js';
import { findCommonModel } from './operations/registry/model-common.js';
import { type OperationLog, Operations } from './operations/run.js';
import { type AccessPolicy, createPolicy, type PolicyConfig } from './policy.js';
import type { ExpandGroup } from './principals.js';
import { placeOf, setupActor, TenantAccounts, type TenantAccountsOptions } from './tenancy/accounts.js';
import { TenantLifecycle } from './tenancy/lifecycle.js';
import { createLockedTenantVault, createTenantVault, type TenantVault } from './tenancy/vault.js';
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
  /** A person's display name, for the names of the flows approvals create. */
  displayName?: (userId: string, teamId?: string) => Promise<string | undefined>;
  /** Whether `service` has the bot's shared token (TSAI_TOKEN); default yes. */
  sharedToken?: boolean;
  /** A person's standing in Slack, which the gate asks; absent: nobody is refused for it. */
  standing?: SlackStanding;
  /** Follow created flows until they end, on this schedule; absent: not followed. */
  tracking?: { schedule: PollSchedule; log: TrackerLog; leaseMs?: number };
  /** Where `service` is (TSAI_BASE_URL, TSAI_ACCOUNT_ID): people's tokens checked there are sent there alone. */
  servicePlace?: { baseUrl: string; accountId: string };
  /**
   * People's own service tokens: kept under `keys` (absent: nobody can connect), checked with
   * `checkToken`. Absent altogether: nobody can connect and the shared token acts for everyone.
   */
  identity?: {
    keys?: SecretKeys;
    requireUserToken: boolean;
    checkToken(token: string): Promise<TokenCheck>;
  };
  /**
   * "Add to Slack": each tenant connects a service account of its own, which serves all of its calls
   * instead of `service` (core/tenancy/accounts.ts), changed only by the admins the gate admits.
   */
  tenantAccounts?: Pick<TenantAccountsOptions, 'installOf' | 'vetUrl' | 'checkToken' | 'clients'>;
}

export interface Core {
  policy: AccessPolicy;
  approvals: Approvals;
  operations: Operations;
  tracker?: FlowTracker;
  /** Each person's own service token (encrypted in the store). */
  identity: IdentityVault;
  /** Connecting and disconnecting a person's token, and whom they act as. */
  connections: Connections;
  /** What each tenant keeps secret (its installation's bot token, its service account), encrypted alike. */
  tenants: TenantVault;
  /** What a tenant's installation and removal do. */
  lifecycle: TenantLifecycle;
  /** "Add to Slack": each tenant's own service account; absent with one service account. */
  accounts?: TenantAccounts;
}

/**
 * The Slack-free core of the bot: who may do what, the approvals workflow, and the one operation runner.
 * The runner takes every operation through the workflow's rules where it has them (filing a request,
 * deciding one) and creates an approved request's flow itself; the surfaces reach the decisions through
 * `approvals`, which hands them to the runner.
 */
export function createCore(o: CoreOptions): Core {
  const audit = new AuditLog(o.store);
  const keys = o.identity?.keys;
  const identity = keys ? createVault(o.store, keys) : createLockedVault(o.store);
  const tenants = keys ? createTenantVault(o.store, keys) : createLockedTenantVault(o.store);
  const accounts = o.tenantAccounts
    ? new TenantAccounts({
        ...o.tenantAccounts,
        vault: tenants,
        audit,
        now: o.now,
        people: o.store,
        admits: (asker, install) =>
          operations.tenantAdmin({ ...setupActor(asker), timeZone: o.timeZone }, install),
      })
    : undefined;
  const place = { baseUrl: o.servicePlace?.baseUrl ?? '', accountId: o.servicePlace?.accountId ?? '' };
  const connections = new Connections({
    vault: identity,
    canConnect: keys !== undefined,
    requireUserToken: o.identity?.requireUserToken ?? false,
    serviceOf: async (teamId) => {
      if (!accounts)
        return {
          place: { ...place, since: 0 },
          checkToken: (token) =>
            o.identity
              ? o.identity.checkToken(token)
              : Promise.resolve({ ok: false, reason: 'unanswered', message: 'No service to check it with.' }),
        };
      const account = await accounts.account(teamId);
      return (
        account && {
          place: placeOf(account),
          checkToken: (token: string) => o.tenantAccounts!.checkToken(account, token),
        }
      );
    },
    audit,
    now: o.now,
  });
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
          operations
            .identityOf(flow.teamId ?? undefined)
            .forBackground({ teamId: flow.teamId ?? '', userId: flow.requesterId }),
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
    findCommonModel: (assessmentId) => findCommonModel(o.service, assessmentId),
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
    identity,
    ...(o.displayName ? { displayName: o.displayName } : {}),
    ...(o.standing ? { standing: o.standing } : {}),
    servicePlace: place,
    // A tenant's own account acts for whoever of it has not connected, as the shared token does.
    ...(accounts ? { sharedToken: true, accountOf: (tenant: string) => accounts.serviceOf(tenant) } : {}),
    ...(o.sharedToken !== undefined && !accounts ? { sharedToken: o.sharedToken } : {}),
    requireUserToken: o.identity?.requireUserToken ?? false,
    ...(o.approvalsChannel ? { approvalsChannel: o.approvalsChannel } : {}),
    ...(tracker ? { tracker } : {}),
  });
  const approvals = new Approvals(workflow, operations, o.timeZone);
  const lifecycle = new TenantLifecycle({ store: o.store, vault: tenants, audit, now: o.now });
  return {
    policy,
    approvals,
    operations,
    identity,
    connections,
    tenants,
    lifecycle,
    ...(accounts ? { accounts } : {}),
    ...(tracker ? { tracker } : {}),
  };
}
