import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySlackRequest } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type LocalSlack, type OpenView, startLocalSlack } from '../../../standins/localslack/index.js';
import { patient } from '../../support/patience.js';
import { SECRET, startTestBot, type TestBot, TOKEN } from './bolt-app.js';

let slack: LocalSlack;
let bot: TestBot;

beforeAll(async () => {
  slack = patient(await startLocalSlack({ signingSecret: SECRET, botToken: TOKEN }));
  bot = await startTestBot(slack.apiUrl);
  slack.setBotEndpoint(bot.endpoint);
});
afterAll(async () => {
  await bot?.stop();
  await slack?.close();
});
beforeEach(() => {
  slack.reset();
  slack.configureApp({ homeTabEnabled: true, messagesTabEnabled: true });
  for (const list of Object.values(bot.seen)) if (Array.isArray(list)) list.length = 0;
});

const visitsText = (v: OpenView | undefined) =>
  ((v?.view.blocks as { text?: { text: string } }[] | undefined) ?? [])[0]?.text?.text;

describe('App Home through a real Bolt app', () => {
  it('sends app_home_opened on every visit; the app publishes per user and keeps the hash', async () => {
    const first = await slack.openHome({ user: 'U0ALICE' });
    expect([first.status, first.eventId]).toEqual([200, expect.stringMatching(/^Ev\w+$/)]);
    const home = await slack.waitFor((s) => s.state.home.get('U0ALICE'), undefined, 'home published');
    expect(visitsText(home)).toBe('Home opened 1 time(s)');
    expect(bot.seen.homeOpened[0]).toEqual({
      type: 'app_home_opened',
      user: 'U0ALICE',
      channel: 'DU0ALICE',
      tab: 'home',
      event_ts: expect.stringMatching(/^\d+\.\d{6}$/),
    });

    const firstHash = home.hash;
    await slack.openHome({ user: 'U0ALICE' });
    await slack.waitFor((s) => visitsText(s.state.home.get('U0ALICE')) === 'Home opened 2 time(s)');
    // A returning user's event carries the published view, whose hash the app passed back.
    expect(bot.seen.homeOpened[1]).toMatchObject({
      tab: 'home',
      view: { id: home.id, type: 'home', hash: firstHash, callback_id: 'home' },
    });
    expect(bot.seen.homeOpened[1]!.view).not.toHaveProperty('title');
    expect(slack.calls.filter((c) => c.method === 'views.publish').map((c) => c.args.hash)).toEqual([
      undefined,
      firstHash,
    ]);
    expect(slack.state.home.get('U0BOB')).toBeUndefined();
    expect(slack.events.map((e) => [e.event.type, e.status])).toEqual([
      ['app_home_opened', 200],
      ['app_home_opened', 200],
    ]);

    await slack.openHome({ user: 'U0ALICE', tab: 'messages' });
    await expect.poll(() => bot.seen.homeOpened.length).toBe(3);
    expect(bot.seen.homeOpened[2]).toMatchObject({ tab: 'messages' });
  });

  it('a stale hash gives hash_conflict', async () => {
    await slack.openHome({ user: 'U0BOB' });
    const home = await slack.waitFor((s) => s.state.home.get('U0BOB'));
    const stale = home.hash;
    await slack.openHome({ user: 'U0BOB' });
    await slack.waitFor((s) => s.state.home.get('U0BOB')?.hash !== stale);
    const r = await fetch(`${slack.apiUrl}views.publish`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: 'U0BOB', hash: stale, view: { type: 'home', blocks: [] } }),
    });
    expect(await r.json()).toEqual({ ok: false, error: 'hash_conflict' });
  });

  it('a Home button sends block_actions from the view, with a trigger and no response_url', async () => {
    await slack.openHome({ user: 'U0CAROL' });
    const home = await slack.waitFor((s) => s.state.home.get('U0CAROL'));
    const d = await slack.sendViewAction({
      user: 'U0CAROL',
      viewId: home.id,
      blockId: 'home_tools',
      actionId: 'home_refresh',
    });
    expect(d.status).toBe(200);
    await expect.poll(() => bot.seen.homeActions.length).toBe(1);
    const body = bot.seen.homeActions[0]!;
    expect(body).toMatchObject({
      type: 'block_actions',
      container: { type: 'view', view_id: home.id },
      view: { id: home.id, type: 'home', hash: home.hash },
      trigger_id: d.triggerId,
      actions: [{ action_id: 'home_refresh', block_id: 'home_tools', type: 'button', value: 'refresh' }],
    });
    expect(body).not.toHaveProperty('response_url');
    await slack.waitFor((s) => visitsText(s.state.home.get('U0CAROL')) === 'Home opened 2 time(s)');
    expect(bot.seen.publishErrors).toEqual([]);
  });

  it('without a Home tab views.publish answers not_enabled and the tab cannot be opened', async () => {
    slack.configureApp({ homeTabEnabled: false });
    expect(slack.snapshot('U0ALICE').app).toMatchObject({ homeTabEnabled: false, messagesTabEnabled: true });
    expect(() => slack.openHome({ user: 'U0ALICE' })).toThrow(/no Home tab/);
    await slack.openHome({ user: 'U0ALICE', tab: 'messages' });
    await fetch(`${slack.url}/_local/app`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"homeTabEnabled":true}',
    });
    const r = await fetch(`${slack.url}/_local/open-home`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"user":"U0ALICE"}',
    });
    expect(await r.json()).toMatchObject({ status: 200, delivered: true });
    await slack.waitFor((s) => s.state.home.get('U0ALICE'));
    slack.configureApp({ homeTabEnabled: false });
    const publish = await fetch(`${slack.apiUrl}views.publish`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: 'U0ALICE', view: { type: 'home', blocks: [] } }),
    });
    expect(await publish.json()).toEqual({ ok: false, error: 'not_enabled' });
  });
});

describe('Events API envelope', () => {
  const received: { headers: IncomingMessage['headers']; body: string }[] = [];
  const raw = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
    res.end();
  });
  let other: LocalSlack;

  beforeAll(async () => {
    await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
    other = await startLocalSlack({
      signingSecret: SECRET,
      botToken: TOKEN,
      botEndpoint: `http://127.0.0.1:${(raw.address() as AddressInfo).port}/slack/events`,
    });
  });
  afterAll(async () => {
    await other?.close();
    await new Promise((r) => raw.close(r));
  });

  it('is signed JSON with Slack’s fields; a redelivery reuses the event_id with the retry headers', async () => {
    const d = await other.sendEvent({ type: 'member_joined_channel', user: 'U0BOB', channel: 'C0OPS' });
    const { headers, body } = received[0]!;
    expect(headers['content-type']).toBe('application/json');
    expect(() =>
      verifySlackRequest({
        signingSecret: SECRET,
        body,
        headers: {
          'x-slack-signature': String(headers['x-slack-signature']),
          'x-slack-request-timestamp': Number(headers['x-slack-request-timestamp']),
        },
      }),
    ).not.toThrow();
    expect(JSON.parse(body)).toEqual({
      token: expect.any(String),
      team_id: other.teamId,
      context_team_id: other.teamId,
      api_app_id: other.appId,
      type: 'event_callback',
      event_id: d.eventId,
      event_time: expect.any(Number),
      event: {
        type: 'member_joined_channel',
        user: 'U0BOB',
        channel: 'C0OPS',
        event_ts: expect.stringMatching(/^\d+\.\d{6}$/),
      },
      authorizations: [
        {
          enterprise_id: null,
          team_id: other.teamId,
          user_id: other.botUserId,
          is_bot: true,
          is_enterprise_install: false,
        },
      ],
      is_ext_shared_channel: false,
      event_context: expect.any(String),
    });
    expect(headers['x-slack-retry-num']).toBeUndefined();

    await other.sendEvent(
      { type: 'member_joined_channel', user: 'U0BOB', channel: 'C0OPS' },
      {
        eventId: d.eventId,
        retryNum: 1,
      },
    );
    expect(received[1]!.headers).toMatchObject({
      'x-slack-retry-num': '1',
      'x-slack-retry-reason': 'http_timeout',
    });
    expect(JSON.parse(received[1]!.body).event_id).toBe(d.eventId);
    const over = await fetch(`${other.url}/_local/event`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event: { type: 'app_mention', user: 'U0ALICE', text: 'hi' }, retryNum: 2 }),
    });
    expect(await over.json()).toMatchObject({ status: 200, eventId: expect.any(String) });
    expect(other.events.map((e) => [e.event.type, e.retryNum ?? 0])).toEqual([
      ['member_joined_channel', 0],
      ['member_joined_channel', 1],
      ['app_mention', 2],
    ]);
  });
});
