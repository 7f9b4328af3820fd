import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './browser.js';

/** The product exactly as `npm start` runs it after the build: `node dist/standins/main.js`, no Slack or service configured. */
export interface Product {
  sandboxUrl: string;
  emulatorUrl: string;
  dir: string;
  output(): string;
  /** Service API requests the emulator received (its control requests excluded). */
  serviceRequests(): Promise<{ method: string; path: string; body?: unknown; status?: number }[]>;
  stop(): Promise<void>;
}

export async function startProduct(): Promise<Product> {
  const dir = mkdtempSync(join(tmpdir(), 'tsai-product-'));
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^(SLACK_|TSAI_)/.test(k) || ['PORT', 'SANDBOX_PORT', 'DATABASE_URL'].includes(k))
      continue;
    env[k] = v;
  }
  Object.assign(env, {
    PORT: '0',
    SANDBOX_PORT: '0',
    DATABASE_URL: join(dir, 'tsai.sqlite'),
    LOG_LEVEL: 'warn',
  });
  // cwd is a temp dir so a developer's .env is not picked up.
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'dist', 'standins', 'main.js')], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += String(d);
  });
  child.stderr?.on('data', (d) => {
    out += String(d);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const urls = await new Promise<{ sandbox: string; emulator: string }>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the product did not start within 30 s:\n${out}`)),
      30_000,
    );
    const check = () => {
      const sandbox = /SANDBOX: open (\S+) in your browser/.exec(out)?.[1];
      const emulator = /BUILT-IN EMULATOR at (http:\/\/[\d.]+:\d+)/.exec(out)?.[1];
      if (sandbox && emulator) {
        clearTimeout(timer);
        resolve({ sandbox, emulator });
      }
    };
    child.stderr?.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the product exited (${code}) before it was ready:\n${out}`));
    });
  });
  return {
    sandboxUrl: urls.sandbox,
    emulatorUrl: urls.emulator,
    dir,
    output: () => out,
    async serviceRequests() {
      const r = await fetch(`${urls.emulator}/_emulator/requests`);
      const all = (await r.json()) as { method: string; path: string; body?: unknown; status?: number }[];
      return all.filter((x) => !x.path.startsWith('/_emulator'));
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(killer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
