import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CLIENT_DEFAULTS } from '../src/api/client.js';
import { variablesTable } from '../src/config/docs.js';
import {
  ConfigError,
  formatDuration,
  loadConfig,
  loadDotEnv,
  parseDuration,
  RETIRED,
  VARIABLES,
} from '../src/config.js';
import { DEFAULT_APPROVAL_TTL_MS, INTERRUPTED_AFTER_MS } from '../src/core/approvals/workflow.js';
import { DEFAULT_SCHEDULE } from '../src/core/tracking/schedule.js';
import { DEFAULT_LEASE_MS } from '../src/core/tracking/tracker.js';
import { createLogger } from '../src/log.js';
import { DEFAULT_SQLITE_FILE } from '../src/store/index.js';

const BOT = 'xoxb-1111-2222-secretbotvalue';
const SIGNING = 'signing-secret-value-123456';
const APP = 'xapp-1-A1-secretappvalue';

function problemsOf(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies defaults with nothing configured: no Slack, embedded emulator, UTC, port 3000', () => {
    const c = loadConfig({});
    expect(c.slack.mode).toBe('none');
    expect(c.port).toBe(3000);
    expect(c.service.baseUrl).toBeUndefined();
    expect(c.defaultTimeZone).toBe('UTC');
    expect(c.databaseUrl).toBe('./data/tsai-chatops.sqlite');
    expect(c.approvals).toEqual({
      channel: undefined,
      approvers: [],
      byWorkspace: {},
      allowSelfApproval: false,
      ttlMs: 4 * 3600_000,
      interruptedAfterMs: 5 * 60_000,
    });
    expect(c.policy).toEqual({ operators: [], allowedChannels: [] });
    expect(c.tracking).toEqual({
      enabled: true,
      firstPollMs: 3_000,
      maxIntervalMs: 60_000,
      maxAgeMs: 7 * 86_400_000,
      leaseMs: 60_000,
    });
    expect(c.secrets).toEqual([]);
  });

  it('reads the flow-following settings, and names each bad one', () => {
    const c = loadConfig({
      TSAI_TRACK_FLOWS: 'false',
      TSAI_TRACK_FIRST_POLL: '5s',
      TSAI_TRACK_MAX_INTERVAL: '2m',
      TSAI_TRACK_MAX_AGE: '3d',
    });
    expect(c.tracking).toEqual({
      enabled: false,
      firstPollMs: 5_000,
      maxIntervalMs: 120_000,
      maxAgeMs: 3 * 86_400_000,
      leaseMs: 60_000,
    });
    const bad = problemsOf({ TSAI_TRACK_FLOWS: 'perhaps', TSAI_TRACK_MAX_AGE: 'forever' });
    expect(bad.problems.map((p) => p.variable)).toEqual(['TSAI_TRACK_FLOWS', 'TSAI_TRACK_MAX_AGE']);
    const order = problemsOf({ TSAI_TRACK_FIRST_POLL: '90s', TSAI_TRACK_MAX_INTERVAL: '30s' });
    expect(order.problems).toEqual([
      { variable: 'TSAI_TRACK_MAX_INTERVAL', problem: expect.stringContaining('at least the first wait') },
    ]);
  });

  it('reads the lease and the interruption bound, each at least one service call long', () => {
    const c = loadConfig({
      TSAI_TRACK_LEASE: '10s',
      TSAI_APPROVAL_INTERRUPTED_AFTER: '20s',
      TSAI_REQUEST_TIMEOUT_MS: '1500',
    });
    expect(c.tracking.leaseMs).toBe(10_000);
    expect(c.approvals.interruptedAfterMs).toBe(20_000);
    // With the default timeouts one call may take 5 s + 15 s.
    const short = problemsOf({ TSAI_TRACK_LEASE: '10s', TSAI_APPROVAL_INTERRUPTED_AFTER: '19s' });
    expect(short.problems).toEqual([
      { variable: 'TSAI_TRACK_LEASE', problem: expect.stringContaining('at least 20s') },
      { variable: 'TSAI_APPROVAL_INTERRUPTED_AFTER', problem: expect.stringContaining('at least 20s') },
    ]);
    const tiny = problemsOf({
      TSAI_TRACK_LEASE: '2s',
      TSAI_CONNECT_TIMEOUT_MS: '100',
      TSAI_REQUEST_TIMEOUT_MS: '100',
    });
    expect(tiny.problems).toEqual([
      { variable: 'TSAI_TRACK_LEASE', problem: expect.stringContaining('at least 5s') },
    ]);
    expect(problemsOf({ TSAI_TRACK_LEASE: 'soon' }).problems.map((p) => p.variable)).toContain(
      'TSAI_TRACK_LEASE',
    );
  });

  it('selects HTTP mode with a signing secret and Socket Mode with an app token', () => {
    const http = loadConfig({ SLACK_BOT_TOKEN: BOT, SLACK_SIGNING_SECRET: SIGNING, PORT: '8080' });
    expect(http.slack).toEqual({ mode: 'http', botToken: BOT, signingSecret: SIGNING, apiUrl: undefined });
    expect(http.port).toBe(8080);
    const socket = loadConfig({
      SLACK_BOT_TOKEN: BOT,
      SLACK_APP_TOKEN: APP,
      SLACK_API_URL: 'http://127.0.0.1:9/api/',
    });
    expect(socket.slack).toEqual({
      mode: 'socket',
      botToken: BOT,
      appToken: APP,
      apiUrl: 'http://127.0.0.1:9/api/',
    });
    expect(socket.secrets).toEqual([BOT, APP]);
  });

  it('parses lists, booleans, durations and the service settings', () => {
    const c = loadConfig({
      TSAI_BASE_URL: 'https://tsai.example.com',
      TSAI_TOKEN: 'tok-abcdef',
      TSAI_ACCOUNT_ID: '1234567890123456789',
      TSAI_DEFAULT_TIMEZONE: 'Asia/Kolkata',
      TSAI_APPROVERS: 'U0123ABC, S0456DEF',
      TSAI_WORKSPACE_APPROVERS: ' 1353853719423311872=S0LEADS U0BOB; 1353853719423311999 = U0CAROL,W0DAN ;',
      TSAI_OPERATORS: 'U1AAA W2BBB',
      TSAI_ALLOWED_CHANNELS: 'C01,G02',
      TSAI_ALLOW_SELF_APPROVAL: 'TRUE',
      TSAI_APPROVAL_TTL: '1h30m',
      TSAI_APPROVALS_CHANNEL: 'C0APPROVALS',
      TSAI_REQUEST_TIMEOUT_MS: '2500',
      TSAI_MAX_QUEUED: '40',
      DATABASE_URL: 'postgres://u@127.0.0.1/db',
      LOG_LEVEL: 'debug',
    });
    expect(c.service).toMatchObject({
      baseUrl: 'https://tsai.example.com',
      token: 'tok-abcdef',
      accountId: '1234567890123456789',
      requestTimeoutMs: 2500,
      maxQueued: 40,
    });
    expect(c.defaultTimeZone).toBe('Asia/Kolkata');
    expect(c.approvals).toEqual({
      channel: 'C0APPROVALS',
      approvers: ['U0123ABC', 'S0456DEF'],
      byWorkspace: {
        '1353853719423311872': ['S0LEADS', 'U0BOB'],
        '1353853719423311999': ['U0CAROL', 'W0DAN'],
      },
      allowSelfApproval: true,
      ttlMs: 90 * 60_000,
      interruptedAfterMs: 5 * 60_000,
    });
    expect(c.policy).toEqual({ operators: ['U1AAA', 'W2BBB'], allowedChannels: ['C01', 'G02'] });
    expect(c.databaseUrl).toBe('postgres://u@127.0.0.1/db');
    expect(c.logLevel).toBe('debug');
    expect(c.secrets).toEqual(['tok-abcdef']);
  });

  it('names every bad or missing variable in one error and never echoes a value', () => {
    const badBot = 'not-a-bot-token-but-secret';
    const e = problemsOf({
      SLACK_BOT_TOKEN: badBot,
      SLACK_SIGNING_SECRET: SIGNING,
      PORT: 'eighty',
      TSAI_BASE_URL: 'ftp://nope',
      TSAI_DEFAULT_TIMEZONE: 'Mars/Olympus',
      TSAI_APPROVERS: 'alice,bob',
      TSAI_ALLOW_SELF_APPROVAL: 'maybe',
      TSAI_APPROVAL_TTL: 'soon',
      LOG_LEVEL: 'loud',
      DATABASE_URL: 'mysql://x',
    });
    const vars = e.problems.map((p) => p.variable).sort();
    expect(vars).toEqual(
      [
        'DATABASE_URL',
        'LOG_LEVEL',
        'PORT',
        'SLACK_BOT_TOKEN',
        'TSAI_ACCOUNT_ID',
        'TSAI_ALLOW_SELF_APPROVAL',
        'TSAI_APPROVAL_TTL',
        'TSAI_APPROVERS',
        'TSAI_BASE_URL',
        'TSAI_DEFAULT_TIMEZONE',
        'TSAI_TOKEN',
      ].sort(),
    );
    expect(e.message).not.toContain(badBot);
    expect(e.message).not.toContain(SIGNING);
    expect(e.message).toContain('TSAI_DEFAULT_TIMEZONE: must be an IANA time zone');
  });

  it('refuses a half-configured Slack setup', () => {
    expect(problemsOf({ SLACK_BOT_TOKEN: BOT }).problems.map((p) => p.variable)).toEqual([
      'SLACK_SIGNING_SECRET',
    ]);
    expect(problemsOf({ SLACK_SIGNING_SECRET: SIGNING }).problems.map((p) => p.variable)).toEqual([
      'SLACK_BOT_TOKEN',
    ]);
    expect(problemsOf({ SLACK_APP_TOKEN: APP }).problems.map((p) => p.variable)).toEqual(['SLACK_BOT_TOKEN']);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ SLACK_BOT_TOKEN: '', PORT: '  ', TSAI_BASE_URL: '' }).slack.mode).toBe('none');
  });
});

describe('one convention for durations, and the old names', () => {
  it('reads the service timeouts as durations with a unit, and refuses a bare number under the new names', () => {
    const c = loadConfig({
      TSAI_CONNECT_TIMEOUT: '2s',
      TSAI_REQUEST_TIMEOUT: '1m30s',
      TSAI_TRACK_LEASE: '2m',
      TSAI_APPROVAL_INTERRUPTED_AFTER: '5m',
      TSAI_MAX_RETRY_TIME: '0s',
    });
    expect(c.service).toMatchObject({ connectTimeoutMs: 2_000, requestTimeoutMs: 90_000, maxRetryTimeMs: 0 });
    expect(c.notices).toEqual([]);
    const bare = problemsOf({ TSAI_REQUEST_TIMEOUT: '15000', TSAI_SHUTDOWN_TIMEOUT: '9000' });
    expect(bare.problems).toEqual([
      { variable: 'TSAI_REQUEST_TIMEOUT', problem: expect.stringContaining('a bare number has no unit') },
      { variable: 'TSAI_SHUTDOWN_TIMEOUT', problem: expect.stringContaining('a bare number has no unit') },
    ]);
    expect(problemsOf({ TSAI_REQUEST_TIMEOUT: '11m' }).problems).toEqual([
      { variable: 'TSAI_REQUEST_TIMEOUT', problem: 'must be at most 10m' },
    ]);
  });

  it('still reads an old …_MS name in milliseconds, with one notice naming the new name and not the value', () => {
    const c = loadConfig({ TSAI_REQUEST_TIMEOUT_MS: '4321', TSAI_CONNECT_TIMEOUT_MS: '2s' });
    expect(c.service.requestTimeoutMs).toBe(4321);
    expect(c.service.connectTimeoutMs).toBe(2_000);
    expect(c.notices).toEqual([
      {
        variable: 'TSAI_CONNECT_TIMEOUT_MS',
        message:
          'TSAI_CONNECT_TIMEOUT_MS is deprecated: rename it to TSAI_CONNECT_TIMEOUT, whose value takes a unit (e.g. 5s)',
      },
      {
        variable: 'TSAI_REQUEST_TIMEOUT_MS',
        message:
          'TSAI_REQUEST_TIMEOUT_MS is deprecated: rename it to TSAI_REQUEST_TIMEOUT, whose value takes a unit (e.g. 15s)',
      },
    ]);
    expect(JSON.stringify(c.notices)).not.toContain('4321');
  });

  it('lets the new name win when both are set, and says the old one is ignored', () => {
    const c = loadConfig({ TSAI_MAX_RETRY_TIME: '3s', TSAI_MAX_RETRY_TIME_MS: '7777' });
    expect(c.service.maxRetryTimeMs).toBe(3_000);
    expect(c.notices).toEqual([
      {
        variable: 'TSAI_MAX_RETRY_TIME_MS',
        message:
          'TSAI_MAX_RETRY_TIME_MS is deprecated and ignored: TSAI_MAX_RETRY_TIME is also set and wins; remove TSAI_MAX_RETRY_TIME_MS',
      },
    ]);
    // The ignored old value is not even checked: it has no effect.
    expect(
      loadConfig({ TSAI_MAX_RETRY_TIME: '3s', TSAI_MAX_RETRY_TIME_MS: 'junk' }).service.maxRetryTimeMs,
    ).toBe(3_000);
  });

  it('reports a bad value under the old name as set, with its new name', () => {
    expect(problemsOf({ TSAI_CONNECT_TIMEOUT_MS: 'soon' }).problems).toEqual([
      {
        variable: 'TSAI_CONNECT_TIMEOUT_MS',
        problem: expect.stringMatching(/^must be a duration .*\(its new name is TSAI_CONNECT_TIMEOUT\)$/),
      },
    ]);
  });

  it('tells, without failing, about a variable no longer read', () => {
    const c = loadConfig({ TSAI_COMMAND_WORKER: 'false' });
    expect(c.notices).toEqual([
      {
        variable: 'TSAI_COMMAND_WORKER',
        message: expect.stringMatching(/^TSAI_COMMAND_WORKER is no longer read: /),
      },
    ]);
  });

  it('writes a default back the way it is read', () => {
    for (const ms of [250, 3_000, 60_000, 5_400_000, 4 * 3_600_000, 7 * 86_400_000, 90_061_001])
      expect(parseDuration(formatDuration(ms))).toBe(ms);
    expect(formatDuration(5_400_000)).toBe('1h30m');
  });
});

describe('credentials in URLs', () => {
  it('refuses user:password@ in an http(s) URL, names the token variable to use, never echoes it', () => {
    const e = problemsOf({
      TSAI_BASE_URL: 'https://svc-user:hunter2-service-secret@tsai.example.com',
      TSAI_TOKEN: 'tok-abcdef',
      TSAI_ACCOUNT_ID: '1010000000000000001',
      SLACK_API_URL: 'http://xoxb-embedded-slack-token@127.0.0.1:9/api/',
    });
    expect(e.problems).toEqual([
      {
        variable: 'SLACK_API_URL',
        problem: expect.stringContaining('put the token in SLACK_BOT_TOKEN instead'),
      },
      { variable: 'TSAI_BASE_URL', problem: expect.stringContaining('put the token in TSAI_TOKEN instead') },
    ]);
    expect(e.message).not.toContain('hunter2');
    expect(e.message).not.toContain('xoxb-embedded');
  });

  it("allows PostgreSQL's password in DATABASE_URL and keeps it out of every log line", () => {
    const url = 'postgres://bot:pg-Secret-77@db.internal:5432/tsai';
    const c = loadConfig({ DATABASE_URL: url });
    expect(c.databaseUrl).toBe(url);
    expect(c.secrets).toEqual(['pg-Secret-77', 'bot:pg-Secret-77@']);
    // A password too short to scrub on its own still leaves with the URL's user:password@.
    const short = loadConfig({ DATABASE_URL: 'postgres://bot:pw@db/tsai' });
    const lines: string[] = [];
    const destination = new Writable({
      write: (chunk, _e, cb) => {
        lines.push(String(chunk));
        cb();
      },
    });
    const logger = createLogger({ secrets: [...c.secrets, ...short.secrets], destination });
    logger.error(
      { err: new Error(`could not reach ${url}`) },
      `store at ${url} and postgres://bot:pw@db/tsai`,
    );
    const logged = lines.join('');
    expect(logged).toContain('db.internal:5432/tsai');
    expect(logged).not.toContain('pg-Secret-77');
    expect(logged).not.toContain(':pw@');
  });

  it('refuses a postgres URL that cannot be read, without echoing it; a socket URL is fine', () => {
    const e = problemsOf({ DATABASE_URL: 'postgres://bot:s3cret-pw@db:port/tsai' });
    expect(e.problems).toEqual([{ variable: 'DATABASE_URL', problem: 'is not a valid postgres:// URL' }]);
    expect(e.message).not.toContain('s3cret-pw');
    expect(loadConfig({ DATABASE_URL: 'postgres://bot@/tsai?host=/var/run/postgresql' }).secrets).toEqual([]);
    expect(problemsOf({ DATABASE_URL: 'sqlite:' }).problems.map((p) => p.variable)).toEqual(['DATABASE_URL']);
  });
});

describe('SANDBOX_PORT', () => {
  it('takes its port from SANDBOX_PORT and refuses a bad one with an example', () => {
    expect(loadConfig({}).sandboxPort).toBe(3030);
    expect(loadConfig({ SANDBOX_PORT: '0' }).sandboxPort).toBe(0);
    expect(loadConfig({ SANDBOX_PORT: '8080' }).sandboxPort).toBe(8080);
    expect(() => loadConfig({ SANDBOX_PORT: 'abc' })).toThrow(/SANDBOX_PORT=3030/);
    expect(() => loadConfig({ SANDBOX_PORT: '70000' })).toThrow(/between 0 and 65535/);
  });
});

describe('TSAI_SERVICE_ALLOWED_ADDRESSES', () => {
  it('takes host names, addresses and networks, and refuses anything else naming the variable', () => {
    expect(loadConfig({}).service.allowedAddresses).toEqual([]);
    expect(
      loadConfig({ TSAI_SERVICE_ALLOWED_ADDRESSES: 'tsai.corp.example, 10.20.0.0/16 ::1,127.0.0.1' }).service
        .allowedAddresses,
    ).toEqual(['tsai.corp.example', '10.20.0.0/16', '::1', '127.0.0.1']);
    for (const bad of ['10.0.0.0/40', 'http://tsai.corp.example', 'tsai_corp!', '*.corp.example']) {
      const problems = problemsOf({ TSAI_SERVICE_ALLOWED_ADDRESSES: bad }).problems;
      expect(
        problems.map((p) => p.variable),
        bad,
      ).toEqual(['TSAI_SERVICE_ALLOWED_ADDRESSES']);
      expect(problems[0]!.problem).toContain('10.20.0.0/16');
    }
  });
});

describe('TSAI_WORKSPACE_APPROVERS', () => {
  it.each([
    ['U0BOB', 'entry 1 must be <workspace ID>=<user or group IDs>'],
    ['1353853719423311872=', 'entry 1 must be'],
    ['1353853719423311872=U0BOB; pumps=U0BOB', 'entry 2 must be'],
    ['1353853719423311872=U0BOB x', 'entry 1 must be'],
    [
      '1353853719423311872=U0BOB; 1353853719423311872=U0CAROL',
      'entry 2 names workspace 1353853719423311872 again',
    ],
  ])('%s is refused with one message naming the variable and an example', (value, problem) => {
    let error: unknown;
    try {
      loadConfig({ TSAI_WORKSPACE_APPROVERS: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]!.variable).toBe('TSAI_WORKSPACE_APPROVERS');
    expect(problems[0]!.problem).toContain(problem);
    expect(problems[0]!.problem).toContain('e.g. 1353853719423311872=S0LEADS U0BOB');
  });
});

describe('one table of variables: the code, docs/configuration.md and .env.example agree', () => {
  const root = join(import.meta.dirname, '..');
  const names = Object.keys(VARIABLES).sort();

  it('docs/configuration.md shows exactly the table the code reads', () => {
    const doc = readFileSync(join(root, 'docs', 'configuration.md'), 'utf8');
    const block = /<!-- variables:start[^>]*-->\n([\s\S]*?)\n<!-- variables:end -->/.exec(doc)?.[1];
    expect(block, 'docs/configuration.md has the variables:start/end markers').toBeDefined();
    const documented = [...block!.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]).sort();
    expect(documented).toEqual(names);
    expect(block).toBe(variablesTable());
    for (const retired of Object.keys(RETIRED)) expect(doc).toContain(`| \`${retired}\` |`);
  });

  it('.env.example names every variable, no old name, and its values are the defaults', () => {
    const lines = readFileSync(join(root, '.env.example'), 'utf8').split('\n');
    const entries = lines
      .map((l) => /^#?\s*([A-Z][A-Z0-9_]*)=(.*)$/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null);
    expect(entries.map((m) => m[1]).sort()).toEqual(names);
    const env = Object.fromEntries(entries.map((m) => [m[1], m[2]]));
    expect(loadConfig(env)).toEqual(loadConfig({}));
  });

  it('the fallbacks of the core and the service client are the same defaults', () => {
    const c = loadConfig({});
    expect(c.service).toEqual({
      ...CLIENT_DEFAULTS,
      baseUrl: undefined,
      token: undefined,
      accountId: undefined,
      requireUserToken: false,
      allowedAddresses: [],
    });
    expect(c.tracking).toMatchObject({
      firstPollMs: DEFAULT_SCHEDULE.firstMs,
      maxIntervalMs: DEFAULT_SCHEDULE.maxIntervalMs,
      maxAgeMs: DEFAULT_SCHEDULE.maxAgeMs,
      leaseMs: DEFAULT_LEASE_MS,
    });
    expect(c.approvals).toMatchObject({
      ttlMs: DEFAULT_APPROVAL_TTL_MS,
      interruptedAfterMs: INTERRUPTED_AFTER_MS,
    });
    expect(c.databaseUrl).toBe(DEFAULT_SQLITE_FILE);
  });
});

describe('parseDuration', () => {
  it.each([
    ['4h', 4 * 3600_000],
    ['90m', 90 * 60_000],
    ['1d', 86_400_000],
    ['1h 30m', 90 * 60_000],
    ['45s', 45_000],
    ['1500', 1500],
    ['', undefined],
    ['4 hours', undefined],
    ['h', undefined],
  ])('%s -> %s', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });
});

describe('loadDotEnv', () => {
  it('loads a .env file when present and keeps variables already set', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsai-env-'));
    const file = join(dir, '.env');
    writeFileSync(file, 'TSAI_TEST_DOTENV_A=from-file\nTSAI_TEST_DOTENV_B=from-file\n');
    process.env.TSAI_TEST_DOTENV_B = 'from-env';
    try {
      expect(loadDotEnv(file)).toBe(true);
      expect(process.env.TSAI_TEST_DOTENV_A).toBe('from-file');
      expect(process.env.TSAI_TEST_DOTENV_B).toBe('from-env');
      expect(loadDotEnv(join(dir, 'missing.env'))).toBe(false);
    } finally {
      delete process.env.TSAI_TEST_DOTENV_A;
      delete process.env.TSAI_TEST_DOTENV_B;
    }
  });
});

describe('"Add to Slack" (SLACK_CLIENT_ID)', () => {
  const KEY = Buffer.alloc(32, 7).toString('base64');
  const INSTALLS = {
    SLACK_CLIENT_ID: '1234.5678',
    SLACK_CLIENT_SECRET: 'client-secret-0123',
    SLACK_STATE_SECRET: 'state-secret-0123456789',
    SLACK_SIGNING_SECRET: 'signing-secret-0123',
    TSAI_SECRET_KEY: KEY,
  };

  it('selects installs mode, with no bot token, the redirect path from SLACK_REDIRECT_URI, and no shared service account', () => {
    const c = loadConfig({
      ...INSTALLS,
      SLACK_REDIRECT_URI: 'https://bot.example.com/oauth/back',
      TSAI_BASE_URL: 'https://svc.example.com',
    });
    expect(c.slack).toEqual({
      mode: 'installs',
      signingSecret: INSTALLS.SLACK_SIGNING_SECRET,
      clientId: INSTALLS.SLACK_CLIENT_ID,
      clientSecret: INSTALLS.SLACK_CLIENT_SECRET,
      stateSecret: INSTALLS.SLACK_STATE_SECRET,
      installPath: '/slack/install',
      redirectPath: '/oauth/back',
      redirectUri: 'https://bot.example.com/oauth/back',
      apiUrl: undefined,
    });
    expect(c.secrets).toEqual(
      expect.arrayContaining([INSTALLS.SLACK_CLIENT_SECRET, INSTALLS.SLACK_STATE_SECRET]),
    );
    expect(loadConfig(INSTALLS).slack).toMatchObject({ redirectPath: '/slack/oauth_redirect' });
  });

  it('names every missing or contradicting variable at once, never a value', () => {
    const e = problemsOf({
      SLACK_CLIENT_ID: '1234.5678',
      SLACK_BOT_TOKEN: 'xoxb-one-workspace',
      TSAI_TOKEN: 'shared-service-token',
      TSAI_APPROVERS: 'U0ALICE,S0GROUP',
    });
    expect(e.problems.map((p) => p.variable).sort()).toEqual([
      'SLACK_BOT_TOKEN',
      'SLACK_CLIENT_SECRET',
      'SLACK_SIGNING_SECRET',
      'SLACK_STATE_SECRET',
      'TSAI_APPROVERS',
      'TSAI_SECRET_KEY',
      'TSAI_TOKEN',
    ]);
    expect(e.message).not.toContain('xoxb-one-workspace');
    expect(e.message).not.toContain('shared-service-token');
    expect(problemsOf({ SLACK_CLIENT_SECRET: 'client-secret-0123' }).problems).toEqual([
      { variable: 'SLACK_CLIENT_SECRET', problem: 'is read only with SLACK_CLIENT_ID ("Add to Slack")' },
    ]);
    expect(
      problemsOf({ ...INSTALLS, SLACK_INSTALL_PATH: '/slack/oauth_redirect' }).problems[0]?.variable,
    ).toBe('SLACK_INSTALL_PATH');
  });
});

describe('the OpenTelemetry variables', () => {
  it('none set: tracing is off', () => {
    expect(loadConfig({}).tracing).toBeUndefined();
  });

  it('any of them set turns it on, with the standard defaults', () => {
    expect(loadConfig({ OTEL_SERVICE_NAME: 'ops-bot' }).tracing).toEqual({
      serviceName: 'ops-bot',
      resource: {},
      url: 'http://localhost:4318/v1/traces',
      headers: {},
      protocol: 'http/protobuf',
      sampler: 'parentbased_always_on',
      ratio: 1,
    });
  });

  it('reads the endpoint, headers, protocol, sampler and resource as the specification writes them', () => {
    const t = loadConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector.example.com:4318/',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-honeycomb-team=abc%3D123,x-other=1',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-other=2',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=production, service.namespace=ops',
    }).tracing;
    expect(t).toMatchObject({
      url: 'https://collector.example.com:4318/v1/traces',
      headers: { 'x-honeycomb-team': 'abc=123', 'x-other': '2' },
      protocol: 'http/json',
      sampler: 'parentbased_traceidratio',
      ratio: 0.25,
      resource: { 'deployment.environment': 'production', 'service.namespace': 'ops' },
    });
    expect(loadConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:9/traces' }).tracing?.url).toBe(
      'http://127.0.0.1:9/traces',
    );
  });

  it('OTEL_SDK_DISABLED or the exporter none keeps it off', () => {
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }).tracing,
    ).toBeUndefined();
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }).tracing,
    ).toBeUndefined();
  });

  it('refuses what the bot cannot do, never repeating a header', () => {
    const e = problemsOf({
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_TRACES_SAMPLER_ARG: '2',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-honeycomb-team',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'https://user:pw@collector.example.com',
    });
    expect(e.problems.map((p) => p.variable).sort()).toEqual([
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      'OTEL_EXPORTER_OTLP_HEADERS',
      'OTEL_EXPORTER_OTLP_PROTOCOL',
      'OTEL_TRACES_SAMPLER_ARG',
    ]);
    expect(e.message).not.toContain('x-honeycomb-team');
  });

  it('the headers are secrets, whole and value by value', () => {
    const c = loadConfig({ OTEL_EXPORTER_OTLP_HEADERS: 'x-honeycomb-team=hcaik_0123456789' });
    expect(c.secrets).toContain('hcaik_0123456789');
  });
});
