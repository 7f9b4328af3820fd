import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED, startEmulator } from '../../../standins/emulator/index.js';
import { type LocalSlack, startLocalSlack } from '../../../standins/localslack/index.js';
import { readManifest } from '../../../standins/sandbox/manifest.js';
import { EMOJI_FONT_PATH, type SandboxServer, startSandboxServer } from '../../../standins/sandbox/server.js';
import { startSandbox } from '../../../standins/sandbox/start.js';

/** The sandbox page's server over HTTP, without a browser. */
describe('sandbox server', () => {
  let slack: LocalSlack;
  let server: SandboxServer;

  beforeAll(async () => {
    slack = await startLocalSlack({ signingSecret: 'server-test-secret', botToken: 'xoxb-server-test' });
    server = await startSandboxServer({ slack, defaultChannel: 'C0OPS' });
  });
  afterAll(async () => {
    await server?.close();
    await slack?.close();
  });

  const get = (path: string) => fetch(new URL(path, server.url));

  it('serves the page with a policy that forbids inline script and foreign sources', async () => {
    const r = await get('/');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/html');
    const csp = r.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(await r.text()).toContain('<script type="module" src="/web/app.js">');
    expect((await get('/sandbox.css')).headers.get('content-type')).toContain('text/css');
  });

  it('serves its own emoji font, and the stylesheet draws emoji with it', async () => {
    const font = await get(EMOJI_FONT_PATH);
    expect(font.status).toBe(200);
    expect(font.headers.get('content-type')).toBe('font/woff2');
    expect(
      Buffer.from(await font.arrayBuffer())
        .subarray(0, 4)
        .toString('latin1'),
    ).toBe('wOF2');
    const css = await (await get('/sandbox.css')).text();
    expect(css).toContain(`url("${EMOJI_FONT_PATH}")`);
    expect(css).toMatch(/font-family: "Lato"[^;]*"Noto Color Emoji", sans-serif;/);
  });

  it('serves only its own asset names', async () => {
    for (const path of [
      '/web/..%2F..%2Fpackage.json',
      '/web/../../package.json',
      '/web/app.ts',
      '/etc/passwd',
    ]) {
      const r = await get(path);
      expect(r.status, path).toBe(404);
      expect(await r.text()).not.toContain('"name": "tsai-chatops"');
    }
  });

  it('tells the page who can act, where to start and that no emulator log is available', async () => {
    const cfg = (await (await get('/_sandbox/config')).json()) as Record<string, unknown>;
    expect((cfg.users as { id: string }[]).map((u) => u.id)).toEqual(['U0ALICE', 'U0BOB', 'U0CAROL']);
    expect(cfg).toMatchObject({
      defaultUser: 'U0ALICE',
      defaultChannel: 'C0OPS',
      command: '/tsai',
      serviceLog: false,
    });
    expect((await get('/_sandbox/service-requests')).status).toBe(404);
  });

  it("passes the stand-in's control API through: snapshots per viewer and user actions", async () => {
    const r = await fetch(new URL('/_local/message', server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'U0BOB', channel: 'C0OPS', text: 'hello from bob' }),
    });
    expect(r.status).toBe(200);
    const snap = (await (await get('/_local/snapshot?viewer=U0ALICE')).json()) as {
      channels: { id: string; messages: { text: string; user: string }[] }[];
    };
    const ops = snap.channels.find((c) => c.id === 'C0OPS');
    expect(ops?.messages).toEqual([expect.objectContaining({ text: 'hello from bob', user: 'U0BOB' })]);
    const bad = await fetch(new URL('/_local/message', server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'U0NOBODY', channel: 'C0OPS', text: 'x' }),
    });
    expect(bad.status).toBe(400);
  });

  it('reads the slash command and global shortcuts from the manifest', () => {
    const m = readManifest(new URL('../../../manifest.yml', import.meta.url).pathname);
    expect(m.command).toBe('/tsai');
    expect(m.usageHint).toContain('help');
    expect(readManifest('/nonexistent/manifest.yml')).toEqual({ command: '/tsai', shortcuts: [] });
  });

  it('takes the assistant pane from the manifest, with its prompts; none when it declares none', () => {
    const m = readManifest(new URL('../../../manifest.yml', import.meta.url).pathname);
    expect(m.assistantView?.description).toMatch(/without the slash/);
    expect(m.assistantView?.suggestedPrompts.map((p) => p.message)).toContain('learn');
    const dir = mkdtempSync(join(tmpdir(), 'tsai-manifest-'));
    try {
      writeFileSync(join(dir, 'manifest.yml'), 'features:\n  bot_user: { display_name: tsai }\n');
      expect(readManifest(join(dir, 'manifest.yml')).assistantView).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes the App Home tabs from the manifest, as Slack does: Home only when enabled', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsai-manifest-'));
    try {
      const write = (yaml: string) => {
        writeFileSync(join(dir, 'manifest.yml'), yaml);
        return readManifest(join(dir, 'manifest.yml')).appHome;
      };
      expect(write('features:\n  bot_user: { display_name: tsai }\n')).toEqual({
        homeTabEnabled: false,
        messagesTabEnabled: true,
        messagesTabReadOnly: false,
      });
      expect(
        write('features:\n  app_home: { home_tab_enabled: true, messages_tab_enabled: false }\n'),
      ).toEqual({
        homeTabEnabled: true,
        messagesTabEnabled: false,
        messagesTabReadOnly: false,
      });
      expect(write('features:\n  app_home: { messages_tab_read_only_enabled: true }\n')).toMatchObject({
        messagesTabReadOnly: true,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("configures the stand-in's App Home from the project's manifest when the sandbox starts", async () => {
    const own = await startLocalSlack({ signingSecret: 's', botToken: 'xoxb-own' });
    try {
      const sandbox = await startSandbox({ slack: own });
      await sandbox.close();
      const manifest = readManifest(new URL('../../../manifest.yml', import.meta.url).pathname);
      expect(manifest.botEvents).toEqual(expect.arrayContaining(['app_mention', 'message.im']));
      expect(own.snapshot().app).toEqual({
        ...manifest.appHome,
        chatWritePublic: true,
        botEvents: manifest.botEvents,
        assistantView: manifest.assistantView,
      });
      expect(manifest.botEvents).toEqual(expect.arrayContaining(['assistant_thread_started']));
    } finally {
      await own.close();
    }
  });

  it('gives each persona an emulator token with their role, for the page to show them only; the tokens act as them', async () => {
    const emu = await startEmulator({ port: 0 });
    const sandbox = await startSandbox({ slack, emulatorUrl: emu.url });
    try {
      const cfg = (await (await fetch(new URL('/_sandbox/config', sandbox.url))).json()) as {
        serviceIdentities: Record<string, { name: string; role: string; token: string }>;
      };
      const ids = cfg.serviceIdentities;
      expect(Object.keys(ids).sort()).toEqual(['U0ALICE', 'U0BOB', 'U0CAROL']);
      expect(Object.values(ids).map(({ name, role }) => [name, role])).toEqual([
        ['alice', 'Owner'],
        ['bob', 'Manager'],
        ['carol', 'User'],
      ]);
      const startLive = (token: string) =>
        fetch(`${emu.url}/api/1.2/accounts/${SEED.accountId}/flows`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            flowType: 'STARTLIVEMODEL',
            name: 'night',
            spec: { model: SEED.models.pressureCommon },
          }),
        });
      expect((await startLive(ids.U0ALICE!.token)).status).toBe(201);
      expect((await startLive(ids.U0BOB!.token)).status).toBe(201);
      const refused = await startLive(ids.U0CAROL!.token);
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { message: string }).message).toContain('Manager or Owner');
      const log = (await (await fetch(`${emu.url}/_emulator/requests`)).json()) as { user: string }[];
      expect(log.map((r) => r.user)).toEqual(['alice', 'bob', 'carol']);
    } finally {
      await sandbox.close();
      await emu.close();
    }
  });

  it('falls back to a free port when the asked one is taken, instead of failing the whole start', async () => {
    const blocker = createServer();
    await new Promise<void>((ok) => blocker.listen(0, '127.0.0.1', () => ok()));
    const taken = (blocker.address() as { port: number }).port;
    try {
      const sandbox = await startSandbox({ slack, port: taken });
      try {
        expect(new URL(sandbox.url).port).not.toBe(String(taken));
        expect((await fetch(sandbox.url)).status).toBe(200);
      } finally {
        await sandbox.close();
      }
    } finally {
      blocker.close();
    }
  });
});
