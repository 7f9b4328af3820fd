// Phrase tables for the kinds of range people write (offsets from now, ISO intervals, week numbers, …):
// each row read in six zones (half-hour and 45-minute offsets, Lord Howe's half-hour daylight saving, New
// York and Berlin across their changes) at instants on and around the changes, and compared to the
// instants Python's zoneinfo computes from the row's specs (test/support/python-oracle.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { parseTimeRange, readTimeRange, type Shift } from '../../src/time/index.js';
import { pythonInstants } from '../support/python-oracle.js';

export const ZONES = [
  'UTC',
  'America/New_York',
  'Europe/Berlin',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Australia/Lord_Howe',
] as const;
export type TestZone = (typeof ZONES)[number];

/** Instants on and around daylight-saving changes and year ends, with a fraction of a second. */
export const NOWS = [
  '2026-03-08T06:40:00.123Z', // New York 01:40 EST, 20 minutes before it springs forward
  '2026-03-08T07:20:00.5Z', // New York 03:20 EDT, just after
  '2026-03-29T01:30:00Z', // Berlin 03:30 CEST, just after it springs forward
  '2026-04-04T16:10:00.25Z', // Lord Howe 02:40 +10:30, 70 minutes after it fell back half an hour
  '2026-10-04T15:45:00Z', // Lord Howe 02:45 +11:00, just after it sprang forward half an hour
  '2026-10-25T02:30:00Z', // Berlin 03:30 CET, after it fell back
  '2026-11-02T12:00:00.999Z', // a Monday: New York back on EST since Sunday
  '2026-12-31T23:30:00Z', // the year ends: Kolkata and Kathmandu are in 2027
];

export type Expect = [start: string, end: string] | 'refused' | { readings: number };

export interface Row {
  phrase: string;
  expect: Expect;
  /** Zones whose reading differs (a zone abbreviation that is only theirs, say). */
  in?: Partial<Record<TestZone, Expect>>;
}

export interface TableContext {
  locale?: string;
  shifts?: readonly Shift[];
  nows?: readonly string[];
  zones?: readonly TestZone[];
}

const nsOf = (iso: string) => {
  const [whole, frac = ''] = iso.replace(/Z$/, '').split('.');
  return BigInt(Date.parse(`${whole}Z`)) * 1_000_000n + BigInt(frac.padEnd(9, '0'));
};

/** One table: every row, in every zone, at every instant, against Python's reading of its specs. */
export function phraseTable(name: string, rows: readonly Row[], ctx: TableContext = {}): void {
  const nows = ctx.nows ?? NOWS;
  const zones = ctx.zones ?? ZONES;
  const expected = new Map<string, bigint>();
  const keyOf = (zone: string, now: string, spec: string) => `${zone}|${now}|${spec}`;

  describe(name, () => {
    beforeAll(() => {
      const asks: { zone: string; nowNs: bigint; spec: string }[] = [];
      for (const zone of zones) {
        for (const now of nows) {
          for (const row of rows) {
            const e = row.in?.[zone] ?? row.expect;
            if (!Array.isArray(e)) continue;
            for (const spec of e) asks.push({ zone, nowNs: nsOf(now), spec });
          }
        }
      }
      const got = pythonInstants(asks);
      for (const [i, a] of asks.entries()) expected.set(keyOf(a.zone, a.nowNs.toString(), a.spec), got[i]!);
    });

    it.each(zones)('in %s', (zone) => {
      const wrong: string[] = [];
      for (const now of nows) {
        const nowNs = nsOf(now);
        const context = {
          now: nowNs,
          timeZone: zone,
          ...(ctx.locale ? { locale: ctx.locale } : {}),
          ...(ctx.shifts ? { shifts: ctx.shifts } : {}),
        };
        for (const row of rows) {
          const e = row.in?.[zone] ?? row.expect;
          const out = parseTimeRange(row.phrase, context);
          const at = `${row.phrase} at ${now}`;
          if (e === 'refused') {
            if (out.ok) wrong.push(`${at}: read, should be refused`);
            continue;
          }
          if (!Array.isArray(e)) {
            const r = readTimeRange(row.phrase, context);
            if (r.kind !== 'ambiguous' || r.readings.length !== e.readings)
              wrong.push(`${at}: ${r.kind}, should offer ${e.readings} readings`);
            else
              for (const reading of r.readings) {
                if (readTimeRange(reading, context).kind !== 'exact')
                  wrong.push(`${at}: the reading “${reading}” is not read as typed`);
              }
            continue;
          }
          if (!out.ok) {
            wrong.push(`${at}: refused: ${out.error}`);
            continue;
          }
          const want = e.map((spec) => expected.get(keyOf(zone, nowNs.toString(), spec)));
          if (out.range.startNs !== want[0] || out.range.endNs !== want[1])
            wrong.push(`${at}: ${out.range.startNs}–${out.range.endNs}, Python says ${want[0]}–${want[1]}`);
        }
      }
      expect(wrong).toEqual([]);
    });
  });
}
