import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { webApi } from '@slack/bolt';
import { afterEach, expect, it } from 'vitest';
import { webClientOptions } from '../../src/slack/web-client.js';

/**
 * The Web API client as the bot builds it (its options, its `fetch`), against a real HTTP server playing
 * Slack's Web API: what Slack answers reaches the caller as the client's own results and errors, and a
 * burst of calls shares a few connections.
 */
const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

async function slackApi(answer: (req: IncomingMessage, body: string, res: ServerResponse) => void) {
  const sockets = new Set<Socket>();
  const server = createServer(async (req, res) => {
    sockets.add(req.socket);
    let body = '';
    for await (const chunk of req) body += chunk;
    answer(req, body, res);
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
  return { client: new webApi.WebClient('xoxb-test', webClientOptions(url)), sockets };
}

it('sends the form-encoded call with the token, and returns what Slack answered with its scopes', async () => {
  const seen: { path?: string; auth?: string; type?: string; body: string }[] = [];
  const { client } = await slackApi((req, body, res) => {
    seen.push({ path: req.url, auth: req.headers.authorization, type: req.headers['content-type'], body });
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.setHeader('x-oauth-scopes', 'chat:write, commands');
    res.end(JSON.stringify({ ok: true, channel: 'C1', ts: '1.2' }));
  });
  const r = await client.chat.postMessage({ channel: 'C1', text: 'héllo', blocks: [{ type: 'divider' }] });
  expect(r).toMatchObject({ ok: true, channel: 'C1', ts: '1.2' });
  expect(r.response_metadata?.scopes).toEqual(['chat:write', 'commands']);
  expect(seen).toHaveLength(1);
  expect(seen[0]!.path).toBe('/api/chat.postMessage');
  expect(seen[0]!.auth).toBe('Bearer xoxb-test');
  expect(seen[0]!.type).toMatch(/application\/x-www-form-urlencoded/);
  const form = new URLSearchParams(seen[0]!.body);
  expect(form.get('text')).toBe('héllo');
  expect(JSON.parse(form.get('blocks') ?? '')).toEqual([{ type: 'divider' }]);
});

it("raises Slack's error code as the client does", async () => {
  const { client } = await slackApi((_req, _body, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ ok: false, error: 'channel_not_found' }));
  });
  await expect(client.chat.postMessage({ channel: 'C404', text: 'x' })).rejects.toMatchObject({
    code: 'slack_webapi_platform_error',
    data: { error: 'channel_not_found' },
  });
});

it('refuses a rate-limited call at once with its Retry-After, as the bot asks its client to', async () => {
  let calls = 0;
  const { client } = await slackApi((_req, _body, res) => {
    calls++;
    res.statusCode = 429;
    res.setHeader('retry-after', '7');
    res.end();
  });
  await expect(client.chat.postMessage({ channel: 'C1', text: 'x' })).rejects.toMatchObject({
    code: 'slack_webapi_rate_limited_error',
    retryAfter: 7,
  });
  expect(calls).toBe(1);
});

it('serves a burst of 100 calls over at most 16 connections', async () => {
  const { client, sockets } = await slackApi((_req, _body, res) => {
    res.setHeader('content-type', 'application/json');
    setTimeout(() => res.end(JSON.stringify({ ok: true })), 5);
  });
  const results = await Promise.all(
    Array.from({ length: 100 }, (_, i) => client.chat.postMessage({ channel: 'C1', text: `n${i}` })),
  );
  expect(results.every((r) => r.ok)).toBe(true);
  expect(sockets.size).toBeGreaterThan(0);
  expect(sockets.size).toBeLessThanOrEqual(16);
});
