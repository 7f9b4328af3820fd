import { z } from 'zod';
import {
  addressList,
  approversByWorkspace,
  bool,
  databaseUrl,
  duration,
  durationOrMilliseconds,
  type Field,
  httpUrl,
  idList,
  keyValueList,
  oneOf,
  port,
  portOrOff,
  ratio,
  secretKey,
  secretKeyList,
  text,
  timeZone,
  token,
  wholeNumber,
} from './fields.js';

/**
 * THE table of every environment variable the bot reads: how it is parsed, its default, what it does and
 * its old names. `loadConfig` reads from it and docs/configuration.md shows it (a test keeps the two, and
 * .env.example, the same), so a default is written down once.
 */
export interface Variable<T> extends Field<T> {
  default?: T;
  /** The default as the docs say it, when it is not a value one could set ("the command's channel"). */
  shownDefault?: string;
  does: string;
  /** Old names that still work, each with what it accepted (e.g. a bare number of milliseconds). */
  aliases?: readonly Alias<T>[];
  secret?: true;
}

export interface Alias<T> {
  name: string;
  schema: z.ZodType<T>;
}

export const TRACES_EXPORTERS = ['otlp', 'none'] as const;
export type TracesExporter = (typeof TRACES_EXPORTERS)[number];
export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];
export const TRACES_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type TracesSampler = (typeof TRACES_SAMPLERS)[number];

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
type LogLevel = (typeof LOG_LEVELS)[number];

const variable = <T>(v: Variable<T>): Variable<T> => v;
const withDefault = <T>(v: Variable<T> & { default: T }): Variable<T> & { default: T } => v;

const userOrGroupIds = idList(
  /^[UWS][A-Z0-9]{2,}$/,
  'user IDs (U…/W…) or user-group IDs (S…)',
  'user IDs (`U…`/`W…`) and user-group IDs (`S…`), comma-separated',
);

const DAY_MS = 86_400_000;

/** The longest a service timeout or retry budget may be set to. */
const SERVICE_TIMEOUT_MAX = 600_000;

export const VARIABLES = {
  SLACK_BOT_TOKEN: variable({
    ...token('xoxb-', 'a bot token'),
    does: 'Bot token (OAuth & Permissions → Bot User OAuth Token). Needed for any Slack mode.',
    secret: true,
  }),
  SLACK_SIGNING_SECRET: variable({
    schema: z.string().min(8, 'looks too short for a signing secret'),
    format: 'secret',
    does: "HTTP mode: verifies Slack's request signatures (Basic Information → App Credentials). Endpoint `/slack/events`.",
    secret: true,
  }),
  SLACK_CLIENT_ID: variable({
    ...text(
      'client ID',
      /^\d+\.\d+$/,
      "must be the app's client ID, digits.digits (Basic Information → App Credentials)",
    ),
    does: '"Add to Slack" for many workspaces instead of one `SLACK_BOT_TOKEN`: the app\'s client ID (Basic Information → App Credentials). With `SLACK_CLIENT_SECRET`, `SLACK_STATE_SECRET`, `SLACK_SIGNING_SECRET` and `TSAI_SECRET_KEY`, the bot serves every workspace (or Enterprise Grid organisation) that installs it at `SLACK_INSTALL_PATH`, each with its own service account (docs/install.md).',
  }),
  SLACK_CLIENT_SECRET: variable({
    schema: z.string().min(8, 'looks too short for a client secret'),
    format: 'secret',
    does: "With `SLACK_CLIENT_ID`: the client secret (Basic Information → App Credentials), sent to Slack to exchange an installation's code for its bot token.",
    secret: true,
  }),
  SLACK_STATE_SECRET: variable({
    schema: z.string().min(16, 'must be at least 16 characters: make one with `openssl rand -hex 32`'),
    format: 'secret, 16 characters or more',
    does: 'With `SLACK_CLIENT_ID`: signs the `state` of each installation, so that only an install started at `SLACK_INSTALL_PATH` (in the same browser, within 10 minutes) completes. The same on every replica.',
    secret: true,
  }),
  SLACK_INSTALL_PATH: withDefault({
    ...text('path', /^\/[A-Za-z0-9._~/-]{0,200}$/, 'must be a path starting with /, e.g. /slack/install'),
    default: '/slack/install',
    does: 'With `SLACK_CLIENT_ID`: where the "Add to Slack" page is served, on the bot\'s port. It sends the browser to Slack with a fresh `state`.',
  }),
  SLACK_REDIRECT_URI: variable({
    ...httpUrl('SLACK_CLIENT_SECRET'),
    shownDefault: "the app's one redirect URL; the bot serves `/slack/oauth_redirect`",
    does: 'With `SLACK_CLIENT_ID`: the public address Slack sends the installer back to, as listed under OAuth & Permissions → Redirect URLs; the bot serves its path. Needed when the app lists more than one.',
  }),
  SLACK_APP_TOKEN: variable({
    ...token('xapp-', 'an app-level token'),
    does: 'Socket Mode instead of HTTP: an app-level token with `connections:write`; takes precedence.',
    secret: true,
  }),
  SLACK_API_URL: variable({
    ...httpUrl('SLACK_BOT_TOKEN'),
    shownDefault: "Slack's own",
    does: 'Web API base URL override, only for a local Slack stand-in (tests, demos).',
  }),
  PORT: withDefault({
    ...port('PORT', 3000),
    default: 3000,
    does: 'HTTP port of the bot. `GET /healthz` answers `ok`; `GET /readyz` 200, or 503 with the reasons.',
  }),
  TSAI_METRICS_PORT: withDefault<number | 'off'>({
    ...portOrOff('TSAI_METRICS_PORT', 9464),
    default: 9464,
    does: "Prometheus metrics at `GET /metrics` on this port, apart from Slack's request URL (docs/operations.md). A busy port is logged and the bot runs without them.",
  }),
  TSAI_METRICS_HOST: withDefault({
    ...text(
      'host name or IP address',
      /^[A-Za-z0-9.:_-]{1,253}$/,
      'must be a host name or IP address, e.g. 0.0.0.0',
    ),
    default: '127.0.0.1',
    does: 'The address the metrics port listens on; `0.0.0.0` lets a Prometheus on another machine scrape it.',
  }),
  TSAI_BASE_URL: variable({
    ...httpUrl('TSAI_TOKEN'),
    shownDefault: 'the built-in emulator',
    does: 'The service. Unset: `npm start` runs the built-in emulator and says so loudly.',
  }),
  TSAI_TOKEN: variable({
    schema: z.string().min(1),
    format: 'secret',
    does: "The bot's shared service token: whoever has not connected acts with it (required with `TSAI_BASE_URL`, unless `TSAI_REQUIRE_USER_TOKEN=true`).",
    secret: true,
  }),
  TSAI_ACCOUNT_ID: variable({
    ...text('account ID', /^[A-Za-z0-9_-]{1,64}$/, 'must be the account ID (letters, digits, - or _)'),
    does: 'Service account ID (required with `TSAI_BASE_URL`).',
  }),
  TSAI_SERVICE_ALLOWED_ADDRESSES: withDefault({
    ...addressList,
    default: [],
    shownDefault: 'none: only public https addresses',
    does: "With \"Add to Slack\": where the service URL a workspace's admins give in `/tsai setup` may lead besides public https addresses: an on-premises service's host names and networks. A URL that resolves to a loopback, private, link-local (the cloud's metadata address), shared or unspecified address is refused unless it is listed here, when it is given and again at every connection; a listed one may be plain http. `npm start` lists its built-in emulator's address (docs/security.md).",
  }),
  TSAI_REQUIRE_USER_TOKEN: withDefault({
    ...bool,
    default: false,
    does: 'Everyone acts with their own service token (`/tsai connect`); nobody acts with the shared one. The production bot then needs `TSAI_SECRET_KEY`, not `TSAI_TOKEN`.',
  }),
  TSAI_SECRET_KEY: variable({
    ...secretKey,
    shownDefault: '`npm start`: a key it makes and keeps beside the SQLite file',
    does: 'Encrypts the tokens people connect with (AES-256-GCM). Unset: connecting is unavailable. Rotation: docs/security.md.',
    secret: true,
  }),
  TSAI_SECRET_KEYS_PREVIOUS: withDefault({
    ...secretKeyList,
    default: [],
    shownDefault: 'none',
    does: 'Earlier values of `TSAI_SECRET_KEY`, still read; a token under one is encrypted again with the current key when next used.',
    secret: true,
  }),
  TSAI_CONNECT_TIMEOUT: withDefault({
    ...duration({ max: SERVICE_TIMEOUT_MAX }),
    default: 5_000,
    does: 'How long a service connection may take to open.',
    aliases: [
      { name: 'TSAI_CONNECT_TIMEOUT_MS', schema: durationOrMilliseconds({ max: SERVICE_TIMEOUT_MAX }) },
    ],
  }),
  // 15 s, not the 30 s the service client once defaulted to: with the 20 s retry budget a 30 s attempt
  // left no room for a second one, and the bot's own docs and tests have always run with 15 s.
  TSAI_REQUEST_TIMEOUT: withDefault({
    ...duration({ max: SERVICE_TIMEOUT_MAX }),
    default: 15_000,
    does: 'How long one attempt of a service call may wait for its answer (headers and body).',
    aliases: [
      { name: 'TSAI_REQUEST_TIMEOUT_MS', schema: durationOrMilliseconds({ max: SERVICE_TIMEOUT_MAX }) },
    ],
  }),
  // 3, not the client's former 4: three 15 s attempts already outlast the 20 s retry budget, so a fourth
  // could never start after timeouts; the bot has always been configured with 3.
  TSAI_MAX_ATTEMPTS: withDefault({
    ...wholeNumber(1, 10),
    default: 3,
    does: 'Attempts of a safe (GET/PUT) service call. A flow-creating POST is never repeated.',
  }),
  TSAI_MAX_RETRY_TIME: withDefault({
    ...duration({ min: 0, max: SERVICE_TIMEOUT_MAX }),
    default: 20_000,
    does: 'Total time a safe service call may spend retrying.',
    aliases: [
      {
        name: 'TSAI_MAX_RETRY_TIME_MS',
        schema: durationOrMilliseconds({ min: 0, max: SERVICE_TIMEOUT_MAX }),
      },
    ],
  }),
  TSAI_MAX_QUEUED: withDefault({
    ...wholeNumber(0, 100_000),
    default: 256,
    does: 'Service calls that may wait (at most 5 s) for one of the 128 connections; beyond that a call fails at once as busy, nothing sent.',
  }),
  TSAI_ASSISTANT_PANE: withDefault({
    ...bool,
    default: true,
    does: "Answer in Slack's assistant pane (the manifest declares it; docs/assistant.md). Off for a workspace whose plan has no pane or that should not offer it: nothing of the pane is loaded, and direct messages are answered as in the Messages tab.",
  }),
  TSAI_TRACK_FLOWS: withDefault({
    ...bool,
    default: true,
    does: 'Follow every created flow to its end (docs/flow-tracking.md).',
  }),
  TSAI_TRACK_FIRST_POLL: withDefault({
    ...duration(),
    default: 3_000,
    does: 'First read of a flow after it was created; the wait then doubles.',
  }),
  TSAI_TRACK_MAX_INTERVAL: withDefault({
    ...duration(),
    default: 60_000,
    does: 'Longest wait between two reads of a flow (at least `TSAI_TRACK_FIRST_POLL`).',
  }),
  TSAI_TRACK_MAX_AGE: withDefault({
    ...duration(),
    default: 7 * 86_400_000,
    does: 'Stop following a flow after this, and say where to look.',
  }),
  TSAI_TRACK_LEASE: withDefault({
    ...duration(),
    default: 60_000,
    does: "How long a replica holds a flow it reads; a dead replica's flows are taken over after it. At least 5 s and one service call.",
  }),
  TSAI_SCHEDULE_CATCH_UP: withDefault({
    ...duration({ min: 0, max: 7 * DAY_MS }),
    default: 3_600_000,
    does: 'A scheduled run missed while the bot was down runs once when it is back, if it is less late than this (only the latest missed run of each schedule); older missed runs are skipped and the owner is told. `0s`: missed runs are always skipped (docs/schedules.md).',
  }),
  TSAI_SCHEDULES_PER_PERSON: withDefault({
    ...wholeNumber(1, 100_000),
    default: 25,
    does: "The most schedules (and digests) one person may have at once, in every channel; past it a new one is refused, saying so and how to delete one. Each schedule's runs call the service on their own: this bounds what one person can set going.",
  }),
  TSAI_SCHEDULES_PER_CHANNEL: withDefault({
    ...wholeNumber(1, 100_000),
    default: 50,
    does: 'The most schedules (and digests) one channel may have at once, whoever made them; past it a new one is refused, saying so and how to delete one. `/tsai schedules` lists them 20 to a page, each found by its number, name or ID however many there are.',
  }),
  TSAI_SCHEDULE_MIN_INTERVAL: withDefault({
    ...duration({ min: 60_000, max: 7 * DAY_MS }),
    default: 15 * 60_000,
    does: 'The shortest time between two runs of one schedule (`every minute` is refused under `15m`, saying the shortest that is allowed). A run is a call to the service that nobody is waiting for; a minute apart, a few schedules are most of its load.',
  }),
  TSAI_RETAIN_AUDIT: withDefault({
    ...duration({ min: DAY_MS }),
    default: 365 * DAY_MS,
    does: 'Audit entries older than this are deleted (checked at start and every 6 h).',
  }),
  TSAI_RETAIN_APPROVALS: withDefault({
    ...duration({ min: DAY_MS }),
    default: 90 * DAY_MS,
    does: 'Approval requests that finished (done, failed, rejected, expired) longer ago than this are deleted; pending ones never.',
  }),
  TSAI_RETAIN_FLOWS: withDefault({
    ...duration({ min: DAY_MS }),
    default: 30 * DAY_MS,
    does: 'Followed flows whose end was told longer ago than this are deleted; flows still followed never.',
  }),
  TSAI_RETAIN_CATALOG: withDefault({
    ...duration({ min: DAY_MS }),
    default: 180 * DAY_MS,
    does: 'Known names (workspaces, signals, models) nobody has used for this long are forgotten; they are learned again when next used.',
  }),
  TSAI_DEFAULT_TIMEZONE: withDefault({
    ...timeZone,
    default: 'UTC',
    does: "Zone for reading time ranges when a user's Slack zone is unknown.",
  }),
  DATABASE_URL: withDefault({
    ...databaseUrl,
    default: './data/tsai-chatops.sqlite',
    does: 'The store: SQLite (a file) or PostgreSQL (`postgres://user:password@host/db`; the password is kept out of logs).',
  }),
  LOG_LEVEL: withDefault<LogLevel>({
    ...oneOf(LOG_LEVELS),
    default: 'info',
    does: 'pino level; logs are JSON lines with secrets redacted.',
  }),
  TSAI_APPROVALS_CHANNEL: variable({
    ...text('channel ID', /^[CGD][A-Z0-9]{2,}$/, 'must be a channel ID such as C0123456789'),
    shownDefault: "the command's channel",
    does: 'Where approval requests are posted.',
  }),
  TSAI_APPROVERS: withDefault({
    ...userOrGroupIds,
    default: [],
    shownDefault: 'nobody',
    does: 'Who may approve live starts (user groups are expanded).',
  }),
  TSAI_WORKSPACE_APPROVERS: withDefault({
    ...approversByWorkspace,
    default: {},
    shownDefault: 'none: `TSAI_APPROVERS` for every workspace',
    does: 'Who approves live starts and stops of models in a given service workspace, instead of `TSAI_APPROVERS` (which still decides for every other workspace, and reads the audit log), e.g. `1353853719423311872=S0LEADS U0BOB; 1353853719423311999=U0CAROL`.',
  }),
  TSAI_ALLOW_SELF_APPROVAL: withDefault({
    ...bool,
    default: false,
    does: 'Let requesters approve their own requests.',
  }),
  TSAI_APPROVAL_TTL: withDefault({
    ...duration(),
    default: 4 * 3_600_000,
    does: 'How long an approval request stays open before it expires.',
  }),
  TSAI_APPROVAL_INTERRUPTED_AFTER: withDefault({
    ...duration(),
    default: 5 * 60_000,
    does: 'An approved request still creating its flow after this was cut off (its process died): any replica marks it outcome unknown. At least 5 s and one service call.',
  }),
  TSAI_OPERATORS: withDefault({
    ...userOrGroupIds,
    default: [],
    shownDefault: 'everyone',
    does: 'Who may run the commands that change something.',
  }),
  TSAI_ALLOWED_CHANNELS: withDefault({
    ...idList(
      /^[CGD][A-Z0-9]{2,}$/,
      'channel IDs (C…/G…/D…)',
      'channel IDs (`C…`/`G…`/`D…`), comma-separated',
    ),
    default: [],
    shownDefault: 'all channels',
    does: 'Channels where the bot acts.',
  }),
  // 9 s: the process is gone within 10 s, the grace period `docker stop` gives before SIGKILL.
  TSAI_SHUTDOWN_TIMEOUT: withDefault({
    ...duration(),
    default: 9_000,
    does: "On SIGTERM/SIGINT: finish the replies in hand, then exit; past this exit anyway. Keep it under the platform's grace period.",
  }),
  SANDBOX_PORT: withDefault({
    ...port('SANDBOX_PORT', 3030),
    default: 3030,
    does: "`npm start` without Slack settings: the browser sandbox page's port (a busy port falls back to a free one).",
  }),
  SANDBOX_WITH_SERVICE: withDefault({
    ...bool,
    default: false,
    does: '`npm start` without Slack settings but with `TSAI_BASE_URL` set: start the sandbox page anyway, so that anyone who can open it acts on that real service as its personas. Off: `npm start` refuses, naming what to set.',
  }),
  // OpenTelemetry's own variables, read as its specification says, in the one table like every other:
  // checked at start with the rest, and handed to both threads as data (docs/tracing.md). Any of them set
  // turns tracing on; none set, nothing of the SDK is loaded.
  OTEL_SDK_DISABLED: withDefault({
    ...bool,
    default: false,
    does: 'Tracing off whatever the other `OTEL_*` variables say. Tracing is on when any of them is set (docs/tracing.md); none set, nothing of the OpenTelemetry SDK is loaded.',
  }),
  OTEL_TRACES_EXPORTER: withDefault<TracesExporter>({
    ...oneOf(TRACES_EXPORTERS),
    default: 'otlp',
    does: '`otlp`: traces are sent over OTLP/HTTP to the endpoint below; `none`: tracing off.',
  }),
  OTEL_SERVICE_NAME: withDefault({
    ...text('service name', /^[^\s,=][^,=]{0,254}$/, 'must be a name such as tsai-chatops, without , or ='),
    default: 'tsai-chatops',
    does: "The `service.name` the bot's spans carry in the tracing backend.",
  }),
  OTEL_RESOURCE_ATTRIBUTES: withDefault({
    ...keyValueList,
    default: {},
    shownDefault: 'none',
    does: 'More attributes of the process, on every span, e.g. `deployment.environment=production,service.namespace=ops`.',
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: withDefault({
    ...httpUrl('OTEL_EXPORTER_OTLP_HEADERS'),
    default: 'http://localhost:4318',
    does: "The OTLP/HTTP receiver (an OpenTelemetry Collector, Jaeger, Tempo, a vendor's): traces go to its `/v1/traces`.",
  }),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: variable({
    ...httpUrl('OTEL_EXPORTER_OTLP_TRACES_HEADERS'),
    shownDefault: '`OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`',
    does: 'The full URL traces are sent to, as it is (no path added).',
  }),
  OTEL_EXPORTER_OTLP_HEADERS: withDefault({
    ...keyValueList,
    default: {},
    shownDefault: 'none',
    does: "Headers sent with every export, e.g. a vendor's API key: `x-honeycomb-team=<key>`. Kept out of logs like every secret.",
    secret: true,
  }),
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: withDefault({
    ...keyValueList,
    default: {},
    shownDefault: 'none',
    does: 'Headers for the traces export, over those of `OTEL_EXPORTER_OTLP_HEADERS` of the same name.',
    secret: true,
  }),
  OTEL_EXPORTER_OTLP_PROTOCOL: withDefault<OtlpProtocol>({
    ...oneOf(OTLP_PROTOCOLS),
    default: 'http/protobuf',
    does: "How spans are encoded over HTTP. `grpc` is not offered: point the bot at the receiver's HTTP port (4318).",
  }),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: variable<OtlpProtocol>({
    ...oneOf(OTLP_PROTOCOLS),
    shownDefault: '`OTEL_EXPORTER_OTLP_PROTOCOL`',
    does: 'The same, for traces only.',
  }),
  OTEL_TRACES_SAMPLER: withDefault<TracesSampler>({
    ...oneOf(TRACES_SAMPLERS),
    default: 'parentbased_always_on',
    does: 'Which requests are traced: every one (`always_on`), a share (`traceidratio`, with `OTEL_TRACES_SAMPLER_ARG`); `parentbased_…` follows the decision of a trace the request is part of.',
  }),
  OTEL_TRACES_SAMPLER_ARG: variable({
    ...ratio,
    shownDefault: '`1`',
    does: 'The share of requests traced by `traceidratio` and `parentbased_traceidratio`, e.g. `0.1`.',
  }),
} as const;

export type VariableName = keyof typeof VARIABLES;

/**
 * Variables the bot read once and no longer does, with what to know instead; setting one gets a notice,
 * not a failure.
 */
export const RETIRED: Readonly<Record<string, string>> = {
  TSAI_COMMAND_WORKER:
    'follow-ups always run on a worker thread (only an in-memory SQLite store keeps them on the main thread)',
};

type ValueOf<V> = V extends { default: infer D } ? D : V extends Variable<infer T> ? T | undefined : never;

/** Every variable's value: parsed when set, else its default. */
export type Values = { -readonly [K in VariableName]: ValueOf<(typeof VARIABLES)[K]> };
