import { fork } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/index.js';
import { newRequest } from '../support/store-conformance.js';

// Real concurrency on one SQLite file: separate OS processes, each with its own connection, race the
// same decision. The store modules are transpiled to plain JS so child processes can load them.
const CHILD = `
import { SqliteStore } from './store/sqlite.js';
const [file, id, name, count] = process.argv.slice(2);
const store = await SqliteStore.open(file);
process.send({ ready: true });
process.on('message', async () => {
  const results = [];
  const pending = [];
  for (let i = 0; i < Number(count); i++) {
    pending.push(store.decideApproval({ id, decision: 'approve', by: name + '-' + i, at: Date.UTC(2026, 10, 22, 10) }));
  }
  for (const r of await Promise.all(pending)) results.push(r.ok ? { ok: true, by: r.request.decidedBy } : { ok: false, by: r.current?.decidedBy });
  await store.close();
  process.send({ results }, () => process.exit(0));
});
`;

/** Holds the database's write lock (as a sqlite3 shell with an open transaction would) until told. */
const HOLDER = `
import Database from 'better-sqlite3';
const db = new Database(process.argv[2]);
db.exec('BEGIN IMMEDIATE');
process.send({ locked: true });
process.on('message', () => {
  db.exec('COMMIT');
  db.close();
  process.send({ released: true }, () => process.exit(0));
});
`;

/** A bot's store opening the file: it says so (once the message is out), then opens, then reports. */
const OPENER = `
import { SqliteStore } from './store/sqlite.js';
process.send({ opening: true }, async () => {
  try {
    const store = await SqliteStore.open(process.argv[2]);
    const migrations = await store.appliedMigrations();
    await store.close();
    process.send({ opened: migrations.length }, () => process.exit(0));
  } catch (e) {
    process.send({ failed: e.message }, () => process.exit(0));
  }
});
`;

describe('SQLite: several processes deciding at once', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tsai-procs-'));
    for (const f of await readdir('src/store', { recursive: true })) {
      if (!f.endsWith('.ts')) continue;
      const src = await readFile(resolve('src/store', f), 'utf8');
      const out = ts.transpileModule(src, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      });
      await mkdir(dirname(join(dir, 'store', f)), { recursive: true });
      await writeFile(join(dir, 'store', f.replace(/\.ts$/, '.js')), out.outputText);
    }
    await writeFile(join(dir, 'package.json'), '{"type":"module"}');
    await writeFile(join(dir, 'child.js'), CHILD);
    await writeFile(join(dir, 'holder.js'), HOLDER);
    await writeFile(join(dir, 'opener.js'), OPENER);
    await symlink(resolve('node_modules'), join(dir, 'node_modules'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('4 processes x 5 concurrent approvals: exactly one wins, every loser sees the winner', async () => {
    const file = join(dir, 'db', 'bot.sqlite');
    const setup = await SqliteStore.open(file);
    const req = await setup.createApproval(newRequest({ expiresAt: Date.UTC(2030, 0, 1) }));
    await setup.close();

    const children = Array.from({ length: 4 }, (_, p) =>
      fork(join(dir, 'child.js'), [file, req.id, `U0P${p}`, '5'], { stdio: 'inherit' }),
    );
    const ready = children.map((c) => new Promise((ok) => c.once('message', ok)));
    await Promise.all(ready);
    const done = children.map(
      (c) =>
        new Promise<{ ok: boolean; by: string }[]>((ok, fail) => {
          c.once('message', (m) => ok((m as { results: { ok: boolean; by: string }[] }).results));
          c.once('exit', (code) => code !== 0 && fail(new Error(`child exited with ${code}`)));
        }),
    );
    for (const c of children) c.send('go');
    const results = (await Promise.all(done)).flat();
    expect(results).toHaveLength(20);
    const winners = results.filter((r) => r.ok);
    expect(winners).toHaveLength(1);
    for (const r of results) expect(r.by).toBe(winners[0]!.by);

    const check = await SqliteStore.open(file);
    expect(await check.getApproval(req.id)).toMatchObject({
      status: 'executing',
      attempts: 1,
      decidedBy: winners[0]!.by,
    });
    await check.close();
  });

  const holdLock = async (file: string) => {
    const holder = fork(join(dir, 'holder.js'), [file], { stdio: 'inherit' });
    await new Promise((ok) => holder.once('message', ok));
    return {
      release: () =>
        new Promise<void>((ok) => {
          holder.once('exit', () => ok());
          holder.send('release');
        }),
    };
  };

  it('a bot opening the file while another process holds its write lock fails with a clear error', async () => {
    const file = join(dir, 'db', 'held.sqlite');
    await (await SqliteStore.open(file)).close();
    const holder = await holdLock(file);
    try {
      const opened = SqliteStore.open(file, { busyTimeoutMs: 200 });
      await expect(opened).rejects.toThrow(
        `the SQLite database ${file} is locked by another process: waited 200 ms for it`,
      );
    } finally {
      await holder.release();
    }
  });

  it('a bot opening the file waits for a lock released within its busy timeout, then opens it', async () => {
    const file = join(dir, 'db', 'briefly-held.sqlite');
    await (await SqliteStore.open(file)).close();
    const holder = await holdLock(file);
    const opener = fork(join(dir, 'opener.js'), [file], { stdio: 'inherit' });
    const answers: Record<string, unknown>[] = [];
    const outcome = new Promise<Record<string, unknown>>((ok) =>
      opener.on('message', (m) => {
        answers.push(m as Record<string, unknown>);
        if (!('opening' in (m as object))) ok(m as Record<string, unknown>);
      }),
    );
    await new Promise<void>((ok) => opener.once('message', () => ok()));
    // The opener is now waiting on the lock (SQLite's busy timeout, 5 s); the holder ends its transaction.
    await holder.release();
    expect(await outcome).toEqual({ opened: expect.any(Number) });
    expect((answers[1] as { opened: number }).opened).toBeGreaterThan(0);
  });
});
