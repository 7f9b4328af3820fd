import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySlackRequest } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type LocalSlack, startLocalSlack } from '../../../standins/localslack/index.js';
import { patient } from '../../support/patience.js';

const SECRET = 'message-events-secret';
const TOKEN = 'xoxb-message-events';

let slack: LocalSlack;
let server: Server;
/** Every event the app was told, in order, each checked for Slack's signature. */
const told: Record<string, unknown>[] = [];

beforeAll(async () => {
  slack = patient(await startLocalSlack({ signingSecret: SECRET, botToken: TOKEN }));
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      verifySlackRequest({
        signingSecret: SECRET,
        body,
        headers: {
          'x-slack-signature': String(req.headers['x-slack-signature']),
          'x-slack-request-timestamp': Number(req.headers['x-slack-request-timestamp']),
        },
      });
      told.push((JSON.parse(body) as { event: Record<string, unknown> }).event);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  slack.setBotEndpoint(`http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`);
});
afterAll(async () => {
  await slack?.close();
  await new Promise((ok) => server?.close(ok));
});
beforeEach(() => {
  slack.reset();
  told.length = 0;
});

const api = async (method: string, args: Record<string, unknown>) =>
  (await (
    await fetch(`${slack.apiUrl}${method}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(args),
    })
  ).json()) as Record<string, unknown>;
const toldCount = (n: number) => slack.waitFor(() => told.length >= n && told, undefined, `${n} events told`);

describe('what people write, as Slack tells the app', () => {
  it('a mention in a channel or a thread is an app_mention, written as Slack writes it; a plain message is not told', async () => {
    const plain = slack.postUserMessage({ user: 'U0ALICE', channel: 'C0OPS', text: 'anyone seen pump 3?' });
    const mention = slack.postUserMessage({
      user: 'U0BOB',
      channel: 'C0OPS',
      text: '@tsai flow 1 & <b> for @alice in #general',
      threadTs: plain.ts,
    });
    expect(mention.text).toBe('<@U0LOCALBOT> flow 1 &amp; &lt;b&gt; for <@U0ALICE> in <#C0GENERAL|general>');
    await toldCount(1);
    expect(told).toEqual([
      {
        type: 'app_mention',
        user: 'U0BOB',
        text: mention.text,
        ts: mention.ts,
        thread_ts: plain.ts,
        channel: 'C0OPS',
        team: 'T0LOCAL',
        client_msg_id: expect.any(String),
        event_ts: mention.ts,
      },
    ]);
  });

  it('an edit that still mentions the bot is told again, with `edited`; a deletion in a channel is not', async () => {
    const m = slack.postUserMessage({ user: 'U0ALICE', channel: 'C0OPS', text: '@tsai flows' });
    slack.editUserMessage({ user: 'U0ALICE', channel: 'C0OPS', ts: m.ts, text: '@tsai flows 5' });
    slack.deleteUserMessage({ user: 'U0ALICE', channel: 'C0OPS', ts: m.ts });
    await toldCount(2);
    expect(told[1]).toMatchObject({
      type: 'app_mention',
      ts: m.ts,
      text: '<@U0LOCALBOT> flows 5',
      edited: { user: 'U0ALICE', ts: expect.any(String) },
    });
    expect(slack.messages('C0OPS').some((x) => x.ts === m.ts)).toBe(false);
  });

  it('the Messages tab: every message there is a message.im event, subtypes and the bot’s own posts included', async () => {
    const mine = slack.postUserMessage({ user: 'U0ALICE', channel: 'DU0ALICE', text: 'flows' });
    expect(mine.channel).toBe('DU0ALICE');
    const posted = (await api('chat.postMessage', {
      channel: 'U0ALICE',
      text: 'the answer',
      thread_ts: mine.ts,
    })) as {
      ts: string;
    };
    slack.editUserMessage({ user: 'U0ALICE', channel: 'DU0ALICE', ts: mine.ts, text: 'flows 3' });
    slack.deleteUserMessage({ user: 'U0ALICE', channel: 'DU0ALICE', ts: mine.ts });
    await toldCount(5);
    const im = { channel: 'DU0ALICE', channel_type: 'im', team: 'T0LOCAL' };
    expect(told[0]).toMatchObject({ type: 'message', user: 'U0ALICE', text: 'flows', ts: mine.ts, ...im });
    expect(told[0]).not.toHaveProperty('subtype');
    // The bot's own reply, with its bot_id, then Slack's hidden change of the parent's reply count.
    expect(told[1]).toMatchObject({
      type: 'message',
      user: 'U0LOCALBOT',
      bot_id: 'B0LOCAL',
      ts: posted.ts,
      thread_ts: mine.ts,
    });
    expect(told[2]).toMatchObject({
      subtype: 'message_changed',
      hidden: true,
      message: { ts: mine.ts, reply_count: 1, latest_reply: posted.ts },
    });
    expect(told[2]!.message).not.toHaveProperty('edited');
    expect(told[3]).toMatchObject({
      subtype: 'message_changed',
      message: { ts: mine.ts, text: 'flows 3', edited: { user: 'U0ALICE' } },
      previous_message: { text: 'flows' },
    });
    expect(told[4]).toMatchObject({ subtype: 'message_deleted', hidden: true, deleted_ts: mine.ts, ...im });
  });

  it('tells only what the app subscribes to, and keeps a read-only Messages tab closed to typing', async () => {
    slack.configureApp({ botEvents: ['app_home_opened'] });
    slack.postUserMessage({ user: 'U0ALICE', channel: 'C0OPS', text: '@tsai flows' });
    slack.postUserMessage({ user: 'U0ALICE', channel: 'DU0ALICE', text: 'flows' });
    slack.configureApp({ botEvents: ['app_mention', 'message.im'], messagesTabReadOnly: true });
    expect(() => slack.postUserMessage({ user: 'U0ALICE', channel: 'DU0ALICE', text: 'flows' })).toThrow(
      /read-only/,
    );
    slack.configureApp({ messagesTabReadOnly: false });
    slack.postUserMessage({ user: 'U0ALICE', channel: 'C0OPS', text: '@tsai flows 2' });
    await toldCount(1);
    expect(told.map((e) => e.text)).toEqual(['<@U0LOCALBOT> flows 2']);
  });

  it('an ephemeral needs the bot in the channel, even a public one it may post in', async () => {
    slack.setChannelState('C0OPS', { botMember: false });
    expect(await api('chat.postMessage', { channel: 'C0OPS', text: 'public' })).toMatchObject({ ok: true });
    expect(await api('chat.postEphemeral', { channel: 'C0OPS', user: 'U0ALICE', text: 'whisper' })).toEqual({
      ok: false,
      error: 'not_in_channel',
    });
  });
});
