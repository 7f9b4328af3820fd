import { getHeapSpaceStatistics } from 'node:v8';

/**
 * What a thread logs as "memory usage" on SIGUSR2: the process's figures, and this thread's heap space by
 * space (the size V8 holds for each, in MB), which tells a young generation that grew from an old one.
 */
export function memoryUse(): { memory: NodeJS.MemoryUsage; heapSpacesMb: Record<string, number> } {
  const tenthsOfMb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
  const spaces = getHeapSpaceStatistics().map((s) => [s.space_name, tenthsOfMb(s.space_size)]);
  return { memory: process.memoryUsage(), heapSpacesMb: Object.fromEntries(spaces) };
}
