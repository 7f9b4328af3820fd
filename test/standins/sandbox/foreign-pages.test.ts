import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { createLogger } from '../../../src/log.js';
import { startEmulator } from '../../../standins/emulator/index.js';
import { type Running, startAll } from '../../../standins/start-all.js';

const logger = createLogger({ level: 'silent', destination: new Writable({ write: (_c, _e, cb) => cb() }) });
const dirs: string[] = [];
const tempDb = () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsai-sandbox-foreign-'));
  dirs.push(dir);
  return join(dir, 'bot.sqlite');
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const start = (env: Record<string, string>) =>
  startAll({
    // In-process under vitest: the worker's TypeScript cannot load in a worker thread here.
    config: loadConfig({ PORT: '0', DATABASE_URL: tempDb(), TSAI_COMMAND_WORKER: 'false', ...env }),
    logger,
    sandboxPort: 0,
  });

/** One raw HTTP request, with whatever Host a browser under DNS rebinding would send. */
function raw(
  url: string,
  o: { method?: string; host?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  return new Promise((ok, fail) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: `${u.pathname}${u.search}`,
        method: o.method ?? 'GET',
        headers: { ...(o.host ? { host: o.host } : {}), ...o.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
        });
        res.on('end', () => ok({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', fail);
    req.end(o.body);
  });
}

describe('the sandbox serves only its own page', () => {
  let running: Running;
  let page: string;
  let origin: string;
  beforeAll(async () => {
    running = await start({});
    page = running.sandbox!.url;
    origin = new URL(page).origin;
  });
  afterAll(async () => {
    await running?.stop();
  });

  const command = JSON.stringify({ user: 'U0BOB', channel: 'C0OPS', text: 'whoami' });
  const commandsSeen = () => running.localSlack!.messages('C0OPS').filter((m) => m.kind === 'command').length;

  it("refuses another site's request to act, whatever its body says", async () => {
    for (const [headers, status] of [
      [{ origin: 'http://evil.example', 'content-type': 'application/json' }, 403],
      [{ origin: 'null', 'content-type': 'application/json' }, 403],
      // The same page's port on another name still is another origin.
      [{ origin: 'http://localhost:1', 'content-type': 'application/json' }, 403],
      // A simple cross-site form or text body, as any page may send without asking.
      [{ 'content-type': 'text/plain;charset=UTF-8' }, 415],
      [{ 'content-type': 'application/x-www-form-urlencoded' }, 415],
    ] as const) {
      const r = await raw(new URL('/_local/command', page).href, { method: 'POST', headers, body: command });
      expect(r.status, JSON.stringify(headers)).toBe(status);
    }
    expect(commandsSeen()).toBe(0);
  });

  it('refuses a name that only resolves to it by DNS rebinding, so nothing can be read', async () => {
    const port = new URL(page).port;
    for (const path of ['/_sandbox/config', '/_local/snapshot?viewer=U0BOB', '/_local/log', '/']) {
      const r = await raw(new URL(path, page).href, { host: `rebind.example:${port}` });
      expect(r.status, path).toBe(421);
      expect(r.body).not.toContain('token');
    }
    const stand = running.localSlack!.url;
    const r = await raw(`${stand}/_local/log`, { host: `rebind.example:${new URL(stand).port}` });
    expect(r.status).toBe(421);
  });

  it('keeps working for the page itself', async () => {
    const r = await raw(new URL('/_local/command', page).href, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json' },
      body: command,
    });
    expect(r.status).toBe(200);
    expect(commandsSeen()).toBe(1);
    const cfg = await raw(new URL('/_sandbox/config', page).href, {});
    expect(cfg.status).toBe(200);
    expect(JSON.parse(cfg.body)).toHaveProperty('serviceIdentities');
  });
});

describe('the sandbox beside a real service', () => {
  const stops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const s of stops.splice(0).reverse()) await s();
  });

  it('is not started unless asked for, and says what to set', async () => {
    const service = await startEmulator({ host: '127.0.0.1', port: 0 });
    stops.push(() => service.close());
    const env = {
      TSAI_BASE_URL: service.url,
      TSAI_TOKEN: service.token,
      TSAI_ACCOUNT_ID: service.accountId,
    };
    await expect(start(env)).rejects.toThrow(/SANDBOX_WITH_SERVICE=true/);
    const asked = await start({ ...env, SANDBOX_WITH_SERVICE: 'true' });
    stops.push(() => asked.stop());
    expect(asked.sandbox?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(asked.emulator).toBeUndefined();
  });
});
