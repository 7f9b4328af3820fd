import { describe, expect, it } from 'vitest';
import {
  previewRuns,
  readWhen,
  runsAfter,
  runsBetween,
  WHEN_EXAMPLES,
} from '../../src/core/schedules/index.js';

// Friday 27 November 2026, 10:00 UTC (11:00 in Berlin).
const NOW = Date.UTC(2026, 10, 27, 10, 0);
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 16);

const read = (text: string, zone = 'Europe/Berlin', now = NOW) => {
  const r = readWhen(text, { zone, now });
  if (!r.ok) throw new Error(`${text}: ${r.message}`);
  return r;
};

describe('reading "when" as people say it to /remind', () => {
  it.each([
    [
      'every weekday at 9am',
      'every weekday at 09:00',
      ['2026-11-30T08:00', '2026-12-01T08:00', '2026-12-02T08:00'],
    ],
    [
      'every Monday at 7',
      'every Monday at 07:00',
      ['2026-11-30T06:00', '2026-12-07T06:00', '2026-12-14T06:00'],
    ],
    [
      'every 8 hours',
      'every 8 hours (00:00, 08:00, 16:00)',
      ['2026-11-27T15:00', '2026-11-27T23:00', '2026-11-28T07:00'],
    ],
    [
      'every other week',
      'every other week on Friday at 09:00',
      ['2026-12-11T08:00', '2026-12-25T08:00', '2027-01-08T08:00'],
    ],
    [
      'on the 1st of every month at 06:00',
      'on the 1st of every month at 06:00',
      ['2026-12-01T05:00', '2027-01-01T05:00', '2027-02-01T05:00'],
    ],
    [
      'at 18:00 on weekdays',
      'every weekday at 18:00',
      ['2026-11-27T17:00', '2026-11-30T17:00', '2026-12-01T17:00'],
    ],
    ['every minute', 'every minute', ['2026-11-27T10:01', '2026-11-27T10:02', '2026-11-27T10:03']],
    [
      'every Tuesday and Thursday at 6:30pm',
      'every Tuesday and Thursday at 18:30',
      ['2026-12-01T17:30', '2026-12-03T17:30', '2026-12-08T17:30'],
    ],
    [
      '0 6 * * 1-5',
      'on the cron pattern `0 6 * * 1-5`',
      ['2026-11-30T05:00', '2026-12-01T05:00', '2026-12-02T05:00'],
    ],
    [
      'on the last day of every month at 23:00',
      'on the last day of every month at 23:00',
      ['2026-11-30T22:00', '2026-12-31T22:00', '2027-01-31T22:00'],
    ],
  ])('%s', (text, words, runs) => {
    const r = read(text);
    expect(r.words).toBe(words);
    expect(r.rule.zone).toBe('Europe/Berlin');
    expect(runsAfter(r.rule, NOW, 3).map(iso)).toEqual(runs);
  });

  it('follows a zone the phrase names instead of the creator’s', () => {
    const r = read('every day at 06:00 in America/New_York');
    expect(r.rule.zone).toBe('America/New_York');
    expect(runsAfter(r.rule, NOW, 1).map(iso)).toEqual(['2026-11-27T11:00']);
    expect(read('every other Friday at 16:00 UTC').rule.zone).toBe('UTC');
  });

  it('every example it offers reads', () => {
    for (const w of WHEN_EXAMPLES) expect(readWhen(w, { zone: 'UTC', now: NOW }).ok).toBe(true);
  });

  it.each([
    ['whenever', /cannot read "whenever"/],
    ['at 18:00', /A schedule repeats/],
    ['every 7 hours', /does not divide a day/],
    ['every day at 25:00', /not a time of day/],
    ['every day at 06:00 in Mars/Olympus', /not a time zone/],
    ['0 6 * * 1-5 *', /five fields/],
    ['61 6 * * *', /not a cron pattern/],
    ['every minute at 06:00', /takes no time of day/],
    ['', /Say when it runs/],
  ])('refuses %j with the reason and an example', (text, reason) => {
    const r = readWhen(text, { zone: 'Europe/Berlin', now: NOW });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.message).toMatch(reason);
    expect(r.example).toMatch(/^\/tsai schedule "every weekday at 06:00" /);
  });
});

/**
 * An independent computation of a daily run's instant: each zone's two offsets and its 2026 transitions
 * written out by hand from the published rules, no Intl and no croner. A wall time that occurs twice runs
 * at the first; one that is skipped runs at the first valid instant after the gap, the transition itself.
 */
const ZONES = {
  // EST -5 / EDT -4: 8 March 02:00 local -> 03:00, 1 November 02:00 -> 01:00.
  'America/New_York': { std: -300, dst: -240, start: Date.UTC(2026, 2, 8, 7), end: Date.UTC(2026, 10, 1, 6) },
  // CET +1 / CEST +2: 29 March 01:00 UTC, 25 October 01:00 UTC.
  'Europe/Berlin': { std: 60, dst: 120, start: Date.UTC(2026, 2, 29, 1), end: Date.UTC(2026, 9, 25, 1) },
  // ACST +9:30 / ACDT +10:30, southern: summer time ends 5 April 03:00 local, starts 4 October 02:00 local.
  'Australia/Adelaide': {
    std: 570,
    dst: 630,
    end: Date.UTC(2026, 3, 4, 16, 30),
    start: Date.UTC(2026, 9, 3, 16, 30),
  },
} as const;
type Zone = keyof typeof ZONES;

function offsetAt(zone: Zone, ms: number): number {
  const z = ZONES[zone];
  const summer = z.start < z.end ? ms >= z.start && ms < z.end : ms >= z.start || ms < z.end;
  return summer ? z.dst : z.std;
}

function oracleDaily(zone: Zone, date: string, hh: number, mm: number): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const wallAsUtc = Date.UTC(y, m - 1, d, hh, mm);
  const z = ZONES[zone];
  const fits = [z.std, z.dst]
    .map((o) => wallAsUtc - o * 60_000)
    .filter((t) => offsetAt(zone, t) === (wallAsUtc - t) / 60_000);
  if (fits.length) return Math.min(...fits);
  const gapStart = [z.start, z.end].find((t) => Math.abs(t - (wallAsUtc - z.std * 60_000)) < 3 * 3_600_000)!;
  return gapStart;
}

describe('daily runs across daylight-saving changes, against an independent computation', () => {
  const cases: [Zone, string, [string, string, string]][] = [
    ['America/New_York', '02:30', ['2026-03-07', '2026-03-08', '2026-03-09']],
    ['America/New_York', '01:30', ['2026-10-31', '2026-11-01', '2026-11-02']],
    ['Europe/Berlin', '02:30', ['2026-03-28', '2026-03-29', '2026-03-30']],
    ['Europe/Berlin', '02:30', ['2026-10-24', '2026-10-25', '2026-10-26']],
    ['Australia/Adelaide', '02:30', ['2026-10-03', '2026-10-04', '2026-10-05']],
    ['Australia/Adelaide', '02:30', ['2026-04-04', '2026-04-05', '2026-04-06']],
  ];
  it.each(cases)('%s, every day at %s over %j', (zone, at, days) => {
    const [hh, mm] = at.split(':').map(Number) as [number, number];
    const rule = read(`every day at ${at}`, zone).rule;
    const start = oracleDaily(zone, days[0], hh, mm) - 60_000;
    const runs = runsAfter(rule, start, 3);
    expect(runs.map(iso)).toEqual(days.map((d) => iso(oracleDaily(zone, d, hh, mm))));
    // The preview marks the day the clocks change, and only that day.
    const preview = previewRuns(rule, start, 3);
    expect(preview.map((p) => p.dst !== undefined)).toEqual([false, true, false]);
    expect(preview[1]!.dst).toMatch(/clocks go (forward|back)/);
  });

  it('says what the change does: a skipped time runs at the first valid instant, a doubled one runs once', () => {
    const ny = previewRuns(read('every day at 02:30', 'America/New_York').rule, Date.UTC(2026, 2, 7, 12), 1);
    expect(ny[0]).toEqual({
      at: Date.UTC(2026, 2, 8, 7),
      dst: 'the clocks go forward: 02:30 does not exist that day, so it runs at 03:00',
    });
    const back = previewRuns(
      read('every day at 01:30', 'America/New_York').rule,
      Date.UTC(2026, 9, 31, 12),
      1,
    );
    expect(back[0]!.dst).toBe(
      'the clocks go back: 01:30 happens twice that day, and it runs once, at the first',
    );
  });

  it('an interval keeps running through the repeated hour', () => {
    const rule = read('every hour', 'America/New_York').rule;
    const runs = runsBetween(rule, Date.UTC(2026, 10, 1, 4, 30), Date.UTC(2026, 10, 1, 7, 30), 10);
    // 01:00 EDT, 01:00 EST, 02:00 EST.
    expect(runs.map(iso)).toEqual(['2026-11-01T05:00', '2026-11-01T06:00', '2026-11-01T07:00']);
  });
});
