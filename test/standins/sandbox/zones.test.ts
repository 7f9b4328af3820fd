import { describe, expect, it } from 'vitest';
import { slackDate } from '../../../standins/sandbox/web/slack-date.js';
import {
  epochSecondsToWall,
  offsetMs,
  wallToEpochSeconds,
  zoneAbbreviation,
} from '../../../standins/sandbox/web/zones.js';

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

describe("Slack's <!date^…> tokens, in the viewer's zone", () => {
  const at = Date.UTC(2026, 10, 22, 10, 42) / 1000; // Sun 22 Nov 2026 10:42 UTC
  const now = Date.UTC(2026, 10, 22, 12, 0);
  it('formats each token in the given zone', () => {
    expect(slackDate(`date^${at}^{date_num} {time}`, 'fallback', 'Europe/London', now)).toBe(
      '2026-11-22 10:42',
    );
    expect(slackDate(`date^${at}^{date_num} {time}`, 'fallback', 'Asia/Kolkata', now)).toBe(
      '2026-11-22 16:12',
    );
    expect(slackDate(`date^${at}^{date_long}`, undefined, 'America/New_York', now)).toBe(
      'Sunday, November 22nd, 2026',
    );
    expect(slackDate(`date^${at}^{date_short} at {time_secs}`, undefined, 'UTC', now)).toBe(
      'Nov 22, 2026 at 10:42:00',
    );
  });
  it('says today, yesterday or tomorrow as seen from the zone', () => {
    expect(slackDate(`date^${at}^{date_short_pretty} {time}`, undefined, 'Europe/London', now)).toBe(
      'Today 10:42',
    );
    // At 23 Nov 09:00 UTC it is already the 23rd in London but still the 22nd in Honolulu.
    const later = Date.UTC(2026, 10, 23, 9, 0);
    expect(slackDate(`date^${at}^{date_pretty}`, undefined, 'Europe/London', later)).toBe('Yesterday');
    expect(slackDate(`date^${at}^{date_pretty}`, undefined, 'Pacific/Honolulu', later)).toBe('Today');
    expect(slackDate(`date^${at}^{ago}`, undefined, 'UTC', now)).toBe('1 hour ago');
  });
  it('falls back to the text after | when the epoch is unreadable', () => {
    expect(slackDate('date^soon^{date}', '2026-11-22 10:42 UTC', 'UTC', now)).toBe('2026-11-22 10:42 UTC');
  });
});
