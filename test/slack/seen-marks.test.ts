import { describe, expect, it } from 'vitest';
import { batchedMarks } from '../../src/slack/http/seen-marks.js';

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
