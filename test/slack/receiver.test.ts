import { createHmac } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, type Context } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { SlackHttpReceiver } from '../../src/slack/http/receiver.js';

const SECRET = 'receiver-test-secret';
const ENDPOINT = '/slack/events';

/** A real Bolt app on our receiver, over a real socket; the replay marks kept in memory. */
let origin: string;
let receiver: SlackHttpReceiver;
const seen = new Set<string>();
const heard: { kind: string; body: Record<string, unknown>; context: Context }[] = [];

beforeAll(async () => {
  receiver = new SlackHttpReceiver({
    endpoint: ENDPOINT,
    signingSecret: SECRET,
    routes: { '/healthz': (_req, res) => res.writeHead(200).end('ok') },
    markSeen: async (keys) => new Set(keys.filter((k) => !seen.has(k) && seen.add(k))),
    pruneSeen: async () => undefined,
    logger: createLogger({ level: 'silent' }),
  });
  const app = new App({ receiver, authorize: async () => ({ botToken: 'xoxb-receiver-test' }) });
  app.command('/json', async ({ ack, body, context }) => {
    heard.push({ kind: 'command', body: body as unknown as Record<string, unknown>, context });
    await ack({ text: `you said ${body.text}` });
  });
  app.command('/plain', async ({ ack }) => ack('plain words'));
  app.command('/twice', async ({ ack }) => {
    await ack();
    await ack().catch((e: Error) =>
      heard.push({
        kind: `second ack: ${(e as Error & { code?: string }).code}`,
        body: {},
        context: {} as Context,
      }),
    );
  });
  app.command('/throws', async () => {
    throw new Error('the listener failed before its ack');
  });
  app.command('/silent', async () => undefined);
  app.event('app_mention', async ({ body, context }) => {
    heard.push({ kind: 'event', body: body as unknown as Record<string, unknown>, context });
  });
  const server = (await app.start(0)) as Server;
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await receiver.stop();
});

function signedPost(body: string, contentType: string, headers: Record<string, string> = {}) {
  const ts = String(Math.floor(Date.now() / 1000));
  const sig = `v0=${createHmac('sha256', SECRET).update(`v0:${ts}:${body}`).digest('hex')}`;
  return fetch(`${origin}${ENDPOINT}`, {
    method: 'POST',
    body,
    headers: {
      'content-type': contentType,
      'x-slack-request-timestamp': ts,
      'x-slack-signature': sig,
      ...headers,
    },
  });
}

let trigger = 0;
const command = (name: string, text = '') =>
  signedPost(
    new URLSearchParams({
      command: name,
      text,
      user_id: 'U1',
      channel_id: 'C1',
      team_id: 'T1',
      trigger_id: `trigger-${++trigger}`,
      response_url: 'https://hooks.invalid/x',
    }).toString(),
    'application/x-www-form-urlencoded',
  );

describe('our Bolt receiver: each request read, checked and parsed once', () => {
  it('a slash command reaches its listener parsed; an object ack is JSON, a string ack is text', async () => {
    const res = await command('/json', 'hello there');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ text: 'you said hello there' });
    const got = heard.find((h) => h.kind === 'command');
    expect(got?.body).toMatchObject({ command: '/json', text: 'hello there', user_id: 'U1' });
    const plain = await command('/plain');
    expect(plain.headers.get('content-type')).toBeNull();
    expect(await plain.text()).toBe('plain words');
  });

  it("Slack's url_verification gets its challenge back and signed ssl_check a 200, and neither reaches a listener", async () => {
    const before = heard.length;
    const verify = await signedPost(
      JSON.stringify({ type: 'url_verification', challenge: 'c-123' }),
      'application/json',
    );
    expect(verify.status).toBe(200);
    expect(await verify.json()).toEqual({ challenge: 'c-123' });
    const ssl = await signedPost('ssl_check=1&token=x', 'application/x-www-form-urlencoded');
    expect(ssl.status).toBe(200);
    expect(await ssl.text()).toBe('');
    expect(heard.length).toBe(before);
  });

  it('a signed body that does not parse as its content type says is 400', async () => {
    const res = await signedPost('{not json', 'application/json');
    expect(res.status).toBe(400);
  });

  it("an event's retry headers reach the listener's context", async () => {
    const event = {
      type: 'event_callback',
      team_id: 'T1',
      event_id: 'Ev-retry-1',
      event: { type: 'app_mention', user: 'U1', text: 'hi', channel: 'C1', ts: '1.2' },
    };
    const res = await signedPost(JSON.stringify(event), 'application/json', {
      'x-slack-retry-num': '2',
      'x-slack-retry-reason': 'http_timeout',
    });
    expect(res.status).toBe(200);
    const got = heard.find((h) => h.kind === 'event');
    expect(got?.context.retryNum).toBe(2);
    expect(got?.context.retryReason).toBe('http_timeout');
  });

  it('a second ack is refused as Bolt refuses it; a listener failing before its ack is a 500', async () => {
    expect((await command('/twice')).status).toBe(200);
    await expect
      .poll(() => heard.some((h) => h.kind === 'second ack: slack_bolt_receiver_ack_multiple_error'))
      .toBe(true);
    expect((await command('/throws')).status).toBe(500);
  });

  it("a request nobody acknowledges is answered 404 after Slack's 3 seconds", async () => {
    expect((await command('/silent')).status).toBe(404);
  });

  it('the routes given answer GET; any other path or method is 404', async () => {
    const health = await fetch(`${origin}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.text()).toBe('ok');
    expect((await fetch(`${origin}/healthz`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${origin}/nowhere`)).status).toBe(404);
    expect((await fetch(`${origin}${ENDPOINT}`)).status).toBe(404);
  });
});

describe('stopping the receiver', () => {
  it('writes the replay marks not yet written once the server has closed', async () => {
    const order: string[] = [];
    const stopping = new SlackHttpReceiver({
      endpoint: ENDPOINT,
      signingSecret: SECRET,
      routes: {},
      markSeen: async (keys) => new Set(keys),
      flushSeen: async () => {
        order.push('flushed');
      },
      pruneSeen: async () => undefined,
      logger: createLogger({ level: 'silent' }),
    });
    const server = await stopping.start(0);
    server.on('close', () => order.push('closed'));
    await stopping.stop();
    expect(order).toEqual(['closed', 'flushed']);
  });
});
