import { expect, it } from 'vitest';

// Guards the multi-zone setup in vitest.config.ts: each project really runs with its own machine zone.
it('runs under the TZ its project sets', () => {
  const tz = process.env.TZ;
  expect(tz).toBeTruthy();
  expect(Intl.DateTimeFormat().resolvedOptions().timeZone).toBe(tz);
  const offset = new Date('2026-01-15T12:00:00Z').getTimezoneOffset();
  expect(offset).toBe({ UTC: 0, 'America/Los_Angeles': 480, 'Pacific/Kiritimati': -840 }[tz as string]);
});
