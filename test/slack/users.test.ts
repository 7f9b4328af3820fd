import { App, LogLevel } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserDirectory } from '../../src/slack/users.js';
import { type LocalSlack, startLocalSlack } from '../../standins/localslack/index.js';

const TOKEN = 'xoxb-users-test-0123456789';
let slack: LocalSlack;
let app: App;
beforeAll(async () => {
  slack = await startLocalSlack({
    signingSecret: 'users-test-secret',
    botToken: TOKEN,
    users: [
      { id: 'U1', name: 'ann', tz: 'Asia/Kolkata' },
      { id: 'U2', name: 'dirk', tz: 'Europe/Berlin', locale: 'de-DE' },
      { id: 'U3', name: 'odd', tz: 'Europe/Berlin', locale: '<script>' },
    ],
  });
  app = new App({
    token: TOKEN,
    signingSecret: 'users-test-secret',
    botId: 'B1',
    botUserId: 'U0BOT',
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } },
  });
});
afterAll(async () => {
  await slack?.close();
});

const infoCalls = (user: string) =>
  slack.calls.filter((c) => c.method === 'users.info' && c.args.user === user).length;

describe('user directory (users.info, cached with expiry)', () => {
  it('caches per user until the TTL passes, then asks again', async () => {
    let t = 1_000;
    const users = createUserDirectory(app.client, { ttlMs: 60_000, now: () => t });
    expect(await users.lookup('U1')).toEqual({
      tz: 'Asia/Kolkata',
      name: 'ann',
      displayName: 'ann',
      standing: 'active',
    });
    await users.lookup('U1');
    expect(infoCalls('U1')).toBe(1);
    t += 60_001;
    await users.lookup('U1');
    expect(infoCalls('U1')).toBe(2);
  });

  it('asks for the locale and keeps it with the zone; a locale that is not a tag is dropped', async () => {
    const users = createUserDirectory(app.client);
    expect(await users.lookup('U2')).toEqual({
      tz: 'Europe/Berlin',
      name: 'dirk',
      displayName: 'dirk',
      locale: 'de-DE',
      standing: 'active',
    });
    expect(slack.calls.find((c) => c.method === 'users.info' && c.args.user === 'U2')?.args).toMatchObject({
      include_locale: 'true',
    });
    expect(await users.lookup('U3')).toEqual({
      tz: 'Europe/Berlin',
      name: 'odd',
      displayName: 'odd',
      standing: 'active',
    });
  });

  it('remembers a failure only briefly', async () => {
    let t = 0;
    const users = createUserDirectory(app.client, { failureTtlMs: 5_000, now: () => t });
    expect(await users.lookup('U_UNKNOWN')).toEqual({ standing: 'gone' });
    expect(await users.lookup('U_UNKNOWN')).toEqual({ standing: 'gone' });
    expect(infoCalls('U_UNKNOWN')).toBe(1);
    t += 5_001;
    await users.lookup('U_UNKNOWN');
    expect(infoCalls('U_UNKNOWN')).toBe(2);
  });

  it('takes a person’s standing as Slack last said it for a minute of the bot’s clock, then asks again', async () => {
    let clock = 0;
    slack.state.users.set('U4', { id: 'U4', name: 'gone-soon', tz: 'UTC' });
    const users = createUserDirectory(app.client, { clock: () => clock });
    expect(await users.standing('U4')).toBe('active');
    (slack.state.users.get('U4') as { deleted?: boolean }).deleted = true;
    clock += 59_000;
    expect(await users.standing('U4')).toBe('active');
    clock += 2_000;
    expect(await users.standing('U4')).toBe('deactivated');
    slack.state.users.delete('U4');
    clock += 61_000;
    expect(await users.standing('U4')).toBe('gone');
  });
});
