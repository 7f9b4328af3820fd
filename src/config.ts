import { existsSync } from 'node:fs';
import { z } from 'zod';
import { isValidTimeZone } from './time/index.js';

/**
 * Configuration from the environment. `loadConfig` validates every variable at once
 * and throws one `ConfigError` that names each missing or bad variable; values are never echoed,
 * because several of them are secrets.
 */

export type SlackMode = 'http' | 'socket' | 'none';

export type SlackConfig =
  | { mode: 'http'; botToken: string; signingSecret: string; apiUrl?: string }
  | { mode: 'socket'; botToken: string; appToken: string; apiUrl?: string }
  | { mode: 'none'; apiUrl?: string };

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
   * On SIGTERM/SIGINT the bot stops within this (TSAI_SHUTDOWN_TIMEOUT): the replies in hand get most of
   * it; past it the process exits anyway, saying so in the log.
   */
  shutdownTimeoutMs: number;
  /** Every secret value present, for log scrubbing. */
  secrets: string[];
}

export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; problem: string }[]) {
    super(
      `Invalid configuration (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${problems
        .map((p) => `  - ${p.variable}: ${p.problem}`)
        .join('\n')}`,
    );
    this.name = 'ConfigError';
  }
}

export const DEFAULT_DATABASE_URL = './data/tsai-chatops.sqlite';

/** The shortest lease or interruption bound accepted, whatever the service timeouts. */
const MIN_BOUND_MS = 5_000;

function seconds(ms: number): string {
  return `${Math.ceil(ms / 1000)}s`;
}

/** "4h", "90m", "30s", "1d", "1h30m" or a bare number of milliseconds. */
export function parseDuration(text: string): number | undefined {
  const t = text.trim().toLowerCase();
  if (/^\d+$/.test(t)) return Number(t);
  const re = /(\d+)\s*(ms|d|h|m|s)/gy;
  let total = 0;
  let consumed = 0;
  for (let m = re.exec(t); m; m = re.exec(t)) {
    const n = Number(m[1]);
    const unit = m[2];
    total +=
      n *
      (unit === 'd'
        ? 86_400_000
        : unit === 'h'
          ? 3_600_000
          : unit === 'm'
            ? 60_000
            : unit === 's'
              ? 1000
              : 1);
    consumed = re.lastIndex;
    while (t[consumed] === ' ') consumed++;
    re.lastIndex = consumed;
  }
  return consumed === t.length && consumed > 0 ? total : undefined;
}

const url = z.string().refine((v) => {
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}, 'must be an http(s) URL');

const userOrGroupId = /^[UWS][A-Z0-9]{2,}$/;
const channelId = /^[CGD][A-Z0-9]{2,}$/;

function idList(pattern: RegExp, what: string) {
  return z
    .string()
    .transform((v) =>
      v
        .split(/[\s,]+/)
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .refine((ids) => ids.every((id) => pattern.test(id)), `must be a comma-separated list of ${what}`);
}

function intIn(min: number, max: number) {
  return z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .refine((n) => n >= min && n <= max, `must be between ${min} and ${max}`);
}

const bool = z
  .string()
  .transform((v) => v.trim().toLowerCase())
  .refine((v) => ['true', 'false', '1', '0', 'yes', 'no'].includes(v), 'must be true or false')
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const duration = z
  .string()
  .transform((v) => parseDuration(v))
  .refine((v): v is number => v !== undefined && v > 0, 'must be a duration such as 4h, 90m or 1d');

/** One entry per variable: its schema (applied only when the variable is set) and its default. */
const VARIABLES = {
  SLACK_BOT_TOKEN: z.string().regex(/^xoxb-/, 'must be a bot token starting with xoxb-'),
  SLACK_SIGNING_SECRET: z.string().min(8, 'looks too short for a signing secret'),
  SLACK_APP_TOKEN: z.string().regex(/^xapp-/, 'must be an app-level token starting with xapp-'),
  SLACK_API_URL: url,
  PORT: intIn(0, 65535),
  TSAI_BASE_URL: url,
  TSAI_TOKEN: z.string().min(1),
  TSAI_ACCOUNT_ID: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be the account ID (letters, digits, - or _)'),
  TSAI_DEFAULT_TIMEZONE: z
    .string()
    .refine(isValidTimeZone, 'must be an IANA time zone such as Europe/Berlin'),
  DATABASE_URL: z
    .string()
    .refine(
      (v) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(v) || /^(sqlite|postgres|postgresql):\/\//i.test(v),
      'must be a file path, a sqlite: URL or a postgres:// URL',
    ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    message: 'must be one of fatal, error, warn, info, debug, trace, silent',
  }),
  TSAI_APPROVALS_CHANNEL: z.string().regex(channelId, 'must be a channel ID such as C0123456789'),
  TSAI_APPROVERS: idList(userOrGroupId, 'user IDs (U…/W…) or user-group IDs (S…)'),
  TSAI_ALLOW_SELF_APPROVAL: bool,
  TSAI_APPROVAL_TTL: duration,
  TSAI_APPROVAL_INTERRUPTED_AFTER: duration,
  TSAI_OPERATORS: idList(userOrGroupId, 'user IDs (U…/W…) or user-group IDs (S…)'),
  TSAI_ALLOWED_CHANNELS: idList(channelId, 'channel IDs (C…/G…/D…)'),
  TSAI_CONNECT_TIMEOUT_MS: intIn(1, 600_000),
  TSAI_REQUEST_TIMEOUT_MS: intIn(1, 600_000),
  TSAI_MAX_ATTEMPTS: intIn(1, 10),
  TSAI_MAX_RETRY_TIME_MS: intIn(0, 600_000),
  TSAI_MAX_QUEUED: intIn(0, 100_000),
  TSAI_TRACK_FLOWS: bool,
  TSAI_TRACK_FIRST_POLL: duration,
  TSAI_TRACK_MAX_INTERVAL: duration,
  TSAI_TRACK_MAX_AGE: duration,
  TSAI_TRACK_LEASE: duration,
  TSAI_SHUTDOWN_TIMEOUT: duration,
} as const;

type Vars = typeof VARIABLES;
type Parsed = { [K in keyof Vars]?: z.output<Vars[K]> };

export const CONFIG_VARIABLES = Object.keys(VARIABLES) as (keyof Vars)[];

const SECRET_VARIABLES = [
  'SLACK_BOT_TOKEN',
  'SLACK_SIGNING_SECRET',
  'SLACK_APP_TOKEN',
  'TSAI_TOKEN',
] as const;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const problems: { variable: string; problem: string }[] = [];
  const v: Parsed = {};
  for (const name of CONFIG_VARIABLES) {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === '') continue;
    const result = VARIABLES[name].safeParse(raw);
    if (result.success) (v as Record<string, unknown>)[name] = result.data;
    else problems.push({ variable: name, problem: result.error.issues[0]?.message ?? 'is invalid' });
  }
  const isSet = (name: keyof Vars) => (env[name]?.trim() ?? '') !== '';
  const require = (name: keyof Vars, why: string) => {
    if (!isSet(name)) problems.push({ variable: name, problem: `is required ${why}` });
  };

  // Slack: Socket Mode when an app token is given, HTTP mode with a signing secret, otherwise none.
  let slack: SlackConfig = { mode: 'none', apiUrl: v.SLACK_API_URL };
  if (isSet('SLACK_APP_TOKEN')) {
    require('SLACK_BOT_TOKEN', 'for Socket Mode (SLACK_APP_TOKEN is set)');
    if (v.SLACK_BOT_TOKEN && v.SLACK_APP_TOKEN)
      slack = {
        mode: 'socket',
        botToken: v.SLACK_BOT_TOKEN,
        appToken: v.SLACK_APP_TOKEN,
        apiUrl: v.SLACK_API_URL,
      };
  } else if (isSet('SLACK_SIGNING_SECRET')) {
    require('SLACK_BOT_TOKEN', 'for HTTP mode (SLACK_SIGNING_SECRET is set)');
    if (v.SLACK_BOT_TOKEN && v.SLACK_SIGNING_SECRET)
      slack = {
        mode: 'http',
        botToken: v.SLACK_BOT_TOKEN,
        signingSecret: v.SLACK_SIGNING_SECRET,
        apiUrl: v.SLACK_API_URL,
      };
  } else if (isSet('SLACK_BOT_TOKEN')) {
    problems.push({
      variable: 'SLACK_SIGNING_SECRET',
      problem: 'is required with SLACK_BOT_TOKEN (HTTP mode), or set SLACK_APP_TOKEN for Socket Mode',
    });
  }

  if (isSet('TSAI_BASE_URL')) {
    require('TSAI_TOKEN', 'when TSAI_BASE_URL is set');
    require('TSAI_ACCOUNT_ID', 'when TSAI_BASE_URL is set');
  }

  const firstPollMs = v.TSAI_TRACK_FIRST_POLL ?? 3_000;
  const maxIntervalMs = v.TSAI_TRACK_MAX_INTERVAL ?? 60_000;
  if (maxIntervalMs < firstPollMs)
    problems.push({
      variable: isSet('TSAI_TRACK_MAX_INTERVAL') ? 'TSAI_TRACK_MAX_INTERVAL' : 'TSAI_TRACK_FIRST_POLL',
      problem: 'the longest wait between reads of a flow must be at least the first wait, e.g. 3s and 60s',
    });

  // Both bounds must outlast one service call (its connection and its answer): a read of a followed flow
  // holds the flow's lease, and an approved request is executing while its flow is being created.
  const connectTimeoutMs = v.TSAI_CONNECT_TIMEOUT_MS ?? 5_000;
  const requestTimeoutMs = v.TSAI_REQUEST_TIMEOUT_MS ?? 15_000;
  const shortest = Math.max(MIN_BOUND_MS, connectTimeoutMs + requestTimeoutMs);
  const atLeastOneCall = (variable: keyof Vars, value: number, example: string) => {
    if (value < shortest)
      problems.push({
        variable,
        problem: `must be at least ${seconds(shortest)}: no less than 5s, nor than one service call (TSAI_CONNECT_TIMEOUT_MS + TSAI_REQUEST_TIMEOUT_MS); e.g. ${example}`,
      });
  };
  const leaseMs = v.TSAI_TRACK_LEASE ?? 60_000;
  atLeastOneCall('TSAI_TRACK_LEASE', leaseMs, '60s');
  const interruptedAfterMs = v.TSAI_APPROVAL_INTERRUPTED_AFTER ?? 5 * 60_000;
  atLeastOneCall('TSAI_APPROVAL_INTERRUPTED_AFTER', interruptedAfterMs, '5m');

  if (problems.length > 0) throw new ConfigError(problems);

  return {
    slack,
    port: v.PORT ?? 3000,
    service: {
      baseUrl: v.TSAI_BASE_URL,
      token: v.TSAI_TOKEN,
      accountId: v.TSAI_ACCOUNT_ID,
      connectTimeoutMs,
      requestTimeoutMs,
      maxAttempts: v.TSAI_MAX_ATTEMPTS ?? 3,
      maxRetryTimeMs: v.TSAI_MAX_RETRY_TIME_MS ?? 20_000,
      maxQueued: v.TSAI_MAX_QUEUED ?? 256,
    },
    defaultTimeZone: v.TSAI_DEFAULT_TIMEZONE ?? 'UTC',
    databaseUrl: v.DATABASE_URL ?? DEFAULT_DATABASE_URL,
    logLevel: v.LOG_LEVEL ?? 'info',
    approvals: {
      channel: v.TSAI_APPROVALS_CHANNEL,
      approvers: v.TSAI_APPROVERS ?? [],
      allowSelfApproval: v.TSAI_ALLOW_SELF_APPROVAL ?? false,
      ttlMs: v.TSAI_APPROVAL_TTL ?? 4 * 3_600_000,
      interruptedAfterMs,
    },
    policy: {
      operators: v.TSAI_OPERATORS ?? [],
      allowedChannels: v.TSAI_ALLOWED_CHANNELS ?? [],
    },
    tracking: {
      enabled: v.TSAI_TRACK_FLOWS ?? true,
      firstPollMs,
      maxIntervalMs,
      maxAgeMs: v.TSAI_TRACK_MAX_AGE ?? 7 * 86_400_000,
      leaseMs,
    },
    shutdownTimeoutMs: v.TSAI_SHUTDOWN_TIMEOUT ?? 9_000,
    secrets: SECRET_VARIABLES.map((name) => env[name]?.trim() ?? '').filter((s) => s !== ''),
  };
}

/** Loads `.env` from the working directory when present; variables already set win. */
export function loadDotEnv(path = '.env'): boolean {
  if (!existsSync(path)) return false;
  if (typeof process.loadEnvFile !== 'function') return false;
  process.loadEnvFile(path);
  return true;
}
