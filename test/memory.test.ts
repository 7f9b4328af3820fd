import { expect, it } from 'vitest';
import { memoryUse } from '../src/memory.js';

// SIGUSR2's "memory usage" line: how an operator, and the bench's soak, tell which heap grew.
it('reports the process figures and the thread’s heap space by space, in MB, adding up to its heap', () => {
  const use = memoryUse();
  expect(use.memory.rss).toBeGreaterThan(0);
  expect(use.heapSpacesMb).toMatchObject({ new_space: expect.any(Number), old_space: expect.any(Number) });
  const total = Object.values(use.heapSpacesMb).reduce((a, b) => a + b, 0);
  expect(Math.abs(total - use.memory.heapTotal / 2 ** 20)).toBeLessThan(1);
});
