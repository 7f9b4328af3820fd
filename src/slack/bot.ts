import type { webApi } from '@slack/bolt';
import type { ServiceClient, ServiceClientOptions } from '../api/index.js';
import { createLazyServiceClient } from '../api/lazy.js';
import type { Config } from '../config.js';
import type { Approvals } from '../core/approvals/index.js';
import { type ClockSource, clockOf } from '../core/clock.js';
import { createCore } from '../core/compose.js';
import type { Connections, IdentityVault } from '../core/identity/index.js';
import type { Operations } from '../core/operations/run.js';
import type { AccessPolicy } from '../core/policy.js';
import type { FlowTracker } from '../core/tracking/tracker.js';
import { StepRunner } from '../core/workflows/runner.js';
import { errText, type Logger } from '../log.js';
import { countOnThisThread } from '../metrics/metrics.js';
import { openStore, resolveStoreTarget, type Store, type WriteHealth } from '../store/index.js';
import { boltLogger } from './bolt-logger.js';
import { watchingSlackAuth } from './readiness.js';
import { acceptResponseUrlsOf } from './respond.js';
import { createUserDirectory, goesBy, type UserDirectory } from './users.js';
import { webClientOptions } from './web-client.js';

/**
 * What a bot is built from. Plain data, because the follow-up worker thread builds its own bot from the
 * same setup: functions and open connections do not cross threads.
 */
export interface BotSetup {
  /** The resolved configuration (with the local Slack's token and URL when `startAll` started one). */
  config: Config;
  /** Where the service is (the built-in emulator when `TSAI_BASE_URL` is not set). */
  service: ServiceClientOptions;
  clock: ClockSource;
  /** How often expired approval requests are swept (default 30 s; tests that move the clock use less). */
  sweepIntervalMs?: number;
  /**
   * Operations the bot does not ship (a test's own): URLs of modules whose `operations` export lists their
   * registry entries, registered before the bot is composed, on each thread.
   */
  operations?: readonly string[];
}

/** Everything a listener, a follow-up or a background job works with. Nothing in it is optional. */
export interface Bot {
  /** What this bot was built from; the follow-up worker builds its own from the same. */
  readonly setup: BotSetup;
  readonly config: Config;
  readonly logger: Logger;
  readonly now: () => Date;
  readonly store: Store;
  readonly service: ServiceClient;
  /** The bot's Web API client (the bot token). */
  readonly slack: webApi.WebClient;
  readonly users: UserDirectory;
  /** The user's zone, or TSAI_DEFAULT_TIMEZONE when Slack does not know it. */
  zoneOf(userId: string): Promise<string>;
  readonly policy: AccessPolicy;
  readonly approvals: Approvals;
  /** The one path every operation takes: authorise, execute, audit. */
  readonly operations: Operations;
  /** Follows every created flow until it ends; absent when TSAI_TRACK_FLOWS is off. */
  readonly tracker: FlowTracker | undefined;
  /** Each person's own service token, encrypted in the store. */
  readonly identity: IdentityVault;
  /** Connecting and disconnecting a person's token; whom they act as. */
  readonly connections: Connections;
  /** Runs Workflow Builder steps and completes each once its flow or request has ended. */
  readonly steps: StepRunner;
  close(): Promise<void>;
}

/**
 * Builds the bot from its setup: the store, the service client, the Slack client, the access policy, the
 * approvals workflow and the operation runner. The acking thread and the follow-up worker both build
 * theirs here, so an operation behaves the same whichever thread runs it.
 */
export interface BotHooks {
  /** A Web API call was answered `invalid_auth`, `token_revoked` or `account_inactive` (readiness). */
  onSlackAuthError?(error: string): void;
  /** This bot's writes to the store started failing, or work again (readiness). */
  onStoreWrites?(health: WriteHealth): void;
}

/** How long the check of a pasted token may take: it answers the Connect form's submission. */
const TOKEN_CHECK_BUDGET_MS = 2_000;

export async function composeBot(setup: BotSetup, logger: Logger, hooks: BotHooks = {}): Promise<Bot> {
  const { config } = setup;
  if (config.slack.mode === 'none') throw new Error('the bot needs Slack settings (a bot token)');
  if (setup.operations?.length) {
    const { addOperationModules } = await import('../core/operations/registry/added.js');
    await addOperationModules(setup.operations);
  }
  const now = clockOf(setup.clock);
  countOnThisThread(config.metrics);
  const store = await openStore(config.databaseUrl);
  if (hooks.onStoreWrites) store.watchWrites(hooks.onStoreWrites);
  // Loaded on first use: the acking thread rarely calls the service, and its start should not pay for it.
  const service = createLazyServiceClient(setup.service);
  const { WebClient: Client } = await import('@slack/web-api');
  const WebClient = hooks.onSlackAuthError ? watchingSlackAuth(Client, hooks.onSlackAuthError) : Client;
  const slack = new WebClient(config.slack.botToken, {
    ...webClientOptions(config.slack.apiUrl),
    logger: boltLogger(logger),
  });
  acceptResponseUrlsOf(config.slack.apiUrl);
  const users = createUserDirectory(slack, { logger, clock: () => now().getTime() });
  const expandGroup = async (groupId: string): Promise<string[]> =>
    (await slack.usergroups.users.list({ usergroup: groupId })).users ?? [];
  const onGroupError = (groupId: string, err: unknown) =>
    logger.warn(
      { groupId, err: errText(err) },
      'usergroups.users.list failed; treating the group as empty for now',
    );

  const { policy, approvals, operations, tracker, identity, connections } = createCore({
    store,
    service,
    now,
    log: logger,
    expandGroup,
    onGroupError,
    policy: { operators: config.policy.operators, allowedChannels: config.policy.allowedChannels },
    approvals: {
      approvers: config.approvals.approvers,
      byWorkspace: config.approvals.byWorkspace,
      allowSelfApproval: config.approvals.allowSelfApproval,
      ttlMs: config.approvals.ttlMs,
      interruptedAfterMs: config.approvals.interruptedAfterMs,
    },
    ...(config.approvals.channel ? { approvalsChannel: config.approvals.channel } : {}),
    displayName: async (userId) => goesBy(await users.lookup(userId)),
    standing: { standingOf: (person) => users.standing(person.userId) },
    sharedToken: setup.service.token !== undefined,
    timeZone: config.defaultTimeZone,
    identity: {
      ...(config.secretKeys ? { keys: config.secretKeys } : {}),
      requireUserToken: config.service.requireUserToken,
      accountId: setup.service.accountId,
      // One attempt that fits in the form's acknowledgement (Slack waits 3 s for it).
      checkToken: async (token) =>
        (await import('../api/token-check.js')).checkServiceToken(
          setup.service,
          token,
          TOKEN_CHECK_BUDGET_MS,
        ),
    },
    ...(config.tracking.enabled
      ? {
          tracking: {
            schedule: {
              firstMs: config.tracking.firstPollMs,
              maxIntervalMs: config.tracking.maxIntervalMs,
              maxAgeMs: config.tracking.maxAgeMs,
            },
            log: logger.child({ part: 'flow-tracking' }),
            leaseMs: config.tracking.leaseMs,
          },
        }
      : {}),
  });

  return {
    setup,
    config,
    logger,
    now,
    store,
    service,
    slack,
    users,
    zoneOf: async (userId) => (await users.lookup(userId)).tz ?? config.defaultTimeZone,
    policy,
    approvals,
    operations,
    tracker,
    identity,
    connections,
    steps: new StepRunner({
      store,
      operations,
      now,
      leaseMs: config.tracking.leaseMs,
      followsFlows: config.tracking.enabled,
      log: logger.child({ part: 'workflow-steps' }),
    }),
    async close() {
      await Promise.allSettled([service.close(), store.close()]);
    },
  };
}

/** Whether a second thread can open the store this setup names: not an in-memory SQLite database. */
export function storeSharedAcrossThreads(setup: Pick<BotSetup, 'config'>): boolean {
  const target = resolveStoreTarget(setup.config.databaseUrl);
  return !(target.kind === 'sqlite' && target.file === ':memory:');
}
