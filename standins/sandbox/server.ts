import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { handleControl } from '../localslack/control.js';
import type { LocalSlack } from '../localslack/index.js';
import { refuseForeign, servedHosts } from '../localslack/local-guard.js';
import type { ManifestSummary } from './manifest.js';
import type { ServiceIdentity } from './personas.js';

/**
 * The sandbox page's HTTP server: the page itself (HTML, CSS, and the browser script tsc compiles from
 * `standins/sandbox/web/`), the stand-in's `/_local` control API served in-process, the page's settings and a
 * read-only view of the emulator's request log. Loopback only, and only for its own page
 * (localslack/local-guard.ts).
 */
export interface SandboxServerOptions {
  slack: LocalSlack;
  port?: number;
  host?: string;
  defaultUser?: string;
  defaultChannel?: string;
  /** The app's slash command and global shortcuts (from manifest.yml). */
  manifest?: ManifestSummary;
  /** The emulator's base URL, when the bot uses the embedded emulator: enables the "Service requests" panel. */
  emulatorUrl?: () => string | undefined;
  /** Each person's own emulator token by Slack user ID, shown to them for `/tsai connect`. */
  serviceIdentities?: ReadonlyMap<string, ServiceIdentity>;
  /** The bot's "Add to Slack" page, offered in a workspace where the app is not installed. */
  installUrl?: string;
  /** A workspace's own service account by team ID, shown to its people for `/tsai setup`. */
  workspaceServices?: Record<string, { url: string; accountId: string; token: string }>;
}

export interface SandboxServer {
  url: string;
  close(): Promise<void>;
}

const here = dirname(fileURLToPath(import.meta.url));
/** The checkout: the nearest folder above this module with a package.json (from the sources or dist/). */
export const PROJECT_ROOT = projectRoot(here);
function projectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return resolve(here, '..', '..');
  }
}
const root = PROJECT_ROOT;
// Compiled script next to this module when running from dist; HTML/CSS from the sources otherwise.
const ASSET_DIRS = [
  join(here, 'web'),
  join(root, 'dist', 'standins', 'sandbox', 'web'),
  join(root, 'standins', 'sandbox', 'web'),
];

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/**
 * The page's emoji font (Noto Color Emoji, SIL Open Font License, from @fontsource/noto-color-emoji), served
 * from the installed package: emoji look the same on every machine, with nothing fetched from elsewhere.
 */
export const EMOJI_FONT_PATH = '/fonts/noto-color-emoji.woff2';
const emojiFontFile = createRequire(import.meta.url).resolve(
  '@fontsource/noto-color-emoji/files/noto-color-emoji-emoji-400-normal.woff2',
);

export function findAsset(name: string): string | undefined {
  if (!/^[\w-]+(\.[\w-]+)*$/.test(name)) return undefined;
  return ASSET_DIRS.map((d) => join(d, name)).find((p) => existsSync(p));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** No inline script or style, nothing loaded from elsewhere: the page only talks to this server. */
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; connect-src 'self'; " +
  "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, {
    'content-type': type,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    ...(type.startsWith('text/html') ? { 'content-security-policy': CSP } : {}),
  });
  res.end(body);
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(body));

export async function startSandboxServer(o: SandboxServerOptions): Promise<SandboxServer> {
  const { slack } = o;
  const host = o.host ?? '127.0.0.1';

  function asset(res: ServerResponse, name: string): void {
    const path = findAsset(name);
    if (!path) {
      const hint = name.endsWith('.js') ? ' (the browser script is compiled by `npm run build`)' : '';
      send(res, 404, 'text/plain; charset=utf-8', `not found: ${name}${hint}\n`);
      return;
    }
    const ext = name.slice(name.lastIndexOf('.'));
    send(res, 200, TYPES[ext] ?? 'application/octet-stream', readFileSync(path));
  }

  let hosts = new Set<string>();
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    const refused = refuseForeign(req, hosts);
    if (refused) return json(res, refused.status, { error: refused.error });
    if (path.startsWith('/_local/')) return handleControl(slack, req, url, await readBody(req), res);
    if (req.method !== 'GET') return json(res, 405, { error: 'method not allowed' });
    if (path === '/' || path === '/index.html') return asset(res, 'index.html');
    if (path === '/sandbox.css') return asset(res, 'sandbox.css');
    if (path === EMOJI_FONT_PATH) return send(res, 200, 'font/woff2', readFileSync(emojiFontFile));
    const web = /^\/web\/([\w.-]+\.(?:js|js\.map))$/.exec(path);
    if (web) return asset(res, web[1]!);
    if (path === '/_sandbox/config') {
      const users = [...slack.state.users.values()].filter((u) => !u.isBot);
      return json(res, 200, {
        users,
        defaultUser: o.defaultUser ?? users[0]?.id,
        defaultChannel: o.defaultChannel ?? [...slack.state.channels.keys()][0],
        command: o.manifest?.command ?? '/tsai',
        usageHint: o.manifest?.usageHint,
        description: o.manifest?.description,
        shortcuts: o.manifest?.shortcuts ?? [],
        botUserId: slack.botUserId,
        usergroups: [...slack.state.usergroups.values()].map((g) => ({ id: g.id, handle: g.handle })),
        serviceLog: Boolean(o.emulatorUrl?.()),
        workflows: Object.keys(slack.functions()).length > 0,
        serviceIdentities: Object.fromEntries(o.serviceIdentities ?? []),
        ...(o.installUrl ? { installUrl: o.installUrl } : {}),
        ...(o.workspaceServices ? { workspaceServices: o.workspaceServices } : {}),
      });
    }
    if (path === '/_sandbox/service-requests') {
      const base = o.emulatorUrl?.();
      if (!base) return json(res, 404, { error: 'the bot is not using the embedded emulator' });
      try {
        const r = await fetch(new URL('/_emulator/requests', base), { signal: AbortSignal.timeout(5000) });
        return send(res, r.status, 'application/json; charset=utf-8', await r.text());
      } catch (err) {
        return json(res, 502, { error: `the emulator did not answer: ${String(err)}` });
      }
    }
    const perm = /^\/archives\/([A-Z0-9]+)\/p\d+$/.exec(path);
    if (perm) {
      res.writeHead(302, { location: `/#channel=${perm[1]}` });
      return void res.end();
    }
    if (path === '/favicon.ico') return send(res, 204, 'text/plain', '');
    json(res, 404, { error: 'not found' });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) json(res, 500, { error: String(err) });
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(o.port ?? 0, host, () => ok());
  });
  const { port } = server.address() as AddressInfo;
  hosts = servedHosts(host, port);
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}/`,
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}
