import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type LocalSlack, startLocalSlack } from '../../../standins/localslack/index.js';

/**
 * The local Slack's reactions and assistant pane, as an app sees them: the Web API through Slack's own
 * client (form-encoded, lists sent as JSON), and the pane's events signed and delivered as Slack does.
 */
const SECRET = 'assistant-pane-secret';
const TOKEN = 'xoxb-assistant-pane';
const PANE = { description: 'Ask tsai', suggestedPrompts: [{ title: 'My flows', message: 'flows' }] };

let slack: LocalSlack;
let server: Server;
let client: webApi.WebClient;
const told: Record<string, unknown>[] = [];

beforeAll(async () => {
  slack = await startLocalSlack({ signingSecret: SECRET, botToken: TOKEN });
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      told.push((JSON.parse(body) as { event: Record<string, unknown> }).event);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  slack.setBotEndpoint(`http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`);
  client = new webApi.WebClient(TOKEN, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
});
afterAll(async () => {
  await slack?.close();
  await new Promise((ok) => server?.close(ok));
});
beforeEach(() => {
  slack.reset();
  slack.configureApp({ assistantView: PANE });
  told.length = 0;
});

const refused = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: { data?: { error?: string } }) => e.data?.error,
  );

describe('reactions', () => {
  it('are added and removed by the bot on a message everyone sees, once each, and shown on it', async () => {
    const m = slack.postUserMessage({ user: 'U0ALICE', channel: 'C0OPS', text: '@tsai flows' });
    const at = { channel: 'C0OPS', timestamp: m.ts };
    await client.reactions.add({ ...at, name: 'eyes' });
    expect(await refused(client.reactions.add({ ...at, name: 'eyes' }))).toBe('already_reacted');
    await client.reactions.add({ ...at, name: 'white_check_mark' });
    expect(slack.messages('C0OPS').find((x) => x.ts === m.ts)?.reactions).toEqual([
      { name: 'eyes', users: [slack.botUserId] },
      { name: 'white_check_mark', users: [slack.botUserId] },
    ]);
    await client.reactions.remove({ ...at, name: 'eyes' });
    expect(await refused(client.reactions.remove({ ...at, name: 'eyes' }))).toBe('no_reaction');
    expect(
      slack
        .snapshot('U0BOB')
        .channels.find((c) => c.id === 'C0OPS')
        ?.messages.at(-1)?.reactions,
    ).toEqual([{ name: 'white_check_mark', users: [slack.botUserId] }]);
  });

  it('refuses what Slack refuses: a name with colons, a message that is not there, an ephemeral one', async () => {
    const m = slack.postUserMessage({ user: 'U0ALICE', channel: 'C0OPS', text: 'hello' });
    expect(await refused(client.reactions.add({ channel: 'C0OPS', timestamp: m.ts, name: ':eyes:' }))).toBe(
      'invalid_name',
    );
    expect(
      await refused(client.reactions.add({ channel: 'C0OPS', timestamp: '1.000001', name: 'eyes' })),
    ).toBe('message_not_found');
    const e = await client.chat.postEphemeral({ channel: 'C0OPS', user: 'U0ALICE', text: 'only you' });
    expect(
      await refused(
        client.reactions.add({ channel: 'C0OPS', timestamp: String(e.message_ts), name: 'eyes' }),
      ),
    ).toBe('message_not_found');
  });
});

describe('the assistant pane', () => {
  it('opens a thread in the DM and tells the app with the channel viewed; a move tells it again', async () => {
    const opened = await slack.openAssistant({ user: 'U0ALICE', channel: 'C0OPS' });
    expect(opened.channel).toBe('DU0ALICE');
    expect(opened.delivery.status).toBe(200);
    expect(told).toEqual([
      {
        type: 'assistant_thread_started',
        assistant_thread: {
          user_id: 'U0ALICE',
          context: { channel_id: 'C0OPS', team_id: 'T0LOCAL' },
          channel_id: 'DU0ALICE',
          thread_ts: opened.threadTs,
        },
        event_ts: expect.any(String),
      },
    ]);
    await slack.changeAssistantContext({ user: 'U0ALICE', threadTs: opened.threadTs, channel: 'C0GENERAL' });
    expect(told[1]).toMatchObject({
      type: 'assistant_thread_context_changed',
      assistant_thread: { context: { channel_id: 'C0GENERAL' }, thread_ts: opened.threadTs },
    });
    const head = slack.messages('DU0ALICE').find((m) => m.ts === opened.threadTs);
    expect(head?.assistantThread?.context.channelId).toBe('C0GENERAL');
  });

  it('keeps the status, prompts and title the app sets; a reply clears the status, the person writing clears the prompts', async () => {
    const { threadTs, channel } = await slack.openAssistant({ user: 'U0ALICE' });
    const at = { channel_id: channel, thread_ts: threadTs };
    await client.assistant.threads.setSuggestedPrompts({
      ...at,
      title: 'Try',
      prompts: [{ title: 'My flows', message: 'flows' }],
    });
    await client.assistant.threads.setStatus({ ...at, status: 'is reading your request…' });
    await client.assistant.threads.setTitle({ ...at, title: 'flows' });
    const head = () => slack.messages(channel).find((m) => m.ts === threadTs)!.assistantThread!;
    expect(head()).toMatchObject({
      status: 'is reading your request…',
      title: 'flows',
      prompts: { title: 'Try', prompts: [{ title: 'My flows', message: 'flows' }] },
    });
    await client.chat.postMessage({ channel, thread_ts: threadTs, text: 'Here are your flows.' });
    expect(head().status).toBeUndefined();
    slack.postUserMessage({ user: 'U0ALICE', channel, text: 'flows', threadTs });
    expect(head().prompts).toBeUndefined();
    // The person's message reaches the app as a message in a DM thread.
    await slack.waitFor(() => told.some((e) => e.type === 'message' && e.thread_ts === threadTs), 5000);
  });

  it('refuses a thread the pane did not open, more than four prompts, and a pane where the app has none', async () => {
    const { threadTs, channel } = await slack.openAssistant({ user: 'U0ALICE' });
    const four = Array.from({ length: 5 }, (_, i) => ({ title: `p${i}`, message: `m${i}` }));
    expect(
      await refused(
        client.assistant.threads.setSuggestedPrompts({
          channel_id: channel,
          thread_ts: threadTs,
          prompts: four,
        }),
      ),
    ).toBe('invalid_arguments');
    const plain = slack.postUserMessage({ user: 'U0ALICE', channel, text: 'help' });
    expect(
      await refused(
        client.assistant.threads.setStatus({ channel_id: channel, thread_ts: plain.ts, status: 'x' }),
      ),
    ).toBe('invalid_thread_ts');
    slack.configureApp({ assistantView: undefined });
    await expect(slack.openAssistant({ user: 'U0ALICE' })).rejects.toThrow(/no assistant pane/);
  });
});
