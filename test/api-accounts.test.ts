import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClients } from '../src/api/client.js';
import { named } from './support/service-calls.js';

// Many tenants' service accounts ("Add to Slack") over real sockets: each account's calls carry its own
// path and token, and all of them share the connections to one service URL.

let server: Server;
let url: string;
let connections = 0;
const seen: { path: string; authorization: string | undefined }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', authorization: req.headers.authorization });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: '1030000000000000001', name: 'Pump station A' }));
  });
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

describe("tenants' service accounts", () => {
  it('each account is called with its own path and token, over one pool of connections for all', async () => {
    // The bot's own settings, passed whole as the bot does: its place and token are no tenant's.
    const own = { baseUrl: 'http://127.0.0.1:9', accountId: '1', token: 'the-bots-own-token-never-sent' };
    const clients = createServiceClients(own, { allowed: ['127.0.0.1'] });
    const accounts = Array.from({ length: 50 }, (_, i) => ({
      accountId: String(1_200_000_000_000_000_000n + BigInt(i)),
      token: `tenant-token-${i}`,
    }));
    for (const a of accounts) {
      const client = named(clients.of({ baseUrl: url, ...a }));
      await client.getWorkspace('1030000000000000001').catch(() => undefined);
      await client.close();
    }
    expect(seen).toHaveLength(50);
    seen.forEach((s, i) => {
      expect(s.path).toContain(`/accounts/${accounts[i]!.accountId}/`);
      expect(s.authorization).toBe(`Bearer ${accounts[i]!.token}`);
    });
    // One after another, on the pool's kept-alive connections (undici may open a second while the first is
    // being handed back), not one per account: closing an account's client leaves the pool the others use.
    expect(connections).toBeLessThanOrEqual(4);
    await clients.close();
  });
});
