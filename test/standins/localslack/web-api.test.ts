import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type LocalSlack, startLocalSlack } from '../../../standins/localslack/index.js';

const TOKEN = 'xoxb-web-api-test-token';
let slack: LocalSlack;
let client: webApi.WebClient;

beforeAll(async () => {
  slack = await startLocalSlack({ signingSecret: 'web-api-secret', botToken: TOKEN });
  client = new webApi.WebClient(TOKEN, {
    slackApiUrl: slack.apiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
  });
});
afterAll(() => slack?.close());
beforeEach(() => slack.reset());

/** The Slack error code of a failed WebClient call. */
async function errorOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return (err as { data?: { error?: string } }).data?.error ?? String(err);
  }
  throw new Error('the call succeeded');
}

const section = (text: string, blockId?: string) => ({
  type: 'section',
  ...(blockId ? { block_id: blockId } : {}),
  text: { type: 'mrkdwn', text },
});
const modal = (blocks: unknown[] = [], extra: Record<string, unknown> = {}) => ({
  type: 'modal' as const,
  title: { type: 'plain_text' as const, text: 'T' },
  blocks: blocks as never[],
  ...extra,
});

async function post(method: string, body: unknown, token = TOKEN) {
  const r = await fetch(`${slack.apiUrl}${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return r.json();
}

describe('local Slack Web API', () => {
  it('rejects a wrong or missing token and unknown methods, and never records the token', async () => {
    const bad = new webApi.WebClient('xoxb-wrong', {
      slackApiUrl: slack.apiUrl,
      retryConfig: { retries: 0 },
    });
    expect(await errorOf(bad.auth.test())).toBe('invalid_auth');
    expect(await post('auth.test', {}, '')).toEqual({ ok: false, error: 'not_authed' });
    expect(await errorOf(client.apiCall('chat.fly', { channel: 'C0GENERAL' }))).toBe('unknown_method');
    // the token as a form field is accepted too, as Slack does
    const form = await fetch(`${slack.apiUrl}auth.test`, {
      method: 'POST',
      body: new URLSearchParams({ token: TOKEN }),
    });
    expect(await form.json()).toMatchObject({ ok: true, user_id: slack.botUserId });
    expect(JSON.stringify(slack.calls)).not.toContain(TOKEN);
    expect(slack.calls.map((c) => c.method)).toEqual(['auth.test', 'auth.test', 'chat.fly', 'auth.test']);
  });

  it('validates messages the way Slack does', async () => {
    expect(await errorOf(client.chat.postMessage({ channel: 'C0NOPE', text: 'x' }))).toBe(
      'channel_not_found',
    );
    expect(await errorOf(client.chat.postMessage({ channel: 'C0GENERAL', text: '' }))).toBe('no_text');
    const many = Array.from({ length: 51 }, (_, i) => section(`b${i}`));
    expect(await errorOf(client.chat.postMessage({ channel: 'C0GENERAL', text: 'x', blocks: many }))).toBe(
      'invalid_blocks',
    );
    const dup = [section('a', 'same'), section('b', 'same')];
    expect(await errorOf(client.chat.postMessage({ channel: 'C0GENERAL', text: 'x', blocks: dup }))).toBe(
      'invalid_blocks',
    );
    const long = [section('x'.repeat(3001))];
    expect(await errorOf(client.chat.postMessage({ channel: 'C0GENERAL', text: 'x', blocks: long }))).toBe(
      'invalid_blocks',
    );
    expect(slack.messages('C0GENERAL')).toEqual([]);
    const fifty = Array.from({ length: 50 }, (_, i) => section(`b${i}`));
    const ok = await client.chat.postMessage({ channel: 'C0GENERAL', text: 'fine', blocks: fifty });
    expect(slack.state.message('C0GENERAL', ok.ts!)?.blocks).toHaveLength(50);
  });

  it('keeps threads, DMs, ephemerals, edits and permalinks', async () => {
    const parent = await client.chat.postMessage({ channel: 'C0GENERAL', text: 'parent' });
    await client.chat.postMessage({ channel: 'C0GENERAL', text: 'reply', thread_ts: parent.ts });
    expect(
      await errorOf(client.chat.postMessage({ channel: 'C0GENERAL', text: 'r', thread_ts: '1.2' })),
    ).toBe('thread_not_found');
    expect(slack.messages('C0GENERAL', { user: 'U0BOB' }).map((m) => m.text)).toEqual(['parent']);
    expect(slack.messages('C0GENERAL', { user: 'U0BOB', threadTs: parent.ts }).map((m) => m.text)).toEqual([
      'parent',
      'reply',
    ]);
    const dm = await client.chat.postMessage({ channel: 'U0CAROL', text: 'psst' });
    expect(dm.channel).toBe('DU0CAROL');
    await client.chat.postEphemeral({ channel: 'C0GENERAL', user: 'U0ALICE', text: 'secret' });
    expect(slack.messages('C0GENERAL', { user: 'U0ALICE' }).map((m) => m.text)).toEqual(['parent', 'secret']);
    expect(slack.messages('C0GENERAL', { user: 'U0BOB' }).map((m) => m.text)).toEqual(['parent']);
    await client.chat.update({ channel: 'C0GENERAL', ts: parent.ts!, text: 'parent (edited)' });
    expect(slack.state.message('C0GENERAL', parent.ts!)).toMatchObject({ text: 'parent (edited)', edits: 1 });
    const user = slack.postUserMessage({ user: 'U0BOB', channel: 'C0GENERAL', text: 'mine' });
    expect(await errorOf(client.chat.update({ channel: 'C0GENERAL', ts: user.ts, text: 'x' }))).toBe(
      'cant_update_message',
    );
    const link = await client.chat.getPermalink({ channel: 'C0GENERAL', message_ts: parent.ts! });
    expect(link.permalink).toBe(`${slack.url}/archives/C0GENERAL/p${parent.ts!.replace('.', '')}`);
  });

  it('opens, pushes (at most 3), updates by id or external_id with hash checks, and publishes Home', async () => {
    const t1 = slack.state.issueTrigger('U0ALICE');
    const opened = await client.views.open({
      trigger_id: t1,
      view: modal([section('one')], { external_id: 'ext-1' }),
    });
    expect(await errorOf(client.views.open({ trigger_id: t1, view: modal() }))).toBe('exchanged_trigger_id');
    expect(await errorOf(client.views.open({ trigger_id: 'made-up', view: modal() }))).toBe(
      'invalid_trigger_id',
    );
    for (let i = 0; i < 2; i++) {
      await client.views.push({ trigger_id: slack.state.issueTrigger('U0ALICE'), view: modal() });
    }
    expect(
      await errorOf(client.views.push({ trigger_id: slack.state.issueTrigger('U0ALICE'), view: modal() })),
    ).toBe('push_limit_reached');
    expect(slack.state.stack('U0ALICE')).toHaveLength(3);
    const id = opened.view!.id!;
    const hash = opened.view!.hash!;
    const u1 = await client.views.update({ view_id: id, hash, view: modal([section('two')]) });
    expect(u1.view?.hash).not.toBe(hash);
    expect(await errorOf(client.views.update({ view_id: id, hash, view: modal() }))).toBe('hash_conflict');
    await client.views.update({ external_id: 'ext-1', view: modal([section('three')]) });
    const stored = slack.state.findView({ viewId: id })?.view.blocks as { block_id?: string }[];
    expect(stored).toMatchObject([section('three')]);
    expect(stored[0]?.block_id).toMatch(/^\w+$/); // Slack generates a block_id when the app sends none
    expect(await errorOf(client.views.update({ view_id: 'VNOPE', view: modal() }))).toBe('not_found');
    const tooMany = Array.from({ length: 101 }, (_, i) => section(`b${i}`));
    expect(await errorOf(client.views.update({ view_id: id, view: modal(tooMany) }))).toBe('invalid_blocks');
    const longTitle = { ...modal(), title: { type: 'plain_text' as const, text: 'x'.repeat(25) } };
    expect(await errorOf(client.views.update({ view_id: id, view: longTitle }))).toBe('invalid_arguments');

    await client.views.publish({
      user_id: 'U0BOB',
      view: { type: 'home', blocks: [section('home') as never] },
    });
    expect(slack.state.home.get('U0BOB')?.view.blocks).toMatchObject([section('home')]);
  });

  it('expires a trigger_id after 3 s by the injected clock', async () => {
    let offset = 0;
    const timed = await startLocalSlack({
      signingSecret: 's',
      botToken: TOKEN,
      now: () => Date.now() + offset,
    });
    try {
      const trigger = timed.state.issueTrigger('U0ALICE');
      offset = 3001;
      expect(await post2(timed, 'views.open', { trigger_id: trigger, view: modal() })).toEqual({
        ok: false,
        error: 'expired_trigger_id',
      });
    } finally {
      await timed.close();
    }
  });

  it('answers users.info, usergroups.users.list and conversations.info', async () => {
    const { user } = await client.users.info({ user: 'U0BOB' });
    expect(user).toMatchObject({
      id: 'U0BOB',
      tz: 'Asia/Kolkata',
      tz_offset: 19800,
      tz_label: 'India Standard Time',
    });
    expect(user?.locale).toBeUndefined();
    const withLocale = await client.users.info({ user: 'U0BOB', include_locale: true });
    expect(withLocale.user?.locale).toBe('en-IN');
    expect(await errorOf(client.users.info({ user: 'U0NOPE' }))).toBe('user_not_found');
    const g = await client.usergroups.users.list({ usergroup: 'S0APPROVERS' });
    expect(g.users).toEqual(['U0BOB', 'U0CAROL']);
    const c = await client.conversations.info({ channel: 'C0OPS' });
    expect(c.channel).toMatchObject({ id: 'C0OPS', name: 'plant-ops', is_channel: true });
  });

  it('injects one-shot failures, including a 429 that WebClient turns into a rate-limit error', async () => {
    slack.failNext('chat.postMessage', { status: 429, retryAfter: 1 });
    const err = await client.chat.postMessage({ channel: 'C0GENERAL', text: 'x' }).catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe('slack_webapi_rate_limited_error');
    slack.failNext('users.info', { error: 'fatal_error' });
    expect(await errorOf(client.users.info({ user: 'U0BOB' }))).toBe('fatal_error');
    await client.chat.postMessage({ channel: 'C0GENERAL', text: 'after' });
    expect(slack.messages('C0GENERAL').map((m) => m.text)).toEqual(['after']);
  });

  it('waitFor rejects with a description of what happened when nothing matches', async () => {
    await client.auth.test();
    await expect(slack.waitFor(() => false, 50, 'a message that never comes')).rejects.toThrow(
      /a message that never comes.*timed out after 50 ms.*auth\.test/,
    );
  });
});

async function post2(s: LocalSlack, method: string, body: unknown) {
  const r = await fetch(`${s.apiUrl}${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify(body),
  });
  return r.json();
}
