import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../src/api/index.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { createBot } from '../../src/slack/app.js';
import { SEED } from '../../src/standins/emulator/index.js';
import { type Harness, SIGNING_SECRET, startHarness } from '../support/harness.js';
import { captureLogs } from '../support/logs.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
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
    const logger = createLogger({
      level: 'debug',
      secrets: [wrong],
      destination,
    });
    const service = createServiceClient({
      baseUrl: h.emulator.url,
      accountId: h.emulator.accountId,
      token: h.emulator.token,
    });
    const bot = createBot({
      config: loadConfig({
        SLACK_BOT_TOKEN: wrong,
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: h.slack.apiUrl,
      }),
      logger,
      service,
      now: () => new Date(),
    });
    try {
      const err = await bot.start(0).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(err).toBeInstanceOf(Error);
      expect(err!.message).toMatch(/invalid_auth/);
      expect(err!.message).not.toContain(wrong);
      expect(lines.join('')).not.toContain(wrong);
    } finally {
      await bot.stop().catch(() => undefined);
      await service.close();
    }
  });

  it('builds a Socket Mode app from an app token without opening a port', () => {
    const service = createServiceClient({
      baseUrl: h.emulator.url,
      accountId: h.emulator.accountId,
      token: h.emulator.token,
    });
    const bot = createBot({
      config: loadConfig({
        SLACK_BOT_TOKEN: 'xoxb-socket-1234567',
        SLACK_APP_TOKEN: 'xapp-1-socket-1234567',
      }),
      logger: createLogger({ level: 'silent' }),
      service,
      now: () => new Date(),
    });
    expect(bot.deps.config.slack.mode).toBe('socket');
    expect(bot.port()).toBeUndefined();
    return service.close();
  });

  it('serves a health check next to /slack/events', async () => {
    const res = await fetch(`http://127.0.0.1:${h.bot.port()}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('ok');
  });

  it('refuses to build a bot with no Slack settings', () => {
    expect(() =>
      createBot({
        config: loadConfig({}),
        logger: createLogger({ level: 'silent' }),
        service: h.service,
        now: () => new Date(),
      }),
    ).toThrow(/needs Slack settings/);
  });
});
