import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { waitForCount } from '../../bench/window.js';

describe('bench waiting for work to be made', () => {
  it('polls a count until it reaches its target', async () => {
    let n = 0;
    expect(await waitForCount(() => n++, 3, performance.now() + 60_000)).toBe(3);
  });

  it('gives up at once when the deadline has passed, with the count it read', async () => {
    const reads: number[] = [];
    const count = async () => {
      reads.push(1);
      return 2;
    };
    expect(await waitForCount(count, 10, performance.now() - 1)).toBe(2);
    expect(reads).toHaveLength(1);
  });
});
