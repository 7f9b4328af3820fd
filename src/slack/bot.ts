import type { webApi } from '@slack/bolt';
import type { ServiceClient, ServiceClientOptions } from '../api/index.js';
import { createLazyServiceClient, createLazyServiceClients } from '../api/lazy.js';
import type { Config } from '../config.js';
import type { Approvals } from '../core/approvals/index.js';
import { type ClockSource, clockOf } from '../core/clock.js';
import { type CoreOptions, createCore } from '../core/compose.js';
import type { Connections, IdentityVault } from '../core/identity/index.js';
import type { Operations } from '../core/operations/run.js';
import type { AccessPolicy } from '../core/policy.js';
import type { TenantAccounts } from '../core/tenancy/accounts.js';
import type { TenantLifecycle } from '../core/tenancy/lifecycle.js';
import type { TenantVault } from '../core/tenancy/vault.js';
import type { FlowTracker } from '../core/tracking/tracker.js';
import { StepRunner } from '../core/workflows/runner.js';
import { errText, type Logger } from '../log.js';
import { countOnThisThread } from '../metrics/metrics.js';
import { openStore, resolveStoreTarget, type Store, type WriteHealth } from '../store/index.js';
import { tracedStore } from '../tracing/store.js';
import { boltLogger } from './bolt-logger.js';
import type { Speech } from './install/clients.js';
import type { Installations } from './install/installations.js';
import { watchingSlackAuth } from './readiness.js';
import { acceptResponseUrlsOf } from './respond.js';
import { createUserDirectory, goesBy, type UserDirectory } from './users.js';
import { tracedWebClient, webClientOptions } from './web-client.js';

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
  /**
   * The Web API client of the installation this bot speaks to: the one bot token (SLACK_BOT_TOKEN), or,
   * with "Add to Slack", that of the installation `forTeam` chose (the composed bot's own has no token).
   */
  readonly slack: webApi.WebClient;
  /** `users.info`, through `slack`. */
  readonly users: UserDirectory;
  /** The tenant `forTeam` chose (slack/tenant.ts); undefined for the composed bot. */
  readonly team: string | undefined;
  /**
   * The bot as composed, whichever tenant this one speaks to: what a thread keeps once (the Home's
   * publisher, say) is kept for it, not for each tenant.
   */
  readonly composed: Bot;
  /**
   * The same bot, speaking to the installation that serves `teamId` (a tenant, as `teamOf` reads it from a
   * request): with one bot token, the same client; with "Add to Slack", that installation's. Undefined
   * when the app is not (or no longer) installed there.
   */
  forTeam(teamId: string | undefined): Promise<Bot | undefined>;
  /** "Add to Slack": every installation, and the installer's store. Absent with one bot token. */
  readonly installations: Installations | undefined;
  /** What each tenant keeps secret (its installation's bot token, its service account). */
  readonly tenants: TenantVault;
  /** What a tenant's installation and removal do (audited). */
  readonly lifecycle: TenantLifecycle;
  /** "Add to Slack": each tenant's own service account, connected by its admins. Absent otherwise. */
  readonly accounts: TenantAccounts | undefined;
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
  if (config.slack.mode === 'none')
    throw new Error('the bot needs Slack settings (a bot token, or "Add to Slack")');
  if (setup.operations?.length) {
    const { addOperationModules } = await import('../core/operations/registry/added.js');
    await addOperationModules(setup.operations);
  }
  const now = clockOf(setup.clock);
  countOnThisThread(config.metrics);
  const store = tracedStore(await openStore(config.databaseUrl));
  if (hooks.onStoreWrites) store.watchWrites(hooks.onStoreWrites);
  // Loaded on first use: the acking thread rarely calls the service, and its start should not pay for it.
  const service = createLazyServiceClient(setup.service);
  const { slack, installs } = await slackClients(config, hooks, logger);
  acceptResponseUrlsOf(config.slack.apiUrl);
  const users = createUserDirectory(slack, { logger, clock: () => now().getTime() });
  const expandGroup = async (groupId: string): Promise<string[]> =>
    (await slack.usergroups.users.list({ usergroup: groupId })).users ?? [];
  const onGroupError = (groupId: string, err: unknown) =>
    logger.warn(
      { groupId, err: errText(err) },
      'usergroups.users.list failed; treating the group as empty for now',
    );

  const { policy, approvals, operations, tracker, identity, connections, tenants, lifecycle, accounts } =
    createCore({
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
      ...peopleAsTheirInstallationSees((teamId) => bot.forTeam(teamId)),
      sharedToken: setup.service.token !== undefined,
      timeZone: config.defaultTimeZone,
      servicePlace: { baseUrl: setup.service.baseUrl, accountId: setup.service.accountId },
      identity: {
        ...(config.secretKeys ? { keys: config.secretKeys } : {}),
        requireUserToken: config.service.requireUserToken,
        // One attempt that fits in the form's acknowledgement (Slack waits 3 s for it).
        checkToken: async (token) =>
          (await import('../api/token-check.js')).checkServiceToken(
            setup.service,
            token,
            TOKEN_CHECK_BUDGET_MS,
          ),
      },
      ...trackingOf(config, logger),
      ...(installs ? { tenantAccounts: tenantAccountsOf(setup, (tenant) => bot.forTeam(tenant)) } : {}),
    });

  const root = { slack, users };
  // One bot token: every tenant is spoken to through it, and nothing of "Add to Slack" is loaded.
  const speech: Speech = installs
    ? await installationsSpeech({ vault: tenants, now: () => now().getTime(), root, logger })
    : { installations: undefined, speakerFor: async () => root };
  const teamBots = heldPerSpeaker<Bot>();
  const zoneIn = (directory: UserDirectory) => async (userId: string) =>
    (await directory.lookup(userId)).tz ?? config.defaultTimeZone;
  const bot: Bot = {
    setup,
    config,
    logger,
    now,
    store,
    service,
    slack,
    users,
    team: undefined,
    get composed(): Bot {
      return bot;
    },
    installations: speech.installations,
    tenants,
    lifecycle,
    accounts,
    async forTeam(teamId) {
      const speaker = await speech.speakerFor(teamId);
      if (!speaker || teamId === undefined) return speaker && bot;
      return teamBots(speaker, teamId, () => ({
        ...bot,
        team: teamId,
        ...speaker,
        zoneOf: zoneIn(speaker.users),
      }));
    },
    zoneOf: zoneIn(users),
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
      await Promise.allSettled([service.close(), store.close(), accounts?.close()]);
    },
  };
  return bot;
}

/**
 * The bot's own Web API client. One bot token: Slack refusing it means the bot can do nothing, which
 * readiness says. "Add to Slack": the bot's own client has no token, and a refusal concerns one
 * installation (removed, or reinstalled), which is read again.
 */
async function slackClients(config: Config, hooks: BotHooks, logger: Logger) {
  const { WebClient: Client } = await import('@slack/web-api');
  const options = { ...webClientOptions(config.slack.apiUrl), logger: boltLogger(logger) };
  const installs = config.slack.mode === 'installs';
  const WebClient = tracedWebClient(
    !installs && hooks.onSlackAuthError ? watchingSlackAuth(Client, hooks.onSlackAuthError) : Client,
  );
  const token =
    config.slack.mode === 'http' || config.slack.mode === 'socket' ? config.slack.botToken : undefined;
  return { slack: new WebClient(token, options), installs };
}

/**
 * "Add to Slack": each installation spoken to through a view of the one Web API client, each call carrying
 * the installation's token (install/), loaded only then.
 */
async function installationsSpeech(o: {
  vault: TenantVault;
  now: () => number;
  root: { slack: webApi.WebClient; users: UserDirectory };
  logger: Logger;
}): Promise<Speech> {
  const [{ tenantSpeech }, { tokenBound }] = await Promise.all([
    import('./install/clients.js'),
    import('./install/token-bound.js'),
  ]);
  return tenantSpeech({
    installs: true,
    vault: o.vault,
    now: o.now,
    root: o.root,
    client: (token, refused) => tokenBound(o.root.slack, token, refused),
    logger: o.logger,
  });
}

/**
 * "Add to Slack": how each tenant's service account is checked and called, with the bot's own bounds. Its
 * URL is what the tenant's admin typed: checked before anything is sent to it, and at every connection
 * (api/address.ts), with what TSAI_SERVICE_ALLOWED_ADDRESSES allows. Which installation the tenant is
 * (org-wide, who installed it) is the gate's to weigh (core/gate/admin.ts).
 */
function tenantAccountsOf(
  setup: BotSetup,
  speaking: (tenant: string) => Promise<Bot | undefined>,
): NonNullable<CoreOptions['tenantAccounts']> {
  const typed = { allowed: setup.config.service.allowedAddresses };
  return {
    async installOf(tenant) {
      const installed = await (await speaking(tenant))?.installations?.find(tenant);
      return (
        installed && {
          orgWide: installed.isEnterpriseInstall,
          ...(installed.installerId ? { installerId: installed.installerId } : {}),
        }
      );
    },
    vetUrl: async (url) => {
      const { addressAllowlist, vetServiceUrl } = await import('../api/address.js');
      return vetServiceUrl(url, addressAllowlist(typed.allowed));
    },
    checkToken: async (place, token) =>
      (await import('../api/token-check.js')).checkServiceToken(
        { ...place, connectTimeoutMs: setup.service.connectTimeoutMs, typed },
        token,
        TOKEN_CHECK_BUDGET_MS,
      ),
    clients: createLazyServiceClients(setup.service, typed),
  };
}

/**
 * A person's display name and Slack standing, asked of their own installation ("Add to Slack": another's
 * token cannot see them, and the bot's own client has none); with one bot token, of it.
 */
function peopleAsTheirInstallationSees(
  speaking: (teamId: string | undefined) => Promise<Bot | undefined>,
): Pick<CoreOptions, 'displayName' | 'standing'> {
  const directory = async (teamId: string | undefined) => (await speaking(teamId))?.users;
  return {
    displayName: async (userId, teamId) => {
      const users = await directory(teamId);
      return users && goesBy(await users.lookup(userId));
    },
    standing: {
      standingOf: async (person) =>
        (await (await directory(person.teamId || undefined))?.standing(person.userId)) ?? 'unknown',
      rightsOf: async (person) => (await directory(person.teamId || undefined))?.rights(person.userId),
    },
  };
}

/** Following every created flow, on the schedule TSAI_TRACK_* set; nothing when TSAI_TRACK_FLOWS is off. */
function trackingOf(config: Config, logger: Logger) {
  if (!config.tracking.enabled) return {};
  return {
    tracking: {
      schedule: {
        firstMs: config.tracking.firstPollMs,
        maxIntervalMs: config.tracking.maxIntervalMs,
        maxAgeMs: config.tracking.maxAgeMs,
      },
      log: logger.child({ part: 'flow-tracking' }),
      leaseMs: config.tracking.leaseMs,
    },
  };
}

/** Whether a second thread can open the store this setup names: not an in-memory SQLite database. */
export function storeSharedAcrossThreads(setup: Pick<BotSetup, 'config'>): boolean {
  const target = resolveStoreTarget(setup.config.databaseUrl);
  return !(target.kind === 'sqlite' && target.file === ':memory:');
}

/**
 * The bot as it speaks to one team, made once per speaker and team (every follow-up asks for it) instead
 * of copied per call; it goes with its speaker (an installation dropped, or reinstalled with a new token).
 */
function heldPerSpeaker<T>(): (speaker: object, teamId: string, make: () => T) => T {
  const held = new WeakMap<object, Map<string, T>>();
  return (speaker, teamId, make) => {
    let teams = held.get(speaker);
    if (!teams) {
      teams = new Map();
      held.set(speaker, teams);
    }
    let made = teams.get(teamId);
    if (!made) {
      made = make();
      teams.set(teamId, made);
    }
    return made;
  };
}
