import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { batchedMarks, processMarks } from '../../src/slack/http/seen-marks.js';
import { SqliteStore } from '../../src/store/index.js';

/** A store of marks in memory that records each call it gets. */
function fakeStore() {
  const marked = new Set<string>();
  const calls: string[][] = [];
  const markMany = async (keys: readonly string[], _now?: number) => {
    calls.push([...keys]);
    const fresh = keys.filter((k) => !marked.has(k));
    for (const k of fresh) marked.add(k);
    return new Set(fresh);
  };
  return { markMany, calls };
}

describe('replay marks gathered per event-loop turn', () => {
  it('writes the marks asked for in one turn with one call, and answers each request', async () => {
    const store = fakeStore();
    const mark = batchedMarks(store.markMany);
    const answers = await Promise.all(['a', 'b', 'c'].map(mark));
    expect(answers).toEqual([true, true, true]);
    expect(store.calls).toEqual([['a', 'b', 'c']]);
    expect(await Promise.all(['a', 'd'].map(mark))).toEqual([false, true]);
    expect(store.calls).toHaveLength(2);
  });

  it('acts on the first of the same bytes twice in one turn only', async () => {
    const store = fakeStore();
    const mark = batchedMarks(store.markMany);
    expect(await Promise.all(['x', 'x', 'y', 'x'].map(mark))).toEqual([true, false, true, false]);
    expect(store.calls).toEqual([['x', 'y']]);
  });

  it('fails every request of a batch the store could not mark, and marks the next batch', async () => {
    let fail = true;
    const store = fakeStore();
    const mark = batchedMarks(async (keys, now) => {
      if (fail) throw new Error('store down');
      return store.markMany(keys, now);
    });
    const failed = await Promise.allSettled(['a', 'a', 'b'].map(mark));
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    fail = false;
    expect(await Promise.all(['a', 'b'].map(mark))).toEqual([true, true]);
  });
});

describe('replay marks held by the process, for a SQLite store only it writes', () => {
  const HOUR = 3_600_000;
  const opened: SqliteStore[] = [];
  const dirs: string[] = [];
  /** Two handles on one real SQLite file: the bot's, and one to look at what was written. */
  const twoHandles = async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsai-marks-'));
    dirs.push(dir);
    const [bot, look] = [
      await SqliteStore.open(join(dir, 'marks.sqlite')),
      await SqliteStore.open(join(dir, 'marks.sqlite')),
    ];
    opened.push(bot, look);
    return { bot, look };
  };
  afterEach(async () => {
    for (const s of opened.splice(0)) await s.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const quiet = () => undefined;

  it('a key is new once: again before it is written, after, and the same key twice at once', async () => {
    const { bot, look } = await twoHandles();
    const marks = processMarks(bot, quiet, { everyMs: HOUR });
    const now = Date.now();
    expect(await marks.markSeen(['a', 'b'], now, now + HOUR)).toEqual(new Set(['a', 'b']));
    // Not written yet (the write waits an hour here), and still a repeat.
    expect(await look.requestsSeen(['a', 'b'], now)).toEqual(new Set());
    expect(await marks.markSeen(['a', 'c'], now, now + HOUR)).toEqual(new Set(['c']));
    const [x, y] = await Promise.all([
      marks.markSeen(['d'], now, now + HOUR),
      marks.markSeen(['d'], now, now + HOUR),
    ]);
    expect([...x, ...y]).toEqual(['d']);
    await marks.flush();
    expect(await look.requestsSeen(['a', 'b', 'c', 'd', 'e'], now)).toEqual(new Set(['a', 'b', 'c', 'd']));
    expect(await marks.markSeen(['a', 'e'], now + 1, now + HOUR)).toEqual(new Set(['e']));
    // Taken again once expired, and written again.
    expect(await marks.markSeen(['a'], now + HOUR, now + 2 * HOUR)).toEqual(new Set(['a']));
    await marks.flush();
    expect(await look.requestsSeen(['a', 'b'], now + HOUR)).toEqual(new Set(['a']));
  });

  it('after a restart, the marks the store holds are repeats, and expired ones are new again', async () => {
    const { bot, look } = await twoHandles();
    const now = Date.now();
    await look.markRequestsSeen(['old', 'gone'], now - HOUR, now - 1);
    await look.markRequestsSeen(['kept'], now - HOUR, now + HOUR);
    const marks = processMarks(bot, quiet, { everyMs: HOUR });
    expect(await marks.markSeen(['old', 'kept', 'new'], now, now + HOUR)).toEqual(new Set(['old', 'new']));
    await marks.flush();
    expect(await look.requestsSeen(['old', 'gone', 'kept', 'new'], now)).toEqual(
      new Set(['old', 'kept', 'new']),
    );
  });

  it('with more marks in the store than it holds, a key it does not hold is looked up there', async () => {
    const { bot, look } = await twoHandles();
    const now = Date.now();
    await look.markRequestsSeen(['m1', 'm2', 'm3'], now, now + HOUR);
    const marks = processMarks(bot, quiet, { everyMs: HOUR, maxHeld: 2 });
    expect(await marks.markSeen(['m1', 'm2', 'm3', 'm4'], now, now + HOUR)).toEqual(new Set(['m4']));
  });

  it('writes the marks by itself after a while, in one batch', async () => {
    const { bot, look } = await twoHandles();
    let writes = 0;
    const counted = {
      requestsSeen: bot.requestsSeen.bind(bot),
      standingRequestMarks: bot.standingRequestMarks.bind(bot),
      markRequestsSeen: (keys: readonly string[], now: number, until: number) => {
        writes++;
        return bot.markRequestsSeen(keys, now, until);
      },
    };
    const marks = processMarks(counted, quiet, { everyMs: 5 });
    const now = Date.now();
    await Promise.all(['p', 'q', 'r'].map((k) => marks.markSeen([k], now, now + HOUR)));
    while ((await look.requestsSeen(['p', 'q', 'r'], now)).size < 3)
      await new Promise((ok) => setTimeout(ok, 5));
    expect(writes).toBe(1);
  });

  it('a write the store refused is told, the marks stand meanwhile, and they are written later', async () => {
    const { bot, look } = await twoHandles();
    let refuse = true;
    const failures: unknown[] = [];
    const flaky = {
      requestsSeen: bot.requestsSeen.bind(bot),
      standingRequestMarks: bot.standingRequestMarks.bind(bot),
      markRequestsSeen: (keys: readonly string[], now: number, until: number) =>
        refuse
          ? Promise.reject(new Error('SQLITE_FULL: database or disk is full'))
          : bot.markRequestsSeen(keys, now, until),
    };
    const marks = processMarks(flaky, (e: unknown) => failures.push(e), { everyMs: HOUR });
    const now = Date.now();
    expect(await marks.markSeen(['s'], now, now + HOUR)).toEqual(new Set(['s']));
    await marks.flush();
    expect(failures).toHaveLength(1);
    expect(await marks.markSeen(['s'], now, now + HOUR)).toEqual(new Set());
    refuse = false;
    await marks.flush();
    expect(await look.requestsSeen(['s'], now)).toEqual(new Set(['s']));
  });
});
