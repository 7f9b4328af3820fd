import { describe, expect, it } from 'vitest';
import { describeRange } from '../../src/time/index.js';
import { isoZToNs } from '../support/zone-oracle.js';

const r = (start: string, end: string) => ({ startNs: isoZToNs(start), endNs: isoZToNs(end) });

describe('describeRange', () => {
  it.each([
    [
      r('2025-11-21T03:30:00Z', '2025-11-21T11:30:00Z'),
      'Asia/Kolkata',
      'Fri 21 Nov 09:00 – 17:00 IST (03:30–11:30 UTC)',
    ],
    [r('2026-11-01T09:00:00Z', '2026-11-01T17:00:00Z'), 'UTC', 'Sun 1 Nov 09:00 – 17:00 UTC'],
    [
      r('2026-11-01T04:00:00Z', '2026-11-04T05:00:00Z'),
      'America/New_York',
      'Sun 1 Nov 00:00 EDT – Wed 4 Nov 00:00 EST (Sun 1 Nov 04:00 – Wed 4 Nov 05:00 UTC)',
    ],
    [
      r('2026-11-01T08:00:00Z', '2026-11-01T16:00:00Z'),
      'Europe/Berlin',
      'Sun 1 Nov 09:00 – 17:00 CET (08:00–16:00 UTC)',
    ],
    [
      r('2026-11-01T00:00:00Z', '2026-11-01T08:00:00Z'),
      'Asia/Tokyo',
      'Sun 1 Nov 09:00 – 17:00 UTC+09:00 (00:00–08:00 UTC)',
    ],
    [
      r('2026-10-31T18:30:00Z', '2026-10-31T19:30:00Z'),
      'Asia/Kolkata',
      'Sun 1 Nov 00:00 – 01:00 IST (Sat 31 Oct 18:30–19:30 UTC)',
    ],
    [r('2026-11-01T09:00:30Z', '2026-11-01T17:00:00Z'), 'UTC', 'Sun 1 Nov 09:00:30 – 17:00:00 UTC'],
    [
      r('2026-11-01T09:00:00.123456789Z', '2026-11-01T17:00:00.5Z'),
      'UTC',
      'Sun 1 Nov 09:00:00.123456789 – 17:00:00.500000000 UTC',
    ],
    [r('2026-11-01T09:00:00Z', '2026-11-01T17:00:00Z'), 'Europe/London', 'Sun 1 Nov 09:00 – 17:00 GMT'],
    [
      r('2026-07-01T08:00:00Z', '2026-07-01T16:00:00Z'),
      'Europe/London',
      'Wed 1 Jul 09:00 – 17:00 BST (08:00–16:00 UTC)',
    ],
    [
      r('2025-12-31T22:00:00Z', '2026-01-01T02:00:00Z'),
      'UTC',
      'Wed 31 Dec 2025 22:00 – Thu 1 Jan 2026 02:00 UTC',
    ],
  ])('%#: %s in %s', (range, tz, want) => {
    // Read in the year the range starts in, so that only a range across new year shows its years.
    const now = range.startNs + 86_400_000_000_000n;
    expect(describeRange(range, tz, { now })).toBe(want);
  });
});
