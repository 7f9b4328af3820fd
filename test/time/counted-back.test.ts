// Ranges counted back from now, as docs/time-ranges.md lists them (the "Counted back" row of its table
// and the refusals of rule 9, read from the page itself), each checked against an independent oracle in
// zones with a 45-minute offset, a 30-minute offset with daylight saving, and a daylight-saving change.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseTimeRange } from '../../src/time/index.js';
import { type Oracle, oracleAt, type RuleZone, ruleOffset } from '../support/rule-zone-oracle.js';

const page = readFileSync(new URL('../../docs/time-ranges.md', import.meta.url), 'utf8');
const backticked = (text: string): string[] => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

function tableRow(kind: string): string[] {
  const line = page.split('\n').find((l) => l.startsWith(`| ${kind} `));
  if (!line) throw new Error(`no “${kind}” row in docs/time-ranges.md`);
  return backticked(line.split('|')[2]!);
}

/** The first column of the table under rule 9. */
function refusedByRule9(): string[] {
  const from = page.indexOf('9. **Counted back from now.**');
  const to = page.indexOf('\nA range may be', from);
  if (from < 0 || to < 0) throw new Error('no rule 9 in docs/time-ranges.md');
  return page
    .slice(from, to)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('|') && !/^\|\s*-/.test(l))
    .slice(1)
    .flatMap((l) => backticked(l.split('|')[1]!));
}

const MIN = 1;
const HOUR = 60;

/** What each listed phrase is, worked out by the oracle: [start, end]. */
const EXPECTED: Record<string, (o: Oracle) => [bigint, bigint]> = {
  '3 days ago 9am to 5pm': (o) => [o.wall(-3, '09:00'), o.wall(-3, '17:00')],
  '2 weeks ago from 08:00 to 16:00': (o) => [o.wall(-14, '08:00'), o.wall(-14, '16:00')],
  'from 9am 2 days ago to 5pm yesterday': (o) => [o.wall(-2, '09:00'), o.wall(-1, '17:00')],
  'the day before yesterday 9am to 5pm': (o) => [o.wall(-2, '09:00'), o.wall(-2, '17:00')],
  'a week ago 9am to 5pm': (o) => [o.wall(-7, '09:00'), o.wall(-7, '17:00')],
  '3 days ago': (o) => [o.wall(-3, '00:00'), o.wall(-2, '00:00')],
  'from 6 hours ago to now': (o) => [o.ago(6 * HOUR), o.nowNs],
  '3 hours ago to 1 hour ago': (o) => [o.ago(3 * HOUR), o.ago(1 * HOUR)],
  '90 minutes ago until now': (o) => [o.ago(90 * MIN), o.nowNs],
  'since 2 hours ago': (o) => [o.ago(2 * HOUR), o.nowNs],
  'an hour ago to now': (o) => [o.ago(HOUR), o.nowNs],
  'yesterday 9am to 2 hours ago': (o) => [o.wall(-1, '09:00'), o.ago(2 * HOUR)],
};

const ns = (iso: string, extra = 0n) => BigInt(Date.parse(iso)) * 1_000_000n + extra;

/** Reference instants: on and around daylight-saving changes, at a year end, with nanoseconds. */
const NOWS: [RuleZone, bigint][] = [
  ['Asia/Kathmandu', ns('2026-11-25T06:00:00Z', 123_456_789n)],
  ['Asia/Kathmandu', ns('2026-12-31T20:00:00Z')], // 1 Jan 01:45 local: the days counted back are last year's
  ['Australia/Adelaide', ns('2026-10-05T00:00:00Z', 1n)], // Mon 10:30 ACDT, the day after summer time began
  ['Australia/Adelaide', ns('2026-04-05T01:00:00Z')], // Sun 10:30 ACST, hours after summer time ended
  ['America/New_York', ns('2026-11-02T15:00:00Z', 999_999_999n)], // Mon 10:00 EST, the day after fall back
  ['America/New_York', ns('2026-11-01T12:00:00Z')], // Sun 07:00 EST: six hours ago was 02:00 EDT
  ['America/New_York', ns('2026-03-09T14:00:00Z')], // Mon 10:00 EDT, the day after spring forward
];

describe('the oracle', () => {
  it('knows the changes it is used across', () => {
    const at = (z: RuleZone, iso: string) => ruleOffset(z, Date.parse(iso));
    expect(at('America/New_York', '2026-11-01T05:59:59Z')).toBe(-240);
    expect(at('America/New_York', '2026-11-01T06:00:00Z')).toBe(-300);
    expect(at('America/New_York', '2026-03-08T07:00:00Z')).toBe(-240);
    expect(at('Australia/Adelaide', '2026-10-03T16:29:59Z')).toBe(570);
    expect(at('Australia/Adelaide', '2026-10-03T16:30:00Z')).toBe(630);
    expect(at('Australia/Adelaide', '2026-04-04T16:29:59Z')).toBe(630);
    expect(at('Australia/Adelaide', '2026-04-04T16:30:00Z')).toBe(570);
    expect(at('Asia/Kathmandu', '2026-07-01T00:00:00Z')).toBe(345);
  });
});

describe('ranges counted back from now, as the docs list them', () => {
  const listed = tableRow('Counted back');

  it('every phrase the page lists has an expectation here, and no other', () => {
    expect(listed.length).toBeGreaterThanOrEqual(10);
    expect([...listed].sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(NOWS.map(([zone, now]) => [zone, new Date(Number(now / 1_000_000n)).toISOString(), now] as const))(
    'in %s at %s',
    (zone, _iso, now) => {
      const o = oracleAt(zone, now);
      for (const phrase of listed) {
        const out = parseTimeRange(phrase, { now, timeZone: zone, requirePast: true });
        expect(out.ok ? '' : out.error, phrase).toBe('');
        if (!out.ok) continue;
        const [start, end] = EXPECTED[phrase]!(o);
        expect([out.range.startNs, out.range.endNs], phrase).toEqual([start, end]);
      }
    },
  );

  it('a day counted back keeps its wall-clock hours across a daylight-saving change', () => {
    // Monday after the change: 3 days ago was a Friday on summer time.
    const now = ns('2026-11-02T15:00:00Z');
    const out = parseTimeRange('3 days ago 9am to 5pm', { now, timeZone: 'America/New_York' });
    expect(out.ok && out.range.startNs).toBe(ns('2026-10-30T13:00:00Z'));
  });

  it('hours counted back are exact durations across a daylight-saving change', () => {
    const now = ns('2026-11-01T12:00:00Z');
    const out = parseTimeRange('from 6 hours ago to now', { now, timeZone: 'America/New_York' });
    expect(out.ok && out.range.endNs - out.range.startNs).toBe(6n * 3600n * 1_000_000_000n);
  });
});

describe('what rule 9 refuses', () => {
  const refused = refusedByRule9();

  it('the page lists the refusals', () => {
    expect(refused).toEqual(expect.arrayContaining(['since 3 days ago', '3 days ago to now', '2 weeks ago']));
  });

  it.each(NOWS.map(([zone, now]) => [zone, now] as const))(
    'in %s: each is refused with a phrase that works as typed',
    (zone, now) => {
      for (const phrase of refused) {
        const out = parseTimeRange(phrase, { now, timeZone: zone, requirePast: true });
        expect(out.ok, phrase).toBe(false);
        if (out.ok) continue;
        expect(out.error, phrase).not.toMatch(/could not read/);
        const fix = parseTimeRange(out.examples[0]!, { now, timeZone: zone, requirePast: true });
        expect(fix.ok, `${phrase} → ${out.examples[0]}`).toBe(true);
      }
    },
  );

  it('both readings of “since 3 days ago” are offered, and each is what it says', () => {
    const now = ns('2026-11-25T06:00:00Z');
    const zone = 'Asia/Kathmandu';
    const out = parseTimeRange('since 3 days ago', { now, timeZone: zone });
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.examples.slice(0, 2)).toEqual(['since 3 days ago 00:00', 'past 3 days']);
    const o = oracleAt(zone, now);
    const midnight = parseTimeRange(out.examples[0]!, { now, timeZone: zone });
    expect(midnight.ok && midnight.range.startNs).toBe(o.wall(-3, '00:00'));
    const rolling = parseTimeRange(out.examples[1]!, { now, timeZone: zone });
    expect(rolling.ok && rolling.range.startNs).toBe(o.wall(-3, '11:45'));
  });
});
