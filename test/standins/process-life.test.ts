import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../standins/emulator/index.js';
import { startLocalSlack } from '../../standins/localslack/index.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

interface NpmRun {
  npm: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once `text` has appeared on the stream. */
  seen(stream: 'stdout' | 'stderr', text: string): Promise<void>;
  exited: Promise<number | null>;
}

/** `npm run <script>` in this checkout, as a person runs it, with its own environment only. */
function npmRun(script: string, env: Record<string, string>): NpmRun {
  const npm = spawn('npm', ['run', '--silent', script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  const waiting: { stream: 'stdout' | 'stderr'; text: string; resolve(): void }[] = [];
  const read = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
    out[stream] += chunk.toString('utf8');
    for (const w of waiting.filter((w) => w.stream === stream && out[stream].includes(w.text))) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve();
    }
  };
  npm.stdout?.on('data', read('stdout'));
  npm.stderr?.on('data', read('stderr'));
  const exited = new Promise<number | null>((r) => npm.once('exit', (code) => r(code)));
  return {
    npm,
    stdout: () => out.stdout,
    stderr: () => out.stderr,
    seen: (stream, text) =>
      out[stream].includes(text)
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            waiting.push({ stream, text, resolve });
            void exited.then((code) =>
              reject(new Error(`npm exited (${code}) before "${text}":\n${out.stdout}\n${out.stderr}`)),
            );
          }),
    exited,
  };
}

/** The pid of the node process that wrote the JSON log lines. */
function loggingPid(stdout: string): number {
  const line = stdout.split('\n').find((l) => l.startsWith('{') && l.includes('"pid"'));
  return (JSON.parse(line ?? '{}') as { pid: number }).pid;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A signal to the npm process alone, as a process manager sends it, must reach the bot: it shuts down
 * gracefully ("stopped") and nothing is left running after npm has exited.
 */
describe('npm start and npm run start:bot as processes', { timeout: 120_000 }, () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  const tempDb = () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsai-process-life-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return join(dir, 'bot.sqlite');
  };
  const leaveNothingBehind = (run: NpmRun) =>
    cleanups.push(() => {
      const pid = /"pid":(\d+)/.exec(run.stdout())?.[1];
      if (pid && alive(Number(pid))) process.kill(Number(pid), 'SIGKILL');
      if (run.npm.exitCode === null) run.npm.kill('SIGKILL');
    });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'npm start: %s to npm stops the sandbox gracefully',
    async (signal) => {
      const run = npmRun('start', {
        PORT: '0',
        SANDBOX_PORT: '0',
        DATABASE_URL: tempDb(),
        LOG_LEVEL: 'info',
      });
      leaveNothingBehind(run);
      await run.seen('stderr', 'SANDBOX: open');
      const pid = loggingPid(run.stdout());
      expect(pid).not.toBe(run.npm.pid);
      run.npm.kill(signal);
      expect(await run.exited).toBe(0);
      expect(run.stdout()).toContain('"msg":"stopped"');
      expect(alive(pid)).toBe(false);
    },
  );

  it('npm start: SIGTERM while it is still starting stops it once it is up', async () => {
    const run = npmRun('start', { PORT: '0', SANDBOX_PORT: '0', DATABASE_URL: tempDb(), LOG_LEVEL: 'info' });
    leaveNothingBehind(run);
    // The first notice is written before the local Slack, the bot and the sandbox have started.
    await run.seen('stdout', 'BUILT-IN EMULATOR');
    const pid = loggingPid(run.stdout());
    run.npm.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(run.stdout()).toContain('"msg":"stopped"');
    expect(alive(pid)).toBe(false);
  });

  it('npm run start:bot: SIGTERM to npm stops the production bot gracefully', async () => {
    const emulator = await startEmulator({ host: '127.0.0.1', port: 0 });
    cleanups.push(() => emulator.close());
    const slack = await startLocalSlack({
      signingSecret: 'process-life-secret',
      botToken: 'xoxb-process-life',
    });
    cleanups.push(() => slack.close());
    const run = npmRun('start:bot', {
      PORT: '0',
      DATABASE_URL: tempDb(),
      LOG_LEVEL: 'info',
      TSAI_BASE_URL: emulator.url,
      TSAI_TOKEN: emulator.token,
      TSAI_ACCOUNT_ID: emulator.accountId,
      SLACK_BOT_TOKEN: 'xoxb-process-life',
      SLACK_SIGNING_SECRET: 'process-life-secret',
      SLACK_API_URL: slack.apiUrl,
    });
    leaveNothingBehind(run);
    await run.seen('stdout', 'bot is running');
    const pid = loggingPid(run.stdout());
    run.npm.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(run.stdout()).toContain('"msg":"stopped"');
    expect(alive(pid)).toBe(false);
  });
});
