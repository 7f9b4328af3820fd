import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SlashCommand } from '@slack/bolt';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { SYSTEM_CLOCK } from '../../src/core/clock.js';
import { createLogger } from '../../src/log.js';
import type { Job } from '../../src/slack/runtime/jobs.js';
import { startWorkerHost, type WorkerFollowUps } from '../../src/slack/runtime/worker-host.js';
import { captureLogs } from '../support/logs.js';
import { waitUntil } from '../support/patience.js';

const SCRIPT = new URL('../support/scripted-worker.mjs', import.meta.url);

/** A response_url endpoint: what each URL was sent, in order. */
async function responseUrls(): Promise<{
  url(name: string): string;
  got(name: string): string[];
  close(): Promise<void>;
}> {
  const got = new Map<string, string[]>();
  const server: Server = createServer(async (req, res) => {
    let body = '';
    for await (const c of req) body += String(c);
    const list = got.get(req.url ?? '') ?? [];
    list.push((JSON.parse(body) as { text: string }).text);
    got.set(req.url ?? '', list);
    res.writeHead(200).end('ok');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (name) => `http://127.0.0.1:${port}/${name}`,
    got: (name) => got.get(`/${name}`) ?? [],
    close: () => new Promise((ok) => server.close(() => ok())),
  };
}

function command(text: string, responseUrl: string): Job {
  return {
    kind: 'command',
    command: {
      command: '/tsai',
      text,
      user_id: 'U0ALICE',
      user_name: 'alice',
      channel_id: 'C0OPS',
      channel_name: 'ops',
      team_id: 'T0',
      team_domain: 'local',
      response_url: responseUrl,
      trigger_id: 't',
      api_app_id: 'A0',
      token: 'unused',
    } as SlashCommand,
  };
}

/** What `probe` answers once it answers; a real worker thread starts late on a busy machine. */
const until = <T>(probe: () => T | undefined): Promise<T> =>
  waitUntil(() => {
    const v = probe();
    if (v === undefined) throw new Error('not yet');
    return v;
  });

describe('startWorkerHost (a real worker thread running a scripted worker)', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  const { lines: logs, destination } = captureLogs();
  const logger = createLogger({
    level: 'info',
    destination,
  });
  const written: string[] = [];
  const setup = (extra: Record<string, unknown> = {}) => ({
    config: loadConfig({}),
    service: { baseUrl: 'http://127.0.0.1:1', accountId: 'a', token: 't' },
    clock: SYSTEM_CLOCK,
    ...extra,
  });
  // What the product does with a notice: post it through the job's response_url.
  const tell = async (n: { responseUrl?: string }, text: string) =>
    fetch(n.responseUrl!, { method: 'POST', body: JSON.stringify({ text }) });
  const host = (o: Partial<Parameters<typeof startWorkerHost>[0]> = {}): WorkerFollowUps =>
    startWorkerHost({ setup: setup(), logger, script: SCRIPT, tell, writeLog: (l) => written.push(l), ...o });
  const start = (o: Partial<Parameters<typeof startWorkerHost>[0]> = {}): WorkerFollowUps => {
    const w = host(o);
    cleanups.push(() => w.stop());
    return w;
  };

  it('runs jobs on the worker, in the order given, and its log lines reach the process log', async () => {
    const urls = await responseUrls();
    cleanups.push(urls.close);
    const w = start();
    await w.ready;
    w.run(command('one', urls.url('a')));
    w.run(command('two', urls.url('a')));
    await until(() => (urls.got('a').length === 2 ? true : undefined));
    expect(urls.got('a')).toEqual(['ran one', 'ran two']);
    await until(() => (written.some((l) => l.includes('ran two')) ? true : undefined));
  });

  // A job that must open a view in 3 s: the worker's if it begins it in time, else this thread's; never both.
  it('a job the worker begins in time runs there; one it is slow to begin runs here, and the worker then drops it', async () => {
    const urls = await responseUrls();
    cleanups.push(urls.close);
    const w = start({ takeBackAfterMs: 100 });
    await w.ready;
    const takenHere: string[] = [];
    const here = (job: Job) => takenHere.push(job.kind === 'command' ? job.command.text : job.kind);
    w.runOrTake(command('prompt', urls.url('prompt')), here);
    expect(await until(() => urls.got('prompt')[0])).toBe('ran prompt');
    w.runOrTake(command('late-claim', urls.url('late')), here);
    await until(() => (takenHere.length > 0 ? true : undefined));
    expect(takenHere).toEqual(['late-claim']);
    // The worker asks after 500 ms, is told no, and says it is done without running it.
    await until(() => (written.some((l) => l.includes('dropped late-claim')) ? true : undefined));
    expect(urls.got('late')).toEqual([]);
    expect(urls.got('prompt')).toEqual(['ran prompt']);
  });

  it('when the worker dies, every job it had in hand is told its outcome is unknown, and a new worker takes the next ones', async () => {
    const urls = await responseUrls();
    cleanups.push(urls.close);
    const w = start();
    await w.ready;
    w.run(command('hang', urls.url('hung')));
    w.run(command('crash', urls.url('crashed')));
    const hung = await until(() => urls.got('hung')[0]);
    expect(hung).toContain('interrupted while handling `/tsai hang`');
    expect(hung).toContain('may or may not have reached the service');
    expect(await until(() => urls.got('crashed')[0])).toContain('`/tsai crash`');
    w.run(command('after &lt;restart&gt;', urls.url('after')));
    expect(await until(() => urls.got('after')[0])).toBe('ran after &lt;restart&gt;');
    expect(logs.join('')).toContain('the follow-up worker stopped; starting a new one');
  });

  // A restart that cannot start (the store down) began nothing: what it was sent waits for the next worker,
  // and its person gets the answer, not "interrupted".
  it('jobs sent to a new worker that then cannot start wait for the next one and run there', async () => {
    const urls = await responseUrls();
    cleanups.push(urls.close);
    const gate = join(mkdtempSync(join(tmpdir(), 'worker-gate-')), 'gate');
    const w = start({ setup: setup({ startGate: gate }) });
    await w.ready;
    writeFileSync(gate, '');
    w.run(command('crash', urls.url('crashed')));
    await until(() => urls.got('crashed')[0]);
    w.run(command('sent while restarting', urls.url('waited')));
    writeFileSync(gate, 'fail');
    // The failed start is logged, or (as before) the person was already told something.
    const failedStart = () => logs.join('').includes('could not start; its jobs wait');
    await until(() => (failedStart() || urls.got('waited').length ? true : undefined));
    rmSync(gate);
    expect(await until(() => urls.got('waited')[0])).toBe('ran sent while restarting');
    expect(urls.got('waited')).toHaveLength(1);
  });

  it('a worker that cannot start makes `ready` reject with its reason', async () => {
    const w = host({ setup: setup({ failStart: true }) });
    await expect(w.ready).rejects.toThrow('scripted start failure');
    await w.stop();
  });

  it('stop drains the worker; afterwards a job is refused with a message', async () => {
    const urls = await responseUrls();
    cleanups.push(urls.close);
    const w = host({ drainTimeoutMs: 200 });
    await w.ready;
    w.run(command('quick', urls.url('q')));
    await until(() => urls.got('q')[0]);
    await w.stop();
    // After stop, a command is refused with a message rather than lost silently.
    w.run(command('late', urls.url('late')));
    expect(await until(() => urls.got('late')[0])).toContain('could not take `/tsai late`');
  });
});
