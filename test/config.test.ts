import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, loadDotEnv, parseDuration } from '../src/config.js';

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
