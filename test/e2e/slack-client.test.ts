import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { SYSTEM_CLOCK } from '../../src/core/clock.js';
import { createLogger } from '../../src/log.js';
import { createSlackApp } from '../../src/slack/app.js';
import { composeBot } from '../../src/slack/bot.js';
import { SEED } from '../../standins/emulator/index.js';
import { startAll } from '../../standins/start-all.js';
import { stackForThisSuite } from '../support/fixtures/stack.js';
import { type Harness, SIGNING_SECRET } from '../support/harness.js';
import { captureLogs } from '../support/logs.js';

let h: Harness;
stackForThisSuite((started) => {
  h = started;
});

const evalCmd = `eval ${SEED.assessments.temperature} model=${SEED.models.temperatureAnomaly} datastream=${SEED.datastream} entities=pump-1 range="yesterday 9am to 5pm"`;

describe('Slack Web API client', () => {
  it('does not wait out a 429 on users.info: the reply comes, read in the default zone', async () => {
    // Retry-After 600 s: a client that honoured it would outlast the test timeout.
    h.slack.failNext('users.info', { status: 429, retryAfter: 600 });
    const reply = await h.commandAndReply(evalCmd, { user: 'U0BOB' });
    expect(`${reply.text}${JSON.stringify(reply.blocks)}`).toContain('Sat 21 Nov 09:00 – 17:00 UTC');
  });

  it('refuses to start with a wrong bot token (auth.test), without printing it', async () => {
    const wrong = 'xoxb-wrong-token-987654321';
    const { lines, destination } = captureLogs();
    const config = loadConfig({
      SLACK_BOT_TOKEN: wrong,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: h.slack.apiUrl,
      TSAI_BASE_URL: h.emulator.url,
      TSAI_TOKEN: h.emulator.token,
      TSAI_ACCOUNT_ID: h.emulator.accountId,
      DATABASE_URL: join(h.dir, 'wrong-token.sqlite'),
      PORT: '0',
    });
    const logger = createLogger({ level: 'debug', secrets: config.secrets, destination });
    const err = await startAll({ config, logger }).then(
      async (running) => {
        await running.stop();
        return undefined;
      },
      (e: unknown) => e as Error,
    );
    expect(err).toBeInstanceOf(Error);
    expect(err!.message).toMatch(/invalid_auth/);
    expect(err!.message).not.toContain(wrong);
    expect(lines.join('')).not.toContain(wrong);
  });

  it('builds a Socket Mode app from an app token without opening a port', async () => {
    const config = loadConfig({
      SLACK_BOT_TOKEN: 'xoxb-socket-1234567',
      SLACK_APP_TOKEN: 'xapp-1-socket-1234567',
      DATABASE_URL: ':memory:',
    });
    const logger = createLogger({ level: 'silent' });
    const service = { baseUrl: h.emulator.url, accountId: h.emulator.accountId, token: h.emulator.token };
    const bot = await composeBot({ config, service, clock: SYSTEM_CLOCK }, logger);
    try {
      const app = await createSlackApp(bot, {
        run: () => undefined,
        ready: Promise.resolve(),
        stop: async () => {},
      });
      expect(bot.config.slack.mode).toBe('socket');
      expect(app.port()).toBeUndefined();
    } finally {
      await bot.close();
    }
  });

  it('serves a health check next to /slack/events', async () => {
    const res = await fetch(`http://127.0.0.1:${h.bot.port()}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('ok');
  });

  it('refuses to build a bot with no Slack settings', async () => {
    const service = { baseUrl: h.emulator.url, accountId: h.emulator.accountId, token: h.emulator.token };
    await expect(
      composeBot(
        { config: loadConfig({ DATABASE_URL: ':memory:' }), service, clock: SYSTEM_CLOCK },
        createLogger({ level: 'silent' }),
      ),
    ).rejects.toThrow(/needs Slack settings/);
  });
});
