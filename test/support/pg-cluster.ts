import { execFile } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe } from 'vitest';
import { findPgBin, freePort, uid } from '../global-postgres.js';

const run = promisify(execFile);
const BIN = findPgBin();

/**
 * Suites that stop, restart or freeze PostgreSQL get a cluster of their own (never the shared test
 * cluster, which other files use at the same time). Without the binaries they are skipped locally and
 * fail under CI=true, as the PostgreSQL store suites do.
 */
export const describeWithPgCluster = (() => {
  if (!BIN && process.env.CI === 'true')
    throw new Error('PostgreSQL binaries are missing but CI=true: the store-outage suites must run in CI');
  return describe.skipIf(!BIN);
})();

export interface PgCluster {
  /** `postgres://postgres@127.0.0.1:<port>/tsai`; the port stays the same across restarts. */
  url: string;
  /** `pg_ctl stop -m fast`: open connections are terminated, new ones refused. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** `pg_ctl restart -m fast`. */
  restart(): Promise<void>;
  /** SIGSTOP to the server and every backend: connections stay open and nothing answers. */
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}

/** A throwaway PostgreSQL cluster on a free loopback port, with database `tsai`, for one suite. */
export async function startPgCluster(): Promise<PgCluster> {
  if (!BIN) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql');
  const dir = mkdtempSync(join(tmpdir(), 'tsai-pg-cluster-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(dir, uid('postgres'), uid('postgres', 'g'));
  const pg = async (cmd: string, args: string[]) => {
    const file = join(BIN, cmd);
    await (asRoot ? run('runuser', ['-u', 'postgres', '--', file, ...args]) : run(file, args));
  };
  const data = join(dir, 'data');
  const port = await freePort();
  const ctl = (action: string, extra: string[] = []) =>
    pg('pg_ctl', [
      '-D',
      data,
      '-l',
      join(dir, 'server.log'),
      '-w',
      '-t',
      '60',
      ...extra,
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      action,
    ]);
  await pg('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  await ctl('start');
  await pg('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'tsai']);
  let running = true;
  let frozen: number[] = [];

  const processes = (): number[] => {
    const main = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = readdirSync('/proc')
      .filter((p) => /^\d+$/.test(p))
      .filter((p) => {
        try {
          const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === main;
        } catch {
          return false;
        }
      })
      .map(Number);
    return [main, ...children];
  };
  const signal = (pids: number[], sig: NodeJS.Signals) => {
    for (const pid of pids) {
      try {
        process.kill(pid, sig);
      } catch {
        // gone already
      }
    }
  };

  const cluster: PgCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/tsai`,
    async stop() {
      await ctl('stop', ['-m', 'fast']);
      running = false;
    },
    async start() {
      await ctl('start');
      running = true;
    },
    async restart() {
      await ctl('restart', ['-m', 'fast']);
      running = true;
    },
    freeze() {
      frozen = processes();
      signal(frozen, 'SIGSTOP');
    },
    thaw() {
      signal(frozen, 'SIGCONT');
      frozen = [];
    },
    async close() {
      cluster.thaw();
      try {
        if (running) await ctl('stop', ['-m', 'immediate']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
  return cluster;
}
