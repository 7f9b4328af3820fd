import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addressAllowlist,
  type Resolve,
  refusedAddress,
  vetServiceUrl,
  vettedLookup,
} from '../src/api/address.js';
import { checkServiceToken } from '../src/api/token-check.js';
import { Transport } from '../src/api/transport.js';

/**
 * A service URL a tenant's admin typed is untrusted input: it must be https and lead only to public
 * addresses (unless the deployment allows a host or a network), checked when it is given and again when
 * each connection is made, through real sockets and undici.
 */

const none = addressAllowlist([]);
const resolving =
  (answers: Record<string, string[]>): Resolve =>
  async (host) => {
    const list = answers[host];
    if (!list) throw Object.assign(new Error(`no such host ${host}`), { code: 'ENOTFOUND' });
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('which addresses a typed URL may reach', () => {
  it('refuses loopback, private, link-local (the metadata address), shared, unspecified and IPv4-mapped forms of them', () => {
    for (const a of [
      '127.0.0.1',
      '127.9.9.9',
      '::1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      'fd00::1',
      'fc00::5',
      '169.254.169.254',
      'fe80::1',
      '100.64.0.1',
      '100.127.255.254',
      '0.0.0.0',
      '::',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
      '::127.0.0.1',
    ])
      expect(refusedAddress(a), a).toBeDefined();
    for (const a of [
      '93.184.216.34',
      '8.8.8.8',
      '172.32.0.1',
      '100.128.0.1',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
    ])
      expect(refusedAddress(a), a).toBeUndefined();
  });

  it('takes https to a public address; refuses http, credentials and a name that resolves inward', async () => {
    const resolve = resolving({
      'tsai.example.com': ['93.184.216.34'],
      'inside.example.com': ['93.184.216.34', '10.0.0.7'],
      'metadata.example.com': ['169.254.169.254'],
    });
    expect(await vetServiceUrl('https://tsai.example.com/base', none, resolve)).toMatchObject({ ok: true });
    const problem = async (url: string) => {
      const v = await vetServiceUrl(url, none, resolve);
      expect(v.ok, url).toBe(false);
      return v.ok ? '' : v.problem;
    };
    expect(await problem('http://tsai.example.com')).toMatch(/must start with https:\/\//);
    expect(await problem('https://user:pw@tsai.example.com')).toMatch(/Leave the user and password out/);
    expect(await problem('ftp://tsai.example.com')).toMatch(/not the service's address/);
    expect(await problem('https://inside.example.com')).toMatch(/10\.0\.0\.7, a private network address/);
    expect(await problem('https://metadata.example.com')).toMatch(/link-local address/);
    expect(await problem('https://169.254.169.254/latest')).toMatch(/link-local/);
    expect(await problem('https://[::ffff:127.0.0.1]:8443')).toMatch(/loopback/);
    expect(await problem('https://0.0.0.0')).toMatch(/unspecified/);
    expect(await problem('https://nowhere.example.com')).toMatch(/could not find nowhere\.example\.com/);
    expect(await problem('https://127.0.0.2:9')).toMatch(/TSAI_SERVICE_ALLOWED_ADDRESSES/);
  });

  it('lets the deployment allow hosts and networks, where plain http is taken too', async () => {
    const resolve = resolving({ 'tsai.corp.example': ['10.20.0.5'], 'other.corp.example': ['10.30.0.5'] });
    const allow = addressAllowlist(['tsai.corp.example', '127.0.0.1', '10.40.0.0/16']);
    expect(await vetServiceUrl('http://tsai.corp.example:8080', allow, resolve)).toMatchObject({ ok: true });
    expect(await vetServiceUrl('http://127.0.0.1:3000', allow, resolve)).toMatchObject({ ok: true });
    expect(await vetServiceUrl('https://10.40.1.2', allow, resolve)).toMatchObject({ ok: true });
    expect(await vetServiceUrl('https://other.corp.example', allow, resolve)).toMatchObject({ ok: false });
    expect(await vetServiceUrl('https://127.0.0.2', allow, resolve)).toMatchObject({ ok: false });
  });
});

describe('connections to a typed URL, as they are made', () => {
  let server: Server;
  let port: number;
  const seen: { path: string; auth?: string }[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({
        path: req.url ?? '',
        ...(req.headers.authorization ? { auth: req.headers.authorization } : {}),
      });
      if (req.url?.startsWith('/moved')) {
        res
          .writeHead(302, { location: `http://127.0.0.1:${port}/elsewhere/api/1.3/accounts/1/workspace` })
          .end();
      } else if (req.url?.startsWith('/forbidden')) {
        res.writeHead(403, { 'content-type': 'application/json' }).end('{"message":"not for you"}');
      } else res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
  });

  const transport = (host: string, lookup: ReturnType<typeof vettedLookup>) =>
    new Transport({
      baseUrl: `http://${host}:${port}`,
      token: 'tenant-token-0123456789',
      connectTimeoutMs: 2000,
      requestTimeoutMs: 2000,
      maxAttempts: 1,
      maxRetryTimeMs: 0,
      retryBaseDelayMs: 0,
      maxConnections: 1,
      maxQueued: 0,
      maxQueueWaitMs: 0,
      lookup,
    });

  it('refuses a name that resolved outward when it was given and inward now (DNS rebinding), before a byte is sent', async () => {
    // Checked when given, `rebind.example` was a public address; at the connection it is this machine.
    let now = ['93.184.216.34'];
    const resolve: Resolve = async () => now.map((address) => ({ address, family: 4 }));
    expect(await vetServiceUrl('https://rebind.example', none, resolve)).toMatchObject({ ok: true });
    now = ['127.0.0.1'];
    const before = seen.length;
    const t = transport('rebind.example', vettedLookup(none, resolve));
    try {
      const err = await t
        .send({ method: 'POST', path: '/flows', body: { a: 1 }, what: 'x' })
        .catch((e: unknown) => e);
      expect(String((err as Error).message)).toMatch(/its name now leads into the bot's own network/);
      expect((err as { kind?: string }).kind).toBe('network');
    } finally {
      await t.close();
    }
    expect(seen.length).toBe(before);
  });

  it('connects where the lookup allows, to exactly the address it checked', async () => {
    const resolve: Resolve = async () => [{ address: '127.0.0.1', family: 4 }];
    const t = transport('service.corp.example', vettedLookup(addressAllowlist(['127.0.0.1']), resolve));
    try {
      const reply = await t.send({ method: 'GET', path: '/api/1.3/accounts/1/workspace', what: 'x' });
      expect(reply.status).toBe(200);
    } finally {
      await t.close();
    }
    expect(seen.at(-1)?.path).toBe('/api/1.3/accounts/1/workspace');
  });

  it('counts a token as working only on a 2xx: a 403 or a redirect does not, and a redirect is not followed', async () => {
    const typed = { allowed: ['127.0.0.1'] };
    const check = (base: string) =>
      checkServiceToken(
        { baseUrl: `http://127.0.0.1:${port}${base}`, accountId: '1', typed },
        'tenant-token-0123456789',
        2000,
      );
    expect(await check('')).toMatchObject({ ok: true });
    expect(await check('/forbidden')).toMatchObject({ ok: false, reason: 'not-read', status: 403 });
    const before = seen.length;
    expect(await check('/moved')).toMatchObject({ ok: false, reason: 'not-read', status: 302 });
    expect(seen.slice(before).map((s) => s.path)).toEqual(['/moved/api/1.3/accounts/1/workspace?limit=1']);
    // A typed URL to this machine without the deployment's leave reaches nothing.
    const inward = await checkServiceToken(
      { baseUrl: `http://localhost:${port}`, accountId: '1', typed: { allowed: [] } },
      'tenant-token-0123456789',
      2000,
    );
    expect(inward).toMatchObject({ ok: false, reason: 'unanswered' });
  });
});
