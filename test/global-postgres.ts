import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Gives the PostgreSQL store suites a real server without any set-up by the developer: when
 * TEST_DATABASE_URL is not set and PostgreSQL's binaries are installed (Debian's `postgresql`
 * package, which `.ci/run` installs), a throwaway cluster is created in a temp dir on a free
 * loopback port for this test run and removed afterwards. Without the binaries the suites are
 * skipped with a notice (and fail under CI=true, see test/support/pg.ts).
 */
export default async function setup(): Promise<(() => void) | undefined> {
  if (process.env.TEST_DATABASE_URL) return undefined;
  const bin = findPgBin();
  if (!bin) return undefined;

  const dir = mkdtempSync(join(tmpdir(), 'tsai-test-pg-'));
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args], { stdio: 'pipe' })
      : execFileSync(join(bin, cmd), args, { stdio: 'pipe' });
  if (asRoot) chownSync(dir, uid('postgres'), uid('postgres', 'g'));
  const port = await freePort();
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
  run('pg_ctl', [
    '-D',
    data,
    '-l',
    join(dir, 'server.log'),
    '-w',
    '-t',
    '60',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
    'start',
  ]);
  run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'tsai_test']);
  process.env.TEST_DATABASE_URL = `postgres://postgres@127.0.0.1:${port}/tsai_test`;
  console.log(`PostgreSQL for the store tests: throwaway cluster at 127.0.0.1:${port}`);

  return () => {
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

/** The newest installed PostgreSQL's bin directory (Debian's layout), if any. */
export function findPgBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : undefined;
}

export function uid(user: string, kind: 'u' | 'g' = 'u'): number {
  const out = spawnSync('id', [`-${kind}`, user], { encoding: 'utf8' });
  return Number(out.stdout.trim());
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
