import { configDefaults, defineConfig } from 'vitest/config';

// The time tests run once per machine zone below (they must not depend on it); all others run once.
const timeTests = ['test/time/**/*.test.ts'];
const machineZones = ['UTC', 'America/Los_Angeles', 'Pacific/Kiritimati'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['test/global-build.ts', 'test/global-postgres.ts', 'test/global-log-scan.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'default',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...timeTests],
        },
      },
      ...machineZones.map((tz) => ({
        extends: true as const,
        test: { name: `time TZ=${tz}`, include: timeTests, env: { TZ: tz } },
      })),
    ],
  },
});
