// What the production bot loads, as a deployment runs it: the bundle as a process, every module each of its
// threads loaded recorded by a preloaded module (support/module-record.mjs) and read when it has stopped.
// What a thread loads it keeps for its life: a deployment loads nothing it does not use.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../standins/emulator/index.js';
import { SEED } from '../../standins/emulator/index.js';
import type { LocalSlack } from '../../standins/localslack/index.js';
import { startMainProcess } from '../support/bot-process.js';
import { BOT_TOKEN, commandAndReply, SIGNING_SECRET, startBackends } from '../support/harness.js';
import { registerSecrets } from '../support/logs.js';
import { waitUntil } from '../support/patience.js';

const RECORDER = fileURLToPath(new URL('../support/module-record.mjs', import.meta.url));
const BUNDLE = resolve(import.meta.dirname, '../../dist/bot');
const USER = 'U0ALICE';
const CHANNEL = 'C0OPS';

interface Loaded {
  /** npm packages, by name, that some thread loaded. */
  packages: Set<string>;
  /** Their files, by their path in node_modules. */
  packageFiles: string[];
  /** The bot's own modules (by their path in dist/src) in the bundle's files that some thread loaded. */
  modules: string[];
  /** Node's own modules that some thread loaded (`internal/deps/undici/undici`, …). */
  builtin: Set<string>;
  threads: string[];
}

/** A file of node_modules by its path there, and the package it belongs to. */
const inNodeModules = (file: string) =>
  file.slice(file.lastIndexOf('node_modules/') + 'node_modules/'.length);
const packageOf = (path: string) => {
  const parts = path.split('/');
  return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
};

/** What the threads of a stopped bot loaded, as they recorded it in `dir`. */
function loadedIn(dir: string): Loaded {
  const threads = readdirSync(dir).filter((f) => f.endsWith('.json'));
  const records = threads.map(
    (t) =>
      JSON.parse(readFileSync(join(dir, t), 'utf8')) as { esm: string[]; cjs: string[]; builtin: string[] },
  );
  const files = records.flatMap((r) => [
    ...r.esm.filter((u) => u.startsWith('file:')).map((u) => fileURLToPath(u)),
    ...r.cjs,
  ]);
  const bundled = [...new Set(files.filter((f) => f.startsWith(BUNDLE)))];
  const packageFiles = [...new Set(files.filter((f) => f.includes('node_modules/')).map(inNodeModules))];
  return {
    packages: new Set(packageFiles.map(packageOf)),
    packageFiles,
    modules: bundled.flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(/^\/\/ dist\/src\/(\S+\.js)$/gm)].map((m) => m[1]!),
    ),
    threads: threads.map((t) => t.replace(/\.json$/, '')),
    builtin: new Set(records.flatMap((r) => r.builtin)),
  };
}

let emulator: RunningEmulator;
let slack: LocalSlack;
const dirs: string[] = [];
beforeAll(async () => {
  ({ emulator, slack } = await startBackends({
    users: [{ id: USER, name: 'alice', tz: 'UTC' }],
    channels: [{ id: CHANNEL, name: 'plant-ops' }],
  }));
});
afterAll(async () => {
  await slack?.close();
  await emulator?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Runs the bundle with `env`, lets `use` drive it, stops it, and returns what its threads loaded. */
async function loadedBy(
  env: Record<string, string>,
  use: (origin: string) => Promise<void>,
): Promise<Loaded & { output: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'tsai-loads-'));
  const record = join(dir, 'loaded');
  dirs.push(dir);
  mkdirSync(record);
  const proc = await startMainProcess(
    dir,
    {
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.apiUrl,
      TSAI_BASE_URL: emulator.url,
      DATABASE_URL: join(dir, 'bot.sqlite'),
      PORT: '0',
      LOG_LEVEL: 'info',
      TSAI_METRICS_PORT: 'off',
      RECORD_MODULES_DIR: record,
      ...env,
    },
    { nodeArgs: ['--import', RECORDER] },
  );
  const origin = `http://127.0.0.1:${proc.port}`;
  slack.setBotEndpoint(`${origin}/slack/events`);
  await use(origin);
  // Each thread writes what it loaded when asked, and again when it ends (a worker ended by the stop's
  // bound does not): asked now, both have written before the stop.
  proc.child.kill('SIGUSR2');
  await waitUntil(() => expect(readdirSync(record).some((f) => f.startsWith('worker-'))).toBe(true));
  proc.child.kill('SIGTERM');
  const { code } = await proc.exited;
  expect(code, proc.output()).toBe(0);
  return { ...loadedIn(record), output: proc.output() };
}

describe('a deployment loads what it uses', () => {
  it('with one bot token and the pane off: nothing of OAuth, Socket Mode, "Add to Slack", its setup or the pane, on either thread', async () => {
    const loaded = await loadedBy(
      {
        SLACK_BOT_TOKEN: BOT_TOKEN,
        TSAI_ASSISTANT_PANE: 'false',
        TSAI_TOKEN: emulator.token,
        TSAI_ACCOUNT_ID: emulator.accountId,
      },
      async () => {
        // Answered in the ack, then by the follow-up worker, then the Home it publishes.
        expect((await commandAndReply(slack, 'help', USER, CHANNEL)).text).toBeTruthy();
        const shown = await commandAndReply(
          slack,
          `workspace show ${SEED.workspaces.pumpStation}`,
          USER,
          CHANNEL,
        );
        expect(JSON.stringify(shown.blocks ?? shown.text)).toContain('Pump station A');
        await slack.openHome({ user: USER });
        await slack.waitFor(() => slack.state.home.get(USER), 60_000, "Alice's Home");
      },
    );
    expect(loaded.threads).toEqual(expect.arrayContaining(['main', expect.stringMatching(/^worker-/)]));
    expect(loaded.modules).toContain('slack/command/listener.js');
    expect(loaded.modules).toContain('slack/home/views.js');
    expect(loaded.packages).toContain('@slack/web-api');
    expect(
      ['@slack/oauth', 'jsonwebtoken', '@slack/socket-mode', 'express'].filter((p) => loaded.packages.has(p)),
    ).toEqual([]);
    // undici only as the bot's HTTP client loads it (http.ts: its Agent and `request`), not its entry.
    expect(
      loaded.packageFiles.filter((f) => f === 'undici/index.js' || f.startsWith('undici/lib/web/')),
    ).toEqual([]);
    // Nor Node's own copy of it: Slack's Web API is called through that same client (slack/web-fetch.ts).
    expect(loaded.builtin).toContain('internal/worker/io');
    expect(loaded.builtin).not.toContain('internal/deps/undici/undici');
    expect(loaded.modules.filter((m) => /^slack\/(install|setup|assistant)\//.test(m))).toEqual([]);
  });

  it('with "Add to Slack": its feature, its setup, and OAuth once the install page is visited (so the check above can fail)', async () => {
    const key = randomBytes(32).toString('base64');
    const stateSecret = randomBytes(16).toString('hex');
    registerSecrets(key, stateSecret, 'client-secret-of-the-app');
    const loaded = await loadedBy(
      {
        SLACK_CLIENT_ID: '1234.5678',
        SLACK_CLIENT_SECRET: 'client-secret-of-the-app',
        SLACK_STATE_SECRET: stateSecret,
        TSAI_SECRET_KEY: key,
      },
      async (origin) => {
        const page = await waitUntil(async () => {
          const res = await fetch(`${origin}/slack/install`);
          expect(res.status).toBe(200);
          return res.text();
        });
        expect(page).toContain('Add to Slack');
      },
    );
    expect(loaded.modules).toContain('slack/install/installer.js');
    expect(loaded.modules).toContain('slack/setup/listeners.js');
    // The pane is on unless turned off.
    expect(loaded.modules).toContain('slack/assistant/listener.js');
    expect(loaded.packages).toContain('@slack/oauth');
  });
});
