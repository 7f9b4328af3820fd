import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type LocalSlack, startLocalSlack } from '../../../standins/localslack/index.js';

/** Slack's own rules, from the workspace's state rather than from injected faults. */
const TOKEN = 'xoxb-rules-test-token';
const START = Date.now();
let clockOffset = 0;
let slack: LocalSlack;
let client: webApi.WebClient;
const bot = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.end());
});

beforeAll(async () => {
  await new Promise<void>((r) => bot.listen(0, '127.0.0.1', r));
  slack = await startLocalSlack({
    signingSecret: 'rules-secret',
    botToken: TOKEN,
    botEndpoint: `http://127.0.0.1:${(bot.address() as AddressInfo).port}/slack/events`,
    channels: [
      { id: 'C0GENERAL', name: 'general' },
      { id: 'C0OPS', name: 'plant-ops' },
      { id: 'G0SECRET', name: 'secret', isPrivate: true, botMember: false, members: ['U0ALICE'] },
    ],
    now: () => START + clockOffset,
  });
  client = new webApi.WebClient(TOKEN, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
});
afterAll(async () => {
  await slack?.close();
  await new Promise((r) => bot.close(r));
});
beforeEach(() => {
  clockOffset = 0;
  slack.reset();
});

async function errorOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return (err as { data?: { error?: string } }).data?.error ?? String(err);
  }
  throw new Error('the call succeeded');
}

/** POSTs to a response_url as Bolt's respond() does. */
const respond = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const texts = (channel: string, user: string) => slack.messages(channel, { user }).map((m) => m.text);

describe('channel membership', () => {
  it('with chat:write.public the bot posts and updates in a public channel it is not in, not in a private one', async () => {
    slack.setChannelState('C0OPS', { botMember: false });
    const posted = await client.chat.postMessage({ channel: 'C0OPS', text: 'posted by scope' });
    await client.chat.update({ channel: 'C0OPS', ts: posted.ts!, text: 'updated by scope' });
    expect(texts('C0OPS', 'U0BOB')).toContain('updated by scope');
    slack.setChannelState('C0OPS', { botMember: true });
  });

  it('outside a channel the bot cannot post or update, but the command’s response_url still answers there', async () => {
    const before = await client.chat.postMessage({ channel: 'C0OPS', text: 'posted while a member' });
    slack.configureApp({ chatWritePublic: false });
    slack.setChannelState('C0OPS', { botMember: false });
    expect(await errorOf(client.chat.postMessage({ channel: 'C0OPS', text: 'x' }))).toBe('not_in_channel');
    expect(await errorOf(client.chat.update({ channel: 'C0OPS', ts: before.ts!, text: 'x' }))).toBe(
      'not_in_channel',
    );
    expect(await errorOf(client.chat.postEphemeral({ channel: 'C0OPS', user: 'U0ALICE', text: 'x' }))).toBe(
      'not_in_channel',
    );
    expect((await client.conversations.info({ channel: 'C0OPS' })).channel).toMatchObject({
      is_member: false,
      is_archived: false,
    });

    const d = await slack.sendCommand({ user: 'U0ALICE', channel: 'C0OPS', text: 'flow f-1' });
    expect(
      (await respond(d.responseUrl!, { response_type: 'in_channel', text: 'flow started' })).status,
    ).toBe(200);
    expect(texts('C0OPS', 'U0BOB')).toEqual(['posted while a member', '/tsai flow f-1', 'flow started']);

    slack.setChannelState('C0OPS', { botMember: true });
    slack.configureApp({ chatWritePublic: true });
    await client.chat.update({ channel: 'C0OPS', ts: before.ts!, text: 'updated after rejoining' });
    expect(slack.state.message('C0OPS', before.ts!)?.text).toBe('updated after rejoining');
  });

  it('a private channel the bot is not in does not exist for it', async () => {
    expect(await errorOf(client.chat.postMessage({ channel: 'G0SECRET', text: 'x' }))).toBe(
      'channel_not_found',
    );
    expect(await errorOf(client.conversations.info({ channel: 'G0SECRET' }))).toBe('channel_not_found');
    slack.setChannelState('G0SECRET', { botMember: true });
    await client.chat.postMessage({ channel: 'G0SECRET', text: 'invited' });
    expect(texts('G0SECRET', 'U0ALICE')).toEqual(['invited']);
  });

  it('an archived channel takes no posts (is_archived), no edits (is_inactive) and no commands', async () => {
    const m = await client.chat.postMessage({ channel: 'C0GENERAL', text: 'before' });
    slack.setChannelState('C0GENERAL', { archived: true });
    expect(await errorOf(client.chat.postMessage({ channel: 'C0GENERAL', text: 'x' }))).toBe('is_archived');
    expect(await errorOf(client.chat.postEphemeral({ channel: 'C0GENERAL', user: 'U0BOB', text: 'x' }))).toBe(
      'is_archived',
    );
    expect(await errorOf(client.chat.update({ channel: 'C0GENERAL', ts: m.ts!, text: 'x' }))).toBe(
      'is_inactive',
    );
    expect((await client.conversations.info({ channel: 'C0GENERAL' })).channel?.is_archived).toBe(true);
    await expect(slack.sendCommand({ user: 'U0BOB', channel: 'C0GENERAL', text: 'help' })).rejects.toThrow(
      /archived/,
    );
    slack.reset();
    await client.chat.postMessage({ channel: 'C0GENERAL', text: 'reset unarchives' });
  });

  it('is set over HTTP too', async () => {
    const r = await fetch(`${slack.url}/_local/channel-state`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'C0OPS', botMember: false, archived: true }),
    });
    expect(await r.json()).toEqual({ id: 'C0OPS', name: 'plant-ops', botMember: false, archived: true });
    expect(await errorOf(client.chat.postMessage({ channel: 'C0OPS', text: 'x' }))).toBe('is_archived');
    const dm = await fetch(`${slack.url}/_local/channel-state`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'C0NOPE', botMember: false }),
    });
    expect([dm.status, await dm.json()]).toEqual([400, { error: 'local slack: unknown channel "C0NOPE"' }]);
  });
});

describe('the bot token', () => {
  it('revoked or inactive, every call fails until restored', async () => {
    slack.setTokenStatus('revoked');
    expect(await errorOf(client.auth.test())).toBe('token_revoked');
    expect(await errorOf(client.chat.postMessage({ channel: 'C0GENERAL', text: 'x' }))).toBe('token_revoked');
    const r = await fetch(`${slack.url}/_local/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"status":"inactive"}',
    });
    expect(await r.json()).toEqual({ status: 'inactive' });
    expect(await errorOf(client.users.info({ user: 'U0BOB' }))).toBe('account_inactive');
    slack.setTokenStatus('active');
    expect((await client.auth.test()).ok).toBe(true);
    expect(slack.messages('C0GENERAL')).toEqual([]);
    expect(() => slack.setTokenStatus('gone' as never)).toThrow(/active, revoked or inactive/);
  });
});

describe('message size and direct messages', () => {
  it('chat.update refuses more than 4,000 characters; posting keeps up to 40,000', async () => {
    const m = await client.chat.postMessage({ channel: 'C0GENERAL', text: 'short' });
    expect(
      await errorOf(client.chat.update({ channel: 'C0GENERAL', ts: m.ts!, text: 'x'.repeat(4001) })),
    ).toBe('msg_too_long');
    // Characters, not UTF-16 units: 4,000 emoji fit.
    await client.chat.update({ channel: 'C0GENERAL', ts: m.ts!, text: '🛠'.repeat(4000) });
    await client.chat.postMessage({ channel: 'C0GENERAL', text: 'y'.repeat(40_000) });
    expect(await errorOf(client.chat.postMessage({ channel: 'C0GENERAL', text: 'y'.repeat(40_001) }))).toBe(
      'msg_too_long',
    );
  });

  it('chat.postMessage to a user ID is a DM only that user sees', async () => {
    const dm = await client.chat.postMessage({ channel: 'U0CAROL', text: 'your flow finished' });
    expect(dm.channel).toBe('DU0CAROL');
    await client.chat.postMessage({ channel: dm.channel!, text: 'again, by the DM ID' });
    expect(texts('DU0CAROL', 'U0CAROL')).toEqual(['your flow finished', 'again, by the DM ID']);
    expect(texts('DU0CAROL', 'U0BOB')).toEqual([]);
    expect(slack.snapshot('U0BOB').channels.map((c) => c.id)).not.toContain('DU0CAROL');
    expect(slack.snapshot('U0CAROL').channels.map((c) => c.id)).toContain('DU0CAROL');
  });
});

describe("a slash command's response_url", () => {
  it('cannot replace an earlier reply: replace_original posts a new one, as Slack does', async () => {
    const d = await slack.sendCommand({ user: 'U0ALICE', channel: 'C0GENERAL', text: 'flow f-2' });
    await respond(d.responseUrl!, { response_type: 'in_channel', text: 'flow f-2: running' });
    const r = await respond(d.responseUrl!, {
      response_type: 'in_channel',
      replace_original: true,
      text: 'flow f-2: done',
    });
    expect(r.status).toBe(200);
    expect(texts('C0GENERAL', 'U0BOB')).toEqual(['/tsai flow f-2', 'flow f-2: running', 'flow f-2: done']);
    expect(slack.messages('C0GENERAL').every((m) => m.edits === 0)).toBe(true);
  });

  it('takes five posts within 30 minutes, then answers 404 used_url or expired_url', async () => {
    const used = await slack.sendCommand({ user: 'U0ALICE', channel: 'C0GENERAL', text: 'a' });
    const expired = await slack.sendCommand({ user: 'U0ALICE', channel: 'C0GENERAL', text: 'b' });
    for (let i = 1; i <= 5; i++)
      expect((await respond(used.responseUrl!, { text: `r${i}` })).status).toBe(200);
    const sixth = await respond(used.responseUrl!, { text: 'r6' });
    expect([sixth.status, await sixth.json()]).toEqual([404, { ok: false, error: 'used_url' }]);
    clockOffset = 30 * 60 * 1000 + 1;
    const late = await respond(expired.responseUrl!, { text: 'late' });
    expect([late.status, await late.json()]).toEqual([404, { ok: false, error: 'expired_url' }]);
  });
});

describe('views', () => {
  it('refuses a view over 250 kB with view_too_large', async () => {
    const huge = Array.from({ length: 90 }, (_, i) => ({
      type: 'section',
      block_id: `b${i}`,
      text: { type: 'mrkdwn', text: 'z'.repeat(3000) },
    }));
    const err = await errorOf(
      client.views.open({
        trigger_id: slack.state.issueTrigger('U0ALICE'),
        view: { type: 'modal', title: { type: 'plain_text', text: 'Big' }, blocks: huge as never[] },
      }),
    );
    expect(err).toBe('view_too_large');
  });
});
