import { once } from 'node:events';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import * as undici from 'undici';
import { afterEach, expect, it } from 'vitest';
import { pooledHttp, UNDICI_PARTS } from '../src/http.js';

const require = createRequire(import.meta.url);
const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

it("loads the very Agent and request that undici's entry exports", () => {
  expect(require(UNDICI_PARTS.agent)).toBe(undici.Agent);
  expect((require(UNDICI_PARTS.api) as { request: unknown }).request).toBe(
    (undici.Dispatcher.prototype as unknown as { request: unknown }).request,
  );
});

it('sends the method, path, query, headers and body, and reuses one connection', async () => {
  const seen: { line: string; type?: string; body: string; socket: unknown }[] = [];
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    seen.push({
      line: `${req.method} ${req.url}`,
      type: req.headers['content-type'],
      body,
      socket: req.socket,
    });
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ ok: true }));
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const http = pooledHttp({ connections: 1 });
  const post = await http.request(new URL(`${base}/v1/flows?dry=1`), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"name":"pump"}',
  });
  expect(post.statusCode).toBe(200);
  expect(await post.body.json()).toEqual({ ok: true });
  const get = await http.request(new URL(`${base}/v1/flows/7`), { method: 'GET' });
  await get.body.dump();
  await http.close();
  expect(seen.map(({ line, type, body }) => ({ line, type, body }))).toEqual([
    { line: 'POST /v1/flows?dry=1', type: 'application/json', body: '{"name":"pump"}' },
    { line: 'GET /v1/flows/7', type: undefined, body: '' },
  ]);
  expect(seen[1]!.socket).toBe(seen[0]!.socket);
});
