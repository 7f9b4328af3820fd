import { type ChildProcess, fork, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { keepForScan, registerSecrets } from './logs.js';

/** What a child bot runs: the real start-up (`startAll`) from the transpiled sources. */
const CHILD = `
import { loadConfig } from './src/config.js';
import { settableClock } from './src/core/clock.js';
import { createLogger } from './src/log.js';
import { startAll } from './standins/start-all.js';
const config = loadConfig(process.env);
const logger = createLogger({ level: config.logLevel, secrets: config.secrets });
const clock = process.env.BOT_NOW_MS ? settableClock(Number(process.env.BOT_NOW_MS)).source : undefined;
const running = await startAll({ config, logger, clock, sweepIntervalMs: 600000 });
process.send({ port: running.slack.port() });
process.on('message', async (m) => {
  if (m === 'stop') {
    await running.stop();
    process.send({ stopped: true }, () => process.exit(0));
  }
});
`;

async function tsFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await tsFiles(p)));
    else if (e.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

/**
 * Transpiles src/ and standins/ into a temp dir once, so bots can run as separate Node processes (no
 * build step).
 */
export async function prepareBotProgram(): Promise<{ dir: string; cleanup(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'tsai-bot-proc-'));
  const root = resolve('.');
  const files = [...(await tsFiles(resolve('src'))), ...(await tsFiles(resolve('standins')))];
  for (const file of files) {
    const out = ts.transpileModule(await readFile(file, 'utf8'), {
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2022,
        verbatimModuleSyntax: true,
      },
    });
    const target = join(dir, relative(root, file)).replace(/\.ts$/, '.js');
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, out.outputText);
  }
  await writeFile(join(dir, 'package.json'), '{"type":"module"}');
  await writeFile(join(dir, 'bot.js'), CHILD);
  await symlink(resolve('node_modules'), join(dir, 'node_modules'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export interface BotProcess {
  port: number;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr (its JSON log lines) so far. */
  output(): string;
  stop(): Promise<void>;
}

/** Starts one bot as a child process with `env`; resolves once it listens. */
export function startBotProcess(dir: string, env: Record<string, string>): Promise<BotProcess> {
  const child = fork(join(dir, 'bot.js'), [], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  registerSecrets(...secretsOf(env));
  let out = '';
  const collect = (d: Buffer) => {
    out += String(d);
    keepForScan(`child-${child.pid}`, String(d));
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  return new Promise((ok, fail) => {
    child.once('exit', (code) =>
      fail(new Error(`bot process exited with ${code} before listening:\n${out}`)),
    );
    child.once('message', (m) => {
      const port = (m as { port?: number }).port;
      if (!port) return fail(new Error(`bot process did not report a port:\n${out}`));
      child.removeAllListeners('exit');
      ok({
        port,
        child,
        output: () => out,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.send('stop');
          }),
      });
    });
  });
}

export interface MainProcess {
  port: number;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Its JSON log lines so far, parsed. */
  logs(): Record<string, unknown>[];
  /** Resolves when it exits, with its code (null when a signal ended it). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The production bot as it is deployed: the bundle `npm run build` makes (rolldown.config.mjs). */
const PRODUCTION_BOT = resolve(import.meta.dirname, '../../dist/bot/main.js');

/**
 * Starts the production bot exactly as `npm run start:bot` does (configuration from `env`, signal
 * handling, logs on stdout) in `dir`, where no `.env` can change it; resolves once it listens. `nodeArgs`
 * go to node before the bot (a module preloaded to watch it, say).
 */
export function startMainProcess(
  dir: string,
  env: Record<string, string>,
  o: { nodeArgs?: readonly string[] } = {},
): Promise<MainProcess> {
  const child = spawn(process.execPath, [...(o.nodeArgs ?? []), PRODUCTION_BOT], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  registerSecrets(...secretsOf(env));
  let out = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((ok) =>
    child.once('exit', (code, signal) => ok({ code, signal })),
  );
  const logs = () =>
    out.split('\n').flatMap((l) => {
      if (!l.startsWith('{')) return [];
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return []; // a line still being written
      }
    });
  return new Promise((ok, fail) => {
    let listening = false;
    child.stdout?.on('data', (d: Buffer) => {
      out += String(d);
      keepForScan(`child-${child.pid}`, String(d));
      if (listening) return;
      const running = logs().find((l) => l.msg === 'tsai-chatops bot is running');
      if (running && typeof running.port === 'number') {
        listening = true;
        ok({ port: running.port, child, output: () => out, logs, exited });
      }
    });
    child.stderr?.on('data', (d: Buffer) => {
      out += String(d);
      keepForScan(`child-${child.pid}`, String(d));
    });
    void exited.then(({ code }) => {
      if (!listening) fail(new Error(`the bot exited with ${code} before listening:\n${out}`));
    });
  });
}

/** The secret values among a bot's environment, for the run's log scan. */
function secretsOf(env: Record<string, string>): string[] {
  return ['SLACK_BOT_TOKEN', 'SLACK_SIGNING_SECRET', 'SLACK_APP_TOKEN', 'TSAI_TOKEN'].flatMap((k) =>
    env[k] ? [env[k]] : [],
  );
}
