import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Two tiers. `npm run test:fast` runs the projects named `fast…`: tests in this process and its threads,
 * over real sockets, SQLite files and PostgreSQL, with no child process, browser, bot replica or bench, so
 * it is quick enough to run while working. It needs no build: a fast test that runs the whole bot keeps
 * its store in memory, so that its follow-ups run on its own thread rather than the worker, whose program
 * is the build in dist/ (which a fresh clone does not have, and which may be older than the sources). `npm test` (and CI) runs every project. A test file anywhere
 * under test/ is in the full suite; it is in the fast tier too when it lands in one of these folders.
 * Slow suites live outside them: test/e2e, test/slow (child processes), test/standins/sandbox (browser),
 * test/bench.
 */
const fastFolders = [
  'test/*.test.ts',
  'test/core/**/*.test.ts',
  'test/modals/**/*.test.ts',
  'test/slack/**/*.test.ts',
  'test/standins/emulator/**/*.test.ts',
  'test/standins/localslack/**/*.test.ts',
  'test/store/**/*.test.ts',
];

// The time tests run once per machine zone below (they must not depend on it); all others run once.
// The fast tier runs them in the first zone only.
const timeTests = ['test/time/**/*.test.ts'];
const machineZones = ['UTC', 'America/Los_Angeles', 'Pacific/Kiritimati'];

export default defineConfig({
  test: {
    // Bounds for a hang, not measures: on a busy machine a test waits for its conditions longer.
    testTimeout: 90_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Every core: vitest's default keeps one free, which on a 2-core machine runs the files one by one.
    maxWorkers: availableParallelism(),
    globalSetup: ['test/global-postgres.ts', 'test/global-log-scan.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          include: fastFolders,
          exclude: [...configDefaults.exclude, ...timeTests],
          // The fast files share a worker's module cache instead of importing Bolt, zod and the bot anew
          // per file: that import was most of the fast tier's time. They keep no state between files
          // (each starts its own servers and stores), which running them this way checks on every run.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'slow',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...fastFolders, ...timeTests],
          // Only these run the bot's worker thread or child processes, which run the build in dist/.
          globalSetup: ['test/global-build.ts'],
          // Whole bots, replicas and browsers: on a machine whose cores another process keeps busy, their
          // conditions take minutes to come (each waits for them with bounds of its own up to that).
          testTimeout: 300_000,
          hookTimeout: 180_000,
        },
      },
      ...machineZones.map((tz, i) => ({
        extends: true as const,
        test: {
          name: `${i === 0 ? 'fast' : 'slow'}: time TZ=${tz}`,
          include: timeTests,
          env: { TZ: tz },
        },
      })),
    ],
  },
});
