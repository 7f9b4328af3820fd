import { Buffer } from 'node:buffer';
import { formatDuration } from './duration.js';
import { urlPassword, urlUserInfo } from './fields.js';
import { type ConfigProblem, type Env, type ReadVariables, readVariables } from './read.js';
import { type Config, ConfigError, type SlackConfig, type TracingSettings } from './types.js';
import { VARIABLES, type Values, type VariableName } from './variables.js';

/** The shortest lease or interruption bound accepted, whatever the service timeouts. */
const MIN_BOUND_MS = 5_000;

/**
 * Configuration from the environment. Every variable is validated at once and one `ConfigError` names each
 * missing or bad one; values are never echoed, because several of them are secrets.
 */
export function loadConfig(env: Env = process.env): Config {
  const read = readVariables(env);
  const { values: v, problems } = read;
  const slack = slackMode(read);
  if (read.isSet('TSAI_BASE_URL') && slack.mode !== 'installs') {
    if (!v.TSAI_REQUIRE_USER_TOKEN)
      requireWith(read, 'TSAI_TOKEN', 'when TSAI_BASE_URL is set (unless TSAI_REQUIRE_USER_TOKEN=true)');
    requireWith(read, 'TSAI_ACCOUNT_ID', 'when TSAI_BASE_URL is set');
  }
  checkBounds(read);
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    slack,
    port: v.PORT,
    metrics: { port: v.TSAI_METRICS_PORT, host: v.TSAI_METRICS_HOST },
    service: {
      baseUrl: v.TSAI_BASE_URL,
      token: v.TSAI_TOKEN,
      accountId: v.TSAI_ACCOUNT_ID,
      connectTimeoutMs: v.TSAI_CONNECT_TIMEOUT,
      requestTimeoutMs: v.TSAI_REQUEST_TIMEOUT,
      maxAttempts: v.TSAI_MAX_ATTEMPTS,
      maxRetryTimeMs: v.TSAI_MAX_RETRY_TIME,
      maxQueued: v.TSAI_MAX_QUEUED,
      requireUserToken: v.TSAI_REQUIRE_USER_TOKEN,
      allowedAddresses: v.TSAI_SERVICE_ALLOWED_ADDRESSES,
    },
    defaultTimeZone: v.TSAI_DEFAULT_TIMEZONE,
    databaseUrl: v.DATABASE_URL,
    logLevel: v.LOG_LEVEL,
    approvals: {
      channel: v.TSAI_APPROVALS_CHANNEL,
      approvers: v.TSAI_APPROVERS,
      byWorkspace: v.TSAI_WORKSPACE_APPROVERS,
      allowSelfApproval: v.TSAI_ALLOW_SELF_APPROVAL,
      ttlMs: v.TSAI_APPROVAL_TTL,
      interruptedAfterMs: v.TSAI_APPROVAL_INTERRUPTED_AFTER,
    },
    policy: { operators: v.TSAI_OPERATORS, allowedChannels: v.TSAI_ALLOWED_CHANNELS },
    assistantPane: v.TSAI_ASSISTANT_PANE,
    tracking: {
      enabled: v.TSAI_TRACK_FLOWS,
      firstPollMs: v.TSAI_TRACK_FIRST_POLL,
      maxIntervalMs: v.TSAI_TRACK_MAX_INTERVAL,
      maxAgeMs: v.TSAI_TRACK_MAX_AGE,
      leaseMs: v.TSAI_TRACK_LEASE,
    },
    schedules: {
      catchUpMs: v.TSAI_SCHEDULE_CATCH_UP,
      perPerson: v.TSAI_SCHEDULES_PER_PERSON,
      perChannel: v.TSAI_SCHEDULES_PER_CHANNEL,
      minIntervalMs: v.TSAI_SCHEDULE_MIN_INTERVAL,
    },
    retention: {
      auditMs: v.TSAI_RETAIN_AUDIT,
      approvalsMs: v.TSAI_RETAIN_APPROVALS,
      flowsMs: v.TSAI_RETAIN_FLOWS,
      catalogMs: v.TSAI_RETAIN_CATALOG,
    },
    shutdownTimeoutMs: v.TSAI_SHUTDOWN_TIMEOUT,
    ...tracingOf(read),
    sandboxPort: v.SANDBOX_PORT,
    sandboxWithService: v.SANDBOX_WITH_SERVICE,
    ...(v.TSAI_SECRET_KEY
      ? { secretKeys: { current: v.TSAI_SECRET_KEY, previous: v.TSAI_SECRET_KEYS_PREVIOUS } }
      : {}),
    secrets: secretsOf(v, env),
    notices: read.notices,
  };
}

function requireWith(read: ReadVariables, name: VariableName, why: string): void {
  if (!read.isSet(name)) read.problems.push({ variable: name, problem: `is required ${why}` });
}

/** The redirect path served when SLACK_REDIRECT_URI does not name one. */
const DEFAULT_REDIRECT_PATH = '/slack/oauth_redirect';

/**
 * Socket Mode when an app token is given; "Add to Slack" (installs) with a client ID; HTTP mode with a
 * signing secret and a bot token; otherwise none.
 */
function slackMode(read: ReadVariables): SlackConfig {
  const { values: v } = read;
  const apiUrl = v.SLACK_API_URL;
  if (read.isSet('SLACK_CLIENT_ID')) return installsMode(read);
  for (const name of ['SLACK_CLIENT_SECRET', 'SLACK_STATE_SECRET', 'SLACK_REDIRECT_URI'] as const)
    if (read.isSet(name))
      read.problems.push({ variable: name, problem: 'is read only with SLACK_CLIENT_ID ("Add to Slack")' });
  if (read.isSet('SLACK_APP_TOKEN')) {
    requireWith(read, 'SLACK_BOT_TOKEN', 'for Socket Mode (SLACK_APP_TOKEN is set)');
    if (v.SLACK_BOT_TOKEN && v.SLACK_APP_TOKEN)
      return { mode: 'socket', botToken: v.SLACK_BOT_TOKEN, appToken: v.SLACK_APP_TOKEN, apiUrl };
  } else if (read.isSet('SLACK_SIGNING_SECRET')) {
    requireWith(read, 'SLACK_BOT_TOKEN', 'for HTTP mode (SLACK_SIGNING_SECRET is set)');
    if (v.SLACK_BOT_TOKEN && v.SLACK_SIGNING_SECRET)
      return { mode: 'http', botToken: v.SLACK_BOT_TOKEN, signingSecret: v.SLACK_SIGNING_SECRET, apiUrl };
  } else if (read.isSet('SLACK_BOT_TOKEN')) {
    read.problems.push({
      variable: 'SLACK_SIGNING_SECRET',
      problem: 'is required with SLACK_BOT_TOKEN (HTTP mode), or set SLACK_APP_TOKEN for Socket Mode',
    });
  }
  return { mode: 'none', apiUrl };
}

/**
 * "Add to Slack": every installation's token comes from its OAuth flow and is kept encrypted, so a bot
 * token of its own, Socket Mode or the shared service account would contradict it.
 */
function installsMode(read: ReadVariables): SlackConfig {
  const { values: v } = read;
  const why = 'with SLACK_CLIENT_ID ("Add to Slack")';
  for (const name of ['SLACK_CLIENT_SECRET', 'SLACK_STATE_SECRET', 'SLACK_SIGNING_SECRET'] as const)
    requireWith(read, name, why);
  if (!read.isSet('TSAI_SECRET_KEY'))
    read.problems.push({
      variable: 'TSAI_SECRET_KEY',
      problem: `is required ${why}: installations' bot tokens and service accounts are kept encrypted under it`,
    });
  const notWith: [VariableName, string][] = [
    ['SLACK_BOT_TOKEN', 'each installation gets its own bot token from Slack; unset it'],
    ['SLACK_APP_TOKEN', '"Add to Slack" runs over HTTP, not Socket Mode; unset it'],
    ['TSAI_TOKEN', 'each installation connects its own service account (`/tsai setup`); unset it'],
    ['TSAI_ACCOUNT_ID', 'each installation connects its own service account (`/tsai setup`); unset it'],
  ];
  for (const [name, problem] of notWith)
    if (read.isSet(name)) read.problems.push({ variable: name, problem: `is not read ${why}: ${problem}` });
  // A user group belongs to one workspace, and the bot reads its members with that workspace's token,
  // which a deployment-wide list cannot say; people's IDs are unique across Slack.
  for (const name of ['TSAI_APPROVERS', 'TSAI_OPERATORS'] as const)
    if (v[name].some((id) => id.startsWith('S')))
      read.problems.push({
        variable: name,
        problem: `names user groups (S…), which belong to one workspace: ${why}, name people (U…/W…) instead`,
      });
  if (Object.values(v.TSAI_WORKSPACE_APPROVERS).some((ids) => ids.some((id) => id.startsWith('S'))))
    read.problems.push({
      variable: 'TSAI_WORKSPACE_APPROVERS',
      problem: `names user groups (S…), which belong to one workspace: ${why}, name people (U…/W…) instead`,
    });
  const redirectPath = v.SLACK_REDIRECT_URI ? new URL(v.SLACK_REDIRECT_URI).pathname : DEFAULT_REDIRECT_PATH;
  if (redirectPath === v.SLACK_INSTALL_PATH)
    read.problems.push({
      variable: 'SLACK_INSTALL_PATH',
      problem: 'must differ from the redirect path (SLACK_REDIRECT_URI), e.g. /slack/install',
    });
  if (!(v.SLACK_CLIENT_ID && v.SLACK_CLIENT_SECRET && v.SLACK_STATE_SECRET && v.SLACK_SIGNING_SECRET))
    return { mode: 'none', apiUrl: v.SLACK_API_URL };
  return {
    mode: 'installs',
    signingSecret: v.SLACK_SIGNING_SECRET,
    clientId: v.SLACK_CLIENT_ID,
    clientSecret: v.SLACK_CLIENT_SECRET,
    stateSecret: v.SLACK_STATE_SECRET,
    installPath: v.SLACK_INSTALL_PATH,
    redirectPath,
    ...(v.SLACK_REDIRECT_URI ? { redirectUri: v.SLACK_REDIRECT_URI } : {}),
    apiUrl: v.SLACK_API_URL,
  };
}

/**
 * Tracing is on when any `OTEL_*` variable of the table is set, unless OTEL_SDK_DISABLED or
 * OTEL_TRACES_EXPORTER=none says otherwise: the variables an operator sets for tracing are the switch, as
 * with any OpenTelemetry SDK, and with none set the bot loads nothing of it.
 */
function tracingOf(read: ReadVariables): { tracing?: TracingSettings } {
  const { values: v } = read;
  const names = (Object.keys(VARIABLES) as VariableName[]).filter((n) => n.startsWith('OTEL_'));
  const asked = names.some((n) => n !== 'OTEL_SDK_DISABLED' && read.isSet(n));
  if (!asked || v.OTEL_SDK_DISABLED || v.OTEL_TRACES_EXPORTER === 'none') return {};
  return {
    tracing: {
      // OTEL_SERVICE_NAME wins over a service.name among the resource's attributes, as the SDKs read them.
      serviceName: read.isSet('OTEL_SERVICE_NAME')
        ? v.OTEL_SERVICE_NAME
        : (v.OTEL_RESOURCE_ATTRIBUTES['service.name'] ?? v.OTEL_SERVICE_NAME),
      resource: v.OTEL_RESOURCE_ATTRIBUTES,
      url:
        v.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
        `${v.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`,
      headers: { ...v.OTEL_EXPORTER_OTLP_HEADERS, ...v.OTEL_EXPORTER_OTLP_TRACES_HEADERS },
      protocol: v.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? v.OTEL_EXPORTER_OTLP_PROTOCOL,
      sampler: v.OTEL_TRACES_SAMPLER,
      ratio: v.OTEL_TRACES_SAMPLER_ARG ?? 1,
    },
  };
}

/** Settings that only make sense together. */
function checkBounds(read: ReadVariables): void {
  const { values: v, problems } = read;
  if (v.TSAI_TRACK_MAX_INTERVAL < v.TSAI_TRACK_FIRST_POLL)
    problems.push({
      variable: read.isSet('TSAI_TRACK_MAX_INTERVAL') ? 'TSAI_TRACK_MAX_INTERVAL' : 'TSAI_TRACK_FIRST_POLL',
      problem: 'the longest wait between reads of a flow must be at least the first wait, e.g. 3s and 60s',
    });
  // Both bounds must outlast one service call (its connection and its answer): a read of a followed flow
  // holds the flow's lease, and an approved request is executing while its flow is being created.
  const shortest = Math.max(MIN_BOUND_MS, v.TSAI_CONNECT_TIMEOUT + v.TSAI_REQUEST_TIMEOUT);
  const atLeastOneCall = (
    variable: 'TSAI_TRACK_LEASE' | 'TSAI_APPROVAL_INTERRUPTED_AFTER',
  ): ConfigProblem[] => {
    if (v[variable] >= shortest) return [];
    const example = formatDuration(Math.max(VARIABLES[variable].default, Math.ceil(shortest / 1000) * 1000));
    return [
      {
        variable,
        problem: `must be at least ${seconds(shortest)}: no less than 5s, nor than one service call (TSAI_CONNECT_TIMEOUT + TSAI_REQUEST_TIMEOUT); e.g. ${example}`,
      },
    ];
  };
  problems.push(...atLeastOneCall('TSAI_TRACK_LEASE'), ...atLeastOneCall('TSAI_APPROVAL_INTERRUPTED_AFTER'));
}

function seconds(ms: number): string {
  return `${Math.ceil(ms / 1000)}s`;
}

/**
 * Every secret value present, for the logger to scrub. A postgres URL's password is there as written, and
 * so is its whole `user:password@`, so that a logged URL loses it even when the password is short.
 */
function secretsOf(v: Values, env: Env): string[] {
  const out: string[] = [];
  // The keys are held decoded; what the logs could show is the text they were given as.
  if (v.TSAI_SECRET_KEY) out.push(env.TSAI_SECRET_KEY?.trim() ?? '');
  for (const key of v.TSAI_SECRET_KEYS_PREVIOUS) out.push(Buffer.from(key).toString('base64'));
  for (const [name, variable] of Object.entries(VARIABLES)) {
    const value = v[name as VariableName];
    if ('secret' in variable && typeof value === 'string') out.push(value);
    // A list of headers is a secret as a whole and in each of its values (a vendor's API key).
    if ('secret' in variable && value && typeof value === 'object' && !(value instanceof Uint8Array))
      out.push(env[name]?.trim() ?? '', ...Object.values(value).filter((s) => typeof s === 'string'));
  }
  const password = urlPassword(v.DATABASE_URL);
  if (password) out.push(password, urlUserInfo(v.DATABASE_URL) ?? '');
  return out.filter((s) => s !== '');
}
