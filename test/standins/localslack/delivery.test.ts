import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySlackRequest } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type LocalSlack,
  type LocalSlackSnapshot,
  startLocalSlack,
} from '../../../standins/localslack/index.js';

const SECRET = 'delivery-secret-xyz';
const TOKEN = 'xoxb-delivery-token';

/** A raw HTTP endpoint that records exactly what Slack would send and answers with a scripted ack. */
const received: { headers: IncomingMessage['headers']; body: string }[] = [];
let nextAck: { status: number; body: string; type?: string } = { status: 200, body: '' };
const bot = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
  res.writeHead(nextAck.status, { 'content-type': nextAck.type ?? 'application/json' });
  res.end(nextAck.body);
});
let slack: LocalSlack;

beforeAll(async () => {
  await new Promise<void>((r) => bot.listen(0, '127.0.0.1', r));
  const port = (bot.address() as AddressInfo).port;
  slack = await startLocalSlack({
    signingSecret: SECRET,
    botToken: TOKEN,
    botEndpoint: `http://127.0.0.1:${port}/slack/events`,
  });
});
afterAll(async () => {
  await slack?.close();
  await new Promise((r) => bot.close(r));
});
beforeEach(() => {
  slack.reset();
  received.length = 0;
  nextAck = { status: 200, body: '' };
});

const last = () => received[received.length - 1]!;
const payloadOf = (body: string) => JSON.parse(new URLSearchParams(body).get('payload') ?? 'null');

describe('delivery to the bot', () => {
  it('sends a slash command form-encoded, signed over the raw body, with every Slack field', async () => {
    await slack.sendCommand({ user: 'U0CAROL', channel: 'C0OPS', text: 'flow f-1' });
    const { headers, body } = last();
    expect(headers['content-type']).toBe('application/x-www-form-urlencoded');
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
    const form = Object.fromEntries(new URLSearchParams(body));
    expect(Object.keys(form).sort()).toEqual(
      [
        'api_app_id',
        'channel_id',
        'channel_name',
        'command',
        'is_enterprise_install',
        'response_url',
        'team_domain',
        'team_id',
        'text',
        'token',
        'trigger_id',
        'user_id',
        'user_name',
      ].sort(),
    );
    expect(form).toMatchObject({
      channel_id: 'C0OPS',
      channel_name: 'plant-ops',
      user_id: 'U0CAROL',
      text: 'flow f-1',
    });
    expect(form.response_url).toMatch(new RegExp(`^${slack.url}/response/`));
  });

  it('shows a non-empty command ack as an ephemeral reply, and a failed ack as Slack’s error', async () => {
    nextAck = { status: 200, body: JSON.stringify({ text: 'working on it' }) };
    await slack.sendCommand({ user: 'U0ALICE', channel: 'C0GENERAL', text: 'x' });
    nextAck = { status: 500, body: 'boom', type: 'text/plain' };
    await slack.sendCommand({ user: 'U0ALICE', channel: 'C0GENERAL', text: 'y' });
    expect(slack.messages('C0GENERAL', { user: 'U0ALICE' }).map((m) => m.text)).toEqual([
      '/tsai x',
      'working on it',
      '/tsai y',
      '/tsai failed with the error "http_service_error"',
    ]);
    expect(slack.messages('C0GENERAL', { user: 'U0BOB' })).toEqual([]);
  });

  it('sends a global shortcut and an options request as payload= JSON', async () => {
    const s = await slack.sendShortcut({ user: 'U0ALICE', callbackId: 'new_eval' });
    expect(payloadOf(last().body)).toMatchObject({
      type: 'shortcut',
      callback_id: 'new_eval',
      trigger_id: s.triggerId,
      user: { id: 'U0ALICE' },
    });
    const r = await fetch(`${slack.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        channel: 'C0GENERAL',
        text: 'pick an asset',
        blocks: [
          {
            type: 'actions',
            block_id: 'asm_block',
            elements: [{ type: 'external_select', action_id: 'asm' }],
          },
        ],
      }),
    });
    const { ts } = (await r.json()) as { ts: string };
    nextAck = {
      status: 200,
      body: JSON.stringify({ options: [{ text: { type: 'plain_text', text: 'A' }, value: 'a' }] }),
    };
    const o = await slack.sendOptionsRequest({
      user: 'U0ALICE',
      actionId: 'asm',
      blockId: 'asm_block',
      value: 'pum',
      channel: 'C0GENERAL',
      messageTs: ts,
    });
    expect(payloadOf(last().body)).toMatchObject({
      type: 'block_suggestion',
      action_id: 'asm',
      value: 'pum',
      container: { type: 'message', message_ts: ts, channel_id: 'C0GENERAL', is_ephemeral: false },
      channel: { id: 'C0GENERAL', name: 'general' },
    });
    expect(o.json).toEqual({ options: [{ text: { type: 'plain_text', text: 'A' }, value: 'a' }] });
    expect(o.options).toEqual([{ text: { type: 'plain_text', text: 'A' }, value: 'a' }]);
  });

  it('applies response_action update, push and clear to the view stack', async () => {
    const trig = slack.state.issueTrigger('U0ALICE');
    const view = (title: string) => ({
      type: 'modal',
      title: { type: 'plain_text', text: title },
      blocks: [],
    });
    const r = await fetch(`${slack.apiUrl}views.open`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ trigger_id: trig, view: view('first') }),
    });
    const id = ((await r.json()) as { view: { id: string } }).view.id;
    nextAck = { status: 200, body: JSON.stringify({ response_action: 'update', view: view('second') }) };
    await slack.submitView({ user: 'U0ALICE', viewId: id });
    const title = () => (slack.topView('U0ALICE')?.view.title as { text: string } | undefined)?.text;
    expect(title()).toBe('second');
    expect(payloadOf(last().body)).toMatchObject({ type: 'view_submission', view: { id } });
    nextAck = { status: 200, body: JSON.stringify({ response_action: 'push', view: view('third') }) };
    await slack.submitView({ user: 'U0ALICE', viewId: id });
    expect(slack.state.stack('U0ALICE').map((v) => (v.view.title as { text: string }).text)).toEqual([
      'second',
      'third',
    ]);
    nextAck = {
      status: 200,
      body: JSON.stringify({ response_action: 'update', view: view('x'.repeat(30)) }),
    };
    const bad = await slack.submitView({ user: 'U0ALICE', viewId: slack.topView('U0ALICE')!.id });
    expect(bad.errors?._).toMatch(/invalid view: title must be 1-24 chars/);
    nextAck = { status: 200, body: JSON.stringify({ response_action: 'errors', errors: { nope: 'x' } }) };
    const stray = await slack.submitView({ user: 'U0ALICE', viewId: slack.topView('U0ALICE')!.id });
    expect(stray.errors?._).toMatch(/not input blocks: nope/);
    nextAck = { status: 200, body: JSON.stringify({ response_action: 'clear' }) };
    await slack.submitView({ user: 'U0ALICE', viewId: slack.topView('U0ALICE')!.id });
    expect(slack.state.stack('U0ALICE')).toEqual([]);
  });

  it('replace_original and delete_original act on the clicked message; in_channel threads work', async () => {
    const r = await fetch(`${slack.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        channel: 'C0GENERAL',
        text: 'pick',
        blocks: [
          {
            type: 'actions',
            elements: [{ type: 'button', action_id: 'b', text: { type: 'plain_text', text: 'B' } }],
          },
        ],
      }),
    });
    const ts = ((await r.json()) as { ts: string }).ts;
    const click = await slack.clickButton({
      user: 'U0BOB',
      channel: 'C0GENERAL',
      messageTs: ts,
      actionId: 'b',
    });
    const p = payloadOf(last().body);
    expect(p).toMatchObject({
      type: 'block_actions',
      container: { type: 'message', message_ts: ts, channel_id: 'C0GENERAL', is_ephemeral: false },
      message: { ts, text: 'pick' },
      actions: [{ action_id: 'b', type: 'button' }],
    });
    // Slack generated the block_id; the action and the message's blocks agree on it.
    expect(p.actions[0].block_id).toBe(p.message.blocks[0].block_id);
    expect(p.actions[0].block_id).toMatch(/^\w+$/);
    const respond = (body: unknown) =>
      fetch(click.responseUrl!, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await respond({ replace_original: true, text: 'picked' });
    expect(slack.state.message('C0GENERAL', ts)).toMatchObject({ text: 'picked', edits: 1 });
    await respond({ response_type: 'in_channel', thread_ts: ts, text: 'in thread' });
    expect(slack.messages('C0GENERAL', { user: 'U0ALICE', threadTs: ts }).map((m) => m.text)).toEqual([
      'picked',
      'in thread',
    ]);
    await respond({ delete_original: true });
    expect(slack.state.message('C0GENERAL', ts)).toBeUndefined();
    expect((await respond({ text: 'fourth' })).status).toBe(200);
    expect((await respond({ text: 'fifth' })).status).toBe(200);
    const sixth = await respond({ text: 'sixth' });
    expect([sixth.status, await sixth.json()]).toEqual([404, { ok: false, error: 'used_url' }]);
    expect(slack.messages('C0GENERAL', { user: 'U0BOB' }).map((m) => m.text)).toEqual(['fourth', 'fifth']);
  });
});

describe('command text and snapshots', () => {
  it('entity-encodes &, <, > always, and turns mentions, channels and links into references with should_escape', async () => {
    await slack.sendCommand({
      user: 'U0ALICE',
      channel: 'C0GENERAL',
      text: 'workspace create <!channel> a&b',
    });
    expect(new URLSearchParams(last().body).get('text')).toBe('workspace create &lt;!channel&gt; a&amp;b');
    await slack.sendCommand({
      user: 'U0ALICE',
      channel: 'C0GENERAL',
      text: 'ask @bob in #plant-ops about https://x.test/a?b=1 @here @nobody',
      shouldEscape: true,
    });
    expect(new URLSearchParams(last().body).get('text')).toBe(
      'ask <@U0BOB> in <#C0OPS|plant-ops> about <https://x.test/a?b=1> <!here> @nobody',
    );
    await slack.sendCommand({ user: 'U0ALICE', channel: 'C0GENERAL', text: 'a<b', rawText: true });
    expect(new URLSearchParams(last().body).get('text')).toBe('a<b');
  });

  it('gives a JSON snapshot of what one user sees', async () => {
    nextAck = { status: 200, body: JSON.stringify({ text: 'just for alice' }) };
    await slack.sendCommand({ user: 'U0ALICE', channel: 'C0GENERAL', text: 'x' });
    const forBob = slack.snapshot('U0BOB');
    const forAlice = JSON.parse(JSON.stringify(slack.snapshot('U0ALICE')));
    expect(forBob.channels.find((c) => c.id === 'C0GENERAL')?.messages).toEqual([]);
    expect(
      forAlice.channels
        .find((c: { id: string }) => c.id === 'C0GENERAL')
        .messages.map((m: { text: string }) => m.text),
    ).toEqual(['/tsai x', 'just for alice']);
    expect(forAlice.version).toBeGreaterThan(0);
  });
});

describe('control API for a browser UI', () => {
  it('runs user actions over JSON and streams change events', async () => {
    const events = await fetch(`${slack.url}/_local/events`);
    const reader = events.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toMatch(/^data: \{"version":\d+\}/);

    nextAck = { status: 200, body: JSON.stringify({ response_type: 'in_channel', text: 'done' }) };
    const r = await fetch(`${slack.url}/_local/command`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'U0CAROL', channel: 'C0OPS', text: 'help' }),
    });
    expect(await r.json()).toMatchObject({ status: 200, delivered: true });
    const next = new TextDecoder().decode((await reader.read()).value);
    expect(next).toMatch(/^data: \{"version":\d+\}/);
    await reader.cancel();

    const snap = (await (
      await fetch(`${slack.url}/_local/snapshot?viewer=U0BOB`)
    ).json()) as LocalSlackSnapshot;
    const ops = snap.channels.find((c: { id: string }) => c.id === 'C0OPS');
    expect(ops!.messages.map((m: { text: string }) => m.text)).toEqual(['/tsai help', 'done']);

    const bad = await fetch(`${slack.url}/_local/command`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'U0NOBODY', channel: 'C0OPS', text: 'help' }),
    });
    expect([bad.status, await bad.json()]).toEqual([400, { error: 'local slack: unknown user "U0NOBODY"' }]);
  });
});
