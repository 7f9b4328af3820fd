import { describe, expect, it } from 'vitest';
import {
  epochSecondsToWall,
  offsetMs,
  wallToEpochSeconds,
  zoneAbbreviation,
} from '../../src/sandbox/web/zones.js';

/** The page's datetimepicker reads wall times in the viewer's Slack zone, never the machine's. */
describe('sandbox zone arithmetic', () => {
  it('converts wall time in a zone to UNIX seconds and back', () => {
    // 2026-11-21 09:00 in Kolkata (UTC+5:30) is 03:30 UTC.
    const s = wallToEpochSeconds('2026-11-21T09:00', 'Asia/Kolkata');
    expect(s).toBe(Date.UTC(2026, 10, 21, 3, 30) / 1000);
    expect(epochSecondsToWall(s!, 'Asia/Kolkata')).toBe('2026-11-21T09:00');
    expect(epochSecondsToWall(s!, 'America/New_York')).toBe('2026-11-20T22:30');
  });

  it('follows daylight saving time on both sides of a change', () => {
    expect(wallToEpochSeconds('2026-07-01T12:00', 'Europe/London')).toBe(Date.UTC(2026, 6, 1, 11, 0) / 1000);
    expect(wallToEpochSeconds('2026-12-01T12:00', 'Europe/London')).toBe(Date.UTC(2026, 11, 1, 12, 0) / 1000);
    expect(offsetMs(Date.UTC(2026, 6, 1), 'America/New_York')).toBe(-4 * 3600_000);
    expect(offsetMs(Date.UTC(2026, 0, 1), 'America/New_York')).toBe(-5 * 3600_000);
  });

  it('refuses text that is not a wall time', () => {
    expect(wallToEpochSeconds('yesterday', 'UTC')).toBeUndefined();
  });

  it('names the zone as Slack users know it', () => {
    expect(zoneAbbreviation('America/New_York', Date.UTC(2026, 0, 1))).toBe('EST');
    expect(zoneAbbreviation('Asia/Kolkata', Date.UTC(2026, 0, 1))).toBe('GMT+5:30');
  });
});
