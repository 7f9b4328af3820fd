import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PLATFORM_ERRORS } from '../../../standins/localslack/faults.js';
import { type LocalSlack, startLocalSlack } from '../../../standins/localslack/index.js';

const TOKEN = 'xoxb-faults-test-token';
let slack: LocalSlack;
let client: webApi.WebClient;
/** The stand-in's clock stands still unless a test moves it: rate windows do not depend on the machine's speed. */
const START = Date.now();
let clockOffset = 0;
/** A bot endpoint that acks everything with an empty 200, so commands get a response_url. */
const bot = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.end());
});

beforeAll(async () => {
  await new Promise<void>((r) => bot.listen(0, '127.0.0.1', r));
  slack = await startLocalSlack({
    signingSecret: 'faults-secret',
    botToken: TOKEN,
    botEndpoint: `http://127.0.0.1:${(bot.address() as AddressInfo).port}/slack/events`,
    now: () => START + clockOffset,
  });
  client = new webApi.WebClient(TOKEN, {
    slackApiUrl: slack.apiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
  });
});
afterAll(async () => {
  await slack?.close();
  await new Promise((r) => bot.close(r));
});
beforeEach(() => {
  clockOffset = 0;
  slack.reset();
});

/** The error a WebClient call failed with. */
async function failure(p: Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await p;
  } catch (err) {
    return err as Record<string, unknown>;
  }
  throw new Error('the call succeeded');
}
/** Slack's error code, or `ratelimited` for a 429. */
async function errorCode(p: Promise<unknown>): Promise<string | undefined> {
  const err = await failure(p);
  if (err.code === 'slack_webapi_rate_limited_error') return 'ratelimited';
  return (err.data as { error?: string } | undefined)?.error;
}

const control = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(`${slack.url}/_local/${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: r.status, json: (await r.json()) as Record<string, unknown> };
};

const post = (channel: string, text = 'x') => client.chat.postMessage({ channel, text });

describe('fault injection', () => {
  it('answers a platform error once with HTTP 200, records it in the call log, then behaves again', async () => {
    const f = slack.injectFault({ method: 'chat.postMessage', error: 'not_in_channel' });
    expect(f).toMatchObject({ id: expect.any(Number), remaining: 1, hits: 0 });
    expect(await errorCode(post('C0GENERAL'))).toBe('not_in_channel');
    await post('C0GENERAL', 'after');
    expect(slack.messages('C0GENERAL').map((m) => m.text)).toEqual(['after']);
    expect(slack.calls.map((c) => [c.status, c.response.error ?? 'ok', c.fault])).toEqual([
      [200, 'not_in_channel', f.id],
      [200, 'ok', undefined],
    ]);
    expect(slack.listFaults()).toEqual([]);
  });

  it('answers 429 with Retry-After, which WebClient reports as a rate limit with that delay', async () => {
    slack.injectFault({ method: 'views.publish', status: 429, retryAfter: 7 });
    const err = await failure(client.views.publish({ user_id: 'U0BOB', view: { type: 'home', blocks: [] } }));
    expect(err.code).toBe('slack_webapi_rate_limited_error');
    expect(err.retryAfter).toBe(7);
    expect(slack.calls[0]).toMatchObject({
      method: 'views.publish',
      status: 429,
      response: { error: 'ratelimited' },
    });
    expect(slack.state.home.get('U0BOB')).toBeUndefined();
  });

  it('answers 5xx, which WebClient reports as an HTTP error', async () => {
    slack.injectFault({ method: 'chat.update', status: 503 });
    const m = await post('C0GENERAL', 'to edit');
    const err = await failure(client.chat.update({ channel: 'C0GENERAL', ts: m.ts!, text: 'edited' }));
    expect([err.code, err.statusCode]).toEqual(['slack_webapi_http_error', 503]);
    expect(slack.state.message('C0GENERAL', m.ts!)?.edits).toBe(0);
  });

  it('counts only calls for the given channel, N times, in the order faults were added', async () => {
    slack.injectFault({ method: 'chat.postMessage', channel: 'C0OPS', times: 2, error: 'is_archived' });
    slack.injectFault({ method: 'chat.postMessage', channel: 'C0OPS', error: 'channel_not_found' });
    await post('C0GENERAL', 'general is fine');
    expect(await errorCode(post('C0OPS'))).toBe('is_archived');
    expect(slack.listFaults().map((f) => [f.error, f.hits, f.remaining])).toEqual([
      ['is_archived', 1, 1],
      ['channel_not_found', 0, 1],
    ]);
    expect(await errorCode(post('C0OPS'))).toBe('is_archived');
    expect(await errorCode(post('C0OPS'))).toBe('channel_not_found');
    await post('C0OPS', 'ops is fine again');
    expect(slack.messages('C0OPS').map((m) => m.text)).toEqual(['ops is fine again']);
  });

  it("counts only one user's calls: their Home, their ephemerals, their DMs, their response_urls", async () => {
    slack.injectFault({
      method: 'views.publish',
      user: 'U0BOB',
      status: 429,
      retryAfter: 30,
      times: 'always',
    });
    slack.injectFault({ method: 'chat.postMessage', user: 'U0BOB', error: 'channel_not_found' });
    slack.injectFault({ method: 'response_url', user: 'U0BOB', status: 404, error: 'used_url' });
    const home = { type: 'home' as const, blocks: [] };
    expect(await errorCode(client.views.publish({ user_id: 'U0BOB', view: home }))).toBe('ratelimited');
    await client.views.publish({ user_id: 'U0CAROL', view: home });
    expect(await errorCode(post('U0BOB', 'to bob'))).toBe('channel_not_found');
    await post('U0CAROL', 'to carol');
    await post('C0GENERAL', 'in general');
    const reply = async (user: string) => {
      const d = await slack.sendCommand({ user, channel: 'C0GENERAL', text: 'x' });
      return (
        await fetch(d.responseUrl!, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ text: 'r' }),
        })
      ).status;
    };
    expect([await reply('U0BOB'), await reply('U0CAROL')]).toEqual([404, 200]);
    expect(slack.state.home.has('U0CAROL')).toBe(true);
    expect(slack.state.home.has('U0BOB')).toBe(false);
  });

  it('fails every method with `*` and `always` until cleared', async () => {
    const f = slack.injectFault({ method: '*', times: 'always', error: 'invalid_auth' });
    for (let i = 0; i < 3; i++) expect(await errorCode(client.auth.test())).toBe('invalid_auth');
    expect(await errorCode(client.users.info({ user: 'U0BOB' }))).toBe('invalid_auth');
    expect(slack.listFaults()).toEqual([expect.objectContaining({ id: f.id, hits: 4, remaining: 'always' })]);
    expect(slack.clearFaults({ method: 'chat.update' })).toBe(0);
    expect(slack.clearFaults({ id: f.id })).toBe(1);
    expect((await client.auth.test()).ok).toBe(true);
  });

  it('injects every platform error the bot has to handle, on the method it belongs to', async () => {
    const where: Record<string, () => Promise<unknown>> = {
      not_in_channel: () => post('C0GENERAL'),
      channel_not_found: () => post('C0GENERAL'),
      is_archived: () => post('C0GENERAL'),
      invalid_auth: () => client.auth.test(),
      token_revoked: () => client.users.info({ user: 'U0BOB' }),
      account_inactive: () => client.auth.test(),
      expired_trigger_id: () =>
        client.views.open({
          trigger_id: slack.state.issueTrigger('U0ALICE'),
          view: { type: 'modal', title: { type: 'plain_text', text: 'T' }, blocks: [] },
        }),
      msg_too_long: () => client.chat.update({ channel: 'C0GENERAL', ts: '1.000001', text: 'x' }),
      invalid_blocks: () => post('C0GENERAL'),
    };
    expect(Object.keys(where).sort()).toEqual([...PLATFORM_ERRORS].sort());
    for (const error of PLATFORM_ERRORS) {
      const method = {
        invalid_auth: 'auth.test',
        account_inactive: 'auth.test',
        token_revoked: 'users.info',
        expired_trigger_id: 'views.open',
        msg_too_long: 'chat.update',
      }[error as string];
      slack.injectFault({ method: method ?? 'chat.postMessage', error });
      expect(await errorCode(where[error]!()), error).toBe(error);
    }
    expect(slack.state.topView('U0ALICE')).toBeUndefined();
    expect(slack.messages('C0GENERAL')).toEqual([]);
  });

  it('refuses faults Slack could not produce, saying why', () => {
    expect(() => slack.injectFault({ method: 'chat.postMessage', status: 404 })).toThrow(
      /only 200, 429 or 5xx/,
    );
    expect(() => slack.injectFault({ method: 'chat.postMessage' })).toThrow(/an error, a status, or both/);
    expect(() => slack.injectFault({ method: 'chat.postMessage', error: 'Not Found' })).toThrow(/error/);
    expect(() => slack.injectFault({ method: 'chat.postMessage', error: 'x', retryAfter: 3 })).toThrow(
      /retryAfter goes with status 429/,
    );
  });

  it('makes a response_url answer 404 (or any status) and records it', async () => {
    const d = await slack.sendCommand({ user: 'U0ALICE', channel: 'C0GENERAL', text: 'x' });
    const f = slack.injectFault({ method: 'response_url', status: 404 });
    const reply = (text: string) =>
      fetch(d.responseUrl!, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text }),
      });
    const r = await reply('lost');
    expect([r.status, await r.json()]).toEqual([404, { ok: false, error: 'expired_url' }]);
    slack.injectFault({ method: 'response_url', status: 404, error: 'used_url' });
    expect(await (await reply('lost too')).json()).toEqual({ ok: false, error: 'used_url' });
    expect((await reply('arrives')).status).toBe(200);
    expect(slack.responses.map((x) => [x.status, x.error ?? 'ok', x.fault])).toEqual([
      [404, 'expired_url', f.id],
      [404, 'used_url', f.id + 1],
      [200, 'ok', undefined],
    ]);
    expect(slack.messages('C0GENERAL', { user: 'U0ALICE' }).map((m) => m.text)).toEqual([
      '/tsai x',
      'arrives',
    ]);
  });

  it('keeps failNext as a one-shot fault', async () => {
    slack.failNext('users.info', { status: 429, retryAfter: 2 });
    expect((await failure(client.users.info({ user: 'U0BOB' }))).retryAfter).toBe(2);
    expect((await client.users.info({ user: 'U0BOB' })).ok).toBe(true);
  });

  it('is controlled over HTTP too, for a bot in another process', async () => {
    const added = await control('POST', 'faults', {
      method: 'chat.postMessage',
      error: 'not_in_channel',
      times: 'always',
    });
    expect(added.status).toBe(200);
    const id = added.json.id as number;
    await control('POST', 'faults', { method: 'chat.update', status: 500, times: 2 });
    expect(await errorCode(post('C0OPS'))).toBe('not_in_channel');
    const listed = await control('GET', 'faults');
    expect((listed.json.faults as { id: number; hits: number }[]).map((f) => f.hits)).toEqual([1, 0]);
    const log = await control('GET', 'log');
    expect((log.json.calls as { method: string; fault?: number }[]).map((c) => [c.method, c.fault])).toEqual([
      ['chat.postMessage', id],
    ]);
    expect(await control('DELETE', `faults/${id}`)).toEqual({ status: 200, json: { removed: 1 } });
    expect(await control('DELETE', 'faults?method=chat.update')).toEqual({
      status: 200,
      json: { removed: 1 },
    });
    const bad = await control('POST', 'faults', { method: 'chat.postMessage', status: 302 });
    expect(bad.status).toBe(400);
    expect(String(bad.json.error)).toMatch(/^invalid fault: status/);
    await post('C0OPS', 'fine');
  });
});

describe('rate limits', () => {
  it('are off by default', async () => {
    expect(slack.rateLimits().enabled).toBe(false);
    for (let i = 0; i < 5; i++) await post('C0GENERAL', `m${i}`);
    expect(slack.calls.every((c) => c.status === 200)).toBe(true);
  });

  it("follow Slack's tiers per method per minute, with the seconds until a call fits as Retry-After", async () => {
    expect(slack.setRateLimits(true)).toMatchObject({ enabled: true, postsPerSecondPerChannel: 1 });
    const m = await post('C0GENERAL', 'counter');
    // chat.update is Tier 3: 50 a minute.
    for (let i = 0; i < 50; i++) {
      clockOffset = i * 1000;
      await client.chat.update({ channel: 'C0GENERAL', ts: m.ts!, text: `n=${i}` });
    }
    clockOffset = 50_000;
    const err = await failure(client.chat.update({ channel: 'C0GENERAL', ts: m.ts!, text: 'too many' }));
    expect([err.code, err.retryAfter]).toEqual(['slack_webapi_rate_limited_error', 10]);
    expect(slack.calls.at(-1)).toMatchObject({ status: 429, rateLimited: true, retryAfter: 10 });
    // Other methods count separately.
    expect((await client.users.info({ user: 'U0BOB' })).ok).toBe(true);
    // The first call of the window leaves it at 60 s: one more fits, not two.
    clockOffset = 60_000;
    await client.chat.update({ channel: 'C0GENERAL', ts: m.ts!, text: 'fits' });
    expect(await errorCode(client.chat.update({ channel: 'C0GENERAL', ts: m.ts!, text: 'no' }))).toBe(
      'ratelimited',
    );
    expect(slack.state.message('C0GENERAL', m.ts!)?.text).toBe('fits');
  });

  it('allow about one message per second per channel', async () => {
    slack.setRateLimits(true);
    await post('C0GENERAL', 'first');
    const err = await failure(post('C0GENERAL', 'second'));
    expect([err.code, err.retryAfter]).toEqual(['slack_webapi_rate_limited_error', 1]);
    await post('C0OPS', 'another channel');
    await post('U0CAROL', 'a DM');
    clockOffset = 999;
    expect(await errorCode(post('C0GENERAL', 'still too soon'))).toBe('ratelimited');
    clockOffset = 1000;
    await post('C0GENERAL', 'second, a second later');
    expect(slack.messages('C0GENERAL').map((m) => m.text)).toEqual(['first', 'second, a second later']);
  });

  it('take figures per method, over HTTP too, and end with reset', async () => {
    const set = await control('POST', 'rate-limits', {
      enabled: true,
      perMinute: { 'users.info': 2 },
      postsPerSecondPerChannel: 2,
    });
    expect(set.json).toMatchObject({ enabled: true, perMinute: { 'users.info': 2 } });
    await client.users.info({ user: 'U0BOB' });
    clockOffset = 20_000;
    await client.users.info({ user: 'U0BOB' });
    clockOffset = 30_000;
    expect((await failure(client.users.info({ user: 'U0BOB' }))).retryAfter).toBe(30);
    await post('C0OPS', 'a');
    await post('C0OPS', 'b');
    expect(await errorCode(post('C0OPS', 'c'))).toBe('ratelimited');
    expect((await control('POST', 'rate-limits', { perMinute: { 'users.info': 0 } })).status).toBe(400);
    expect((await control('GET', 'rate-limits')).json.enabled).toBe(true);
    slack.reset();
    expect(slack.rateLimits().enabled).toBe(false);
    expect((await control('POST', 'rate-limits', { enabled: false })).json.enabled).toBe(false);
  });
});
