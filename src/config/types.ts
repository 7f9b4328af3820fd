import type { ConfigNotice, ConfigProblem } from './read.js';
import type { OtlpProtocol, TracesSampler } from './variables.js';

export type SlackMode = SlackConfig['mode'];

/**
 * How the bot meets Slack: one workspace's bot token over HTTP or Socket Mode; "Add to Slack" for many
 * (`installs`: each installation's token kept from its OAuth flow, over HTTP); or no Slack at all.
 */
export type SlackConfig =
  | { mode: 'http'; botToken: string; signingSecret: string; apiUrl?: string }
  | { mode: 'socket'; botToken: string; appToken: string; apiUrl?: string }
  | ({ mode: 'installs'; signingSecret: string; apiUrl?: string } & InstallSettings)
  | { mode: 'none'; apiUrl?: string };

/** "Add to Slack": what the OAuth flow needs (SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_STATE_SECRET, ...). */
export interface InstallSettings {
  clientId: string;
  clientSecret: string;
  stateSecret: string;
  /** Where the "Add to Slack" page is served. */
  installPath: string;
  /** The path Slack sends the installer back to (that of `redirectUri`, or /slack/oauth_redirect). */
  redirectPath: string;
  /** The public redirect URL to name to Slack; absent: the app's one registered redirect URL. */
  redirectUri?: string;
}

export interface ServiceConfig {
  /** Absent: the bot starts the emulator in-process. */
  baseUrl?: string;
  token?: string;
  accountId?: string;
  connectTimeoutMs: number;
  requestTimeoutMs: number;
  maxAttempts: number;
  maxRetryTimeMs: number;
  /** Service requests that may wait for a free connection before new ones fail as 'busy'. */
  maxQueued: number;
  /** Everyone acts with their own token; nobody with the shared one (TSAI_REQUIRE_USER_TOKEN). */
  requireUserToken: boolean;
  /**
   * Where a service URL typed into `/tsai setup` may lead besides public https addresses: host names and
   * networks (TSAI_SERVICE_ALLOWED_ADDRESSES).
   */
  allowedAddresses: string[];
}

/** The keys that encrypt people's tokens: `current` encrypts, all of them decrypt. */
export interface SecretKeyring {
  current: Uint8Array;
  previous: Uint8Array[];
}

export interface Config {
  slack: SlackConfig;
  port: number;
  service: ServiceConfig;
  defaultTimeZone: string;
  databaseUrl: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  approvals: {
    /** Channel ID for approval requests; absent: the channel where the command ran. */
    channel?: string;
    /** Slack user IDs (U…/W…) and user-group IDs (S…). */
    approvers: string[];
    /** Approvers of the requests acting on a service workspace, by its ID; other workspaces: `approvers`. */
    byWorkspace: Record<string, string[]>;
    allowSelfApproval: boolean;
    ttlMs: number;
    /**
     * An approved request still creating its flow this long after the click was cut off (its process
     * died): any replica marks it outcome unknown (TSAI_APPROVAL_INTERRUPTED_AFTER).
     */
    interruptedAfterMs: number;
  };
  policy: {
    /** User and user-group IDs allowed to run mutating commands; empty = everyone. */
    operators: string[];
    /** Channel IDs where the bot acts; empty = all. */
    allowedChannels: string[];
  };
  /** Slack's assistant pane answered (TSAI_ASSISTANT_PANE); off, nothing of it is loaded. */
  assistantPane: boolean;
  /** Following every created flow until it ends (TSAI_TRACK_*). */
  tracking: {
    enabled: boolean;
    firstPollMs: number;
    maxIntervalMs: number;
    maxAgeMs: number;
    /** How long a replica holds a flow it claimed; a dead replica's flows are taken over after it. */
    leaseMs: number;
  };
  /**
   * Schedules: how late a missed run may be and still run once when the bot is back (TSAI_SCHEDULE_CATCH_UP),
   * and the limits that protect the service: per person, per channel, the shortest interval.
   */
  schedules: { catchUpMs: number; perPerson: number; perChannel: number; minIntervalMs: number };
  /** How long the store keeps what it no longer needs (TSAI_RETAIN_*); pruned at start and every 6 h. */
  retention: { auditMs: number; approvalsMs: number; flowsMs: number; catalogMs: number };
  /**
   * On SIGTERM/SIGINT the bot stops within this (TSAI_SHUTDOWN_TIMEOUT): the replies in hand get most of
   * it; past it the process exits anyway, saying so in the log.
   */
  shutdownTimeoutMs: number;
  /** Prometheus's `GET /metrics` (TSAI_METRICS_PORT, TSAI_METRICS_HOST); port `off`: not served. */
  metrics: { port: number | 'off'; host: string };
  /** OpenTelemetry traces (the `OTEL_*` variables, docs/tracing.md); absent: off, and no SDK is loaded. */
  tracing?: TracingSettings;
  /** The browser sandbox page's port, for `npm start` without Slack settings (SANDBOX_PORT). */
  sandboxPort: number;
  /** Start the sandbox page beside a real service (TSAI_BASE_URL set) all the same (SANDBOX_WITH_SERVICE). */
  sandboxWithService: boolean;
  /** TSAI_SECRET_KEY and TSAI_SECRET_KEYS_PREVIOUS; absent: connecting is unavailable. */
  secretKeys?: SecretKeyring;
  /** Every secret value present, for log scrubbing. */
  secrets: string[];
  /** What the process tells at start-up: old variable names in use, variables no longer read. */
  notices: ConfigNotice[];
}

/** Where and how the bot's traces are sent: plain data, as both threads start their own tracer from it. */
export interface TracingSettings {
  serviceName: string;
  /** OTEL_RESOURCE_ATTRIBUTES: more attributes of the process, on every span. */
  resource: Record<string, string>;
  /** The full URL spans are posted to (`…/v1/traces`). */
  url: string;
  /** Sent with every export (a vendor's API key): secrets. */
  headers: Record<string, string>;
  protocol: OtlpProtocol;
  sampler: TracesSampler;
  /** The share of traces kept by the ratio samplers. */
  ratio: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: ConfigProblem[]) {
    super(
      `Invalid configuration (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${problems
        .map((p) => `  - ${p.variable}: ${p.problem}`)
        .join('\n')}`,
    );
    this.name = 'ConfigError';
  }
}
