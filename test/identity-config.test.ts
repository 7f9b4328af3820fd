import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { missingConnection } from '../src/startup.js';
import { sandboxKey, secretKeyFile } from '../standins/secret-key-file.js';

const KEY = randomBytes(32).toString('base64');
const OLD = randomBytes(32).toString('base64');
const SLACK = { SLACK_BOT_TOKEN: 'xoxb-1-2-abc', SLACK_SIGNING_SECRET: 'signing-secret-123456' };
const SERVICE = { TSAI_BASE_URL: 'https://tsai.example.com', TSAI_ACCOUNT_ID: 'acct-1' };

function problemOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
  throw new Error('expected a ConfigError');
}

describe('the keys of people’s tokens in the configuration', () => {
  it('reads the key and the previous keys, and lists their text among the secrets to scrub', () => {
    const c = loadConfig({ TSAI_SECRET_KEY: KEY, TSAI_SECRET_KEYS_PREVIOUS: ` ${OLD} ,` });
    expect(Buffer.from(c.secretKeys!.current).toString('base64')).toBe(KEY);
    expect(c.secretKeys!.previous.map((k) => Buffer.from(k).toString('base64'))).toEqual([OLD]);
    expect(c.secrets).toEqual(expect.arrayContaining([KEY, OLD]));
    expect(loadConfig({}).secretKeys).toBeUndefined();
  });

  it.each([
    ['not base64', 'this is not base64!'],
    ['16 bytes', randomBytes(16).toString('base64')],
    ['33 bytes', randomBytes(33).toString('base64')],
    ['hex of 32 bytes', randomBytes(32).toString('hex')],
  ])('refuses a bad key (%s), naming the variable and never the value', (_what, value) => {
    const message = problemOf({ TSAI_SECRET_KEY: value });
    expect(message).toMatch(/TSAI_SECRET_KEY: must be 32 bytes in base64/);
    expect(message).not.toContain(value);
  });

  it('refuses a bad previous key, saying which of them, never its value', () => {
    const bad = randomBytes(20).toString('base64');
    const message = problemOf({ TSAI_SECRET_KEY: KEY, TSAI_SECRET_KEYS_PREVIOUS: `${OLD},${bad}` });
    expect(message).toMatch(/TSAI_SECRET_KEYS_PREVIOUS: key 2 of 2 must be 32 bytes in base64/);
    expect(message).not.toContain(bad);
    expect(message).not.toContain(OLD);
  });
});

describe('TSAI_REQUIRE_USER_TOKEN', () => {
  it('is off by default: the shared token is required with TSAI_BASE_URL', () => {
    expect(loadConfig({}).service.requireUserToken).toBe(false);
    expect(problemOf(SERVICE)).toMatch(/TSAI_TOKEN: is required when TSAI_BASE_URL is set/);
  });

  it('on, the shared token may be left out', () => {
    const c = loadConfig({ ...SERVICE, TSAI_REQUIRE_USER_TOKEN: 'true' });
    expect(c.service.requireUserToken).toBe(true);
    expect(c.service.token).toBeUndefined();
  });

  it('the production bot needs the key when tokens are required, and the shared token otherwise', () => {
    expect(missingConnection(loadConfig({ ...SLACK, ...SERVICE, TSAI_REQUIRE_USER_TOKEN: 'true' }))).toEqual([
      'TSAI_SECRET_KEY (TSAI_REQUIRE_USER_TOKEN=true)',
    ]);
    expect(
      missingConnection(
        loadConfig({ ...SLACK, ...SERVICE, TSAI_REQUIRE_USER_TOKEN: 'true', TSAI_SECRET_KEY: KEY }),
      ),
    ).toEqual([]);
    // Without requiring tokens, no key is needed: connecting is then unavailable, nothing else.
    expect(missingConnection(loadConfig({ ...SLACK, ...SERVICE, TSAI_TOKEN: 'tok-shared' }))).toEqual([]);
  });
});

describe('the sandbox key (npm start without TSAI_SECRET_KEY)', () => {
  it('is made once beside the SQLite file, readable by its owner only, and read again after', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsai-key-'));
    try {
      const db = join(dir, 'data', 'bot.sqlite');
      const first = sandboxKey(db);
      expect(first.made).toBe(true);
      expect(first.file).toBe(join(dir, 'data', 'bot.secret-key'));
      expect(statSync(first.file!).mode & 0o777).toBe(0o600);
      expect(readFileSync(first.file!, 'utf8').trim()).toBe(first.text);
      const again = sandboxKey(`sqlite:${db}`);
      expect(again.made).toBe(false);
      expect(Buffer.from(again.keys.current)).toEqual(Buffer.from(first.keys.current));
      // An unreadable key is replaced (what was under it can no longer be read anyway).
      writeFileSync(first.file!, 'garbage');
      const replaced = sandboxKey(db);
      expect(replaced.made).toBe(true);
      expect(Buffer.from(replaced.keys.current)).not.toEqual(Buffer.from(first.keys.current));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lasts one run for an in-memory or PostgreSQL store', () => {
    expect(secretKeyFile(':memory:')).toBeUndefined();
    expect(secretKeyFile('postgres://bot@127.0.0.1/tsai')).toBeUndefined();
    const k = sandboxKey(':memory:');
    expect(k.file).toBeUndefined();
    expect(k.keys.current).toHaveLength(32);
  });
});
