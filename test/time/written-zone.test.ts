// A zone or offset written once in a range is the whole range's; when each end names its own, each keeps it.
import { describe, expect, it } from 'vitest';
import { parseTimeRange, toIso } from '../../src/time/index.js';

// Wednesday 25 Nov 2026: 04:00 in Los Angeles, 17:30 in Kolkata, 02:00 on Thursday in Kiritimati.
const now = new Date('2026-11-25T12:00:00Z');

function isoRange(text: string, timeZone: string): [string, string] {
  const out = parseTimeRange(text, { now, timeZone });
  if (!out.ok) throw new Error(`${text}: ${out.error}`);
  return [toIso(out.range.startNs), toIso(out.range.endNs)];
}

describe('a zone written once', () => {
  it.each([
    ['yesterday 9am to 5pm PST', 'Asia/Kolkata', '2026-11-24T17:00:00Z', '2026-11-25T01:00:00Z'],
    ['Nov 1 9:00 - 17:00 +05:30', 'America/Los_Angeles', '2026-11-01T03:30:00Z', '2026-11-01T11:30:00Z'],
    ['9am-5pm UTC', 'Asia/Kolkata', '2026-11-25T09:00:00Z', '2026-11-25T17:00:00Z'],
    [
      'between 9am and 5pm UTC yesterday',
      'America/Los_Angeles',
      '2026-11-24T09:00:00Z',
      '2026-11-24T17:00:00Z',
    ],
    ['yesterday 9am EST to 5pm', 'Asia/Kolkata', '2026-11-24T14:00:00Z', '2026-11-24T22:00:00Z'],
    [
      '2026-11-01T09:00 to 2026-11-01T17:00+05:30',
      'America/Los_Angeles',
      '2026-11-01T03:30:00Z',
      '2026-11-01T11:30:00Z',
    ],
    ['yesterday to today 5pm UTC', 'America/Los_Angeles', '2026-11-24T00:00:00Z', '2026-11-25T17:00:00Z'],
    ['yesterday evening to 11pm UTC', 'Asia/Kolkata', '2026-11-24T18:00:00Z', '2026-11-24T23:00:00Z'],
    ['9am to 5pm IST', 'Asia/Kolkata', '2026-11-25T03:30:00Z', '2026-11-25T11:30:00Z'],
  ])('%s (in %s) applies to both ends', (text, timeZone, start, end) => {
    expect(isoRange(text, timeZone)).toEqual([start, end]);
  });

  it.each([
    ['yesterday 9am EST to 5pm CET', 'UTC', '2026-11-24T14:00:00Z', '2026-11-24T16:00:00Z'],
    ['yesterday 9am +05:30 to 5pm PST', 'UTC', '2026-11-24T03:30:00Z', '2026-11-25T01:00:00Z'],
    [
      '2026-11-01T09:00:00Z to 2026-11-01T17:00:00+05:30',
      'America/Los_Angeles',
      '2026-11-01T09:00:00Z',
      '2026-11-01T11:30:00Z',
    ],
  ])('%s (in %s): each end keeps its own', (text, timeZone, start, end) => {
    expect(isoRange(text, timeZone)).toEqual([start, end]);
  });

  it('an ambiguous abbreviation written once is checked at both ends, and refused where it is not yours', () => {
    const out = parseTimeRange('yesterday 9am to 5pm IST', { now, timeZone: 'America/Los_Angeles' });
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.error).toMatch(/“IST” is the name of more than one time zone/);
  });

  it('without a zone, each end is in the user’s zone as before', () => {
    expect(isoRange('yesterday 9am to 5pm', 'Asia/Kolkata')).toEqual([
      '2026-11-24T03:30:00Z',
      '2026-11-24T11:30:00Z',
    ]);
  });
});

describe('since a time in a written zone', () => {
  it.each([
    ['since 8am CET', 'America/Los_Angeles', '2026-11-25T07:00:00Z'],
    ['since 8am CET', 'Pacific/Kiritimati', '2026-11-25T07:00:00Z'],
    // 20:00 CET has not yet come on Kiritimati's Thursday nor its Wednesday: it is Tuesday's.
    ['since 8pm CET', 'Pacific/Kiritimati', '2026-11-24T19:00:00Z'],
    ['since 11:30 UTC', 'Asia/Kolkata', '2026-11-25T11:30:00Z'],
    ['since 1pm UTC', 'Asia/Kolkata', '2026-11-24T13:00:00Z'],
    ['since yesterday 8am CET', 'Asia/Kolkata', '2026-11-24T07:00:00Z'],
  ])('%s (in %s) is the most recent one', (text, timeZone, start) => {
    expect(isoRange(text, timeZone)).toEqual([start, '2026-11-25T12:00:00Z']);
  });
});

describe('a range ending at midnight', () => {
  it.each([
    ['9pm to midnight', 'UTC', '2026-11-25T21:00:00Z', '2026-11-26T00:00:00Z'],
    ['9pm to midnight', 'Asia/Kolkata', '2026-11-25T15:30:00Z', '2026-11-25T18:30:00Z'],
    ['yesterday 9pm to midnight', 'UTC', '2026-11-24T21:00:00Z', '2026-11-25T00:00:00Z'],
  ])('%s (in %s) ends at the first midnight after the start', (text, timeZone, start, end) => {
    expect(isoRange(text, timeZone)).toEqual([start, end]);
  });
});

describe('since a time that has not come yet', () => {
  it('says so: the user wrote no end', () => {
    const out = parseTimeRange('since 8am', { now, timeZone: 'America/Los_Angeles' });
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.error).toBe(
      'The end (now, Wed 25 Nov 2026 04:00 PST (12:00 UTC)) is not after the start (Wed 25 Nov 2026 08:00 PST (16:00 UTC)): “8am” has not come yet. Give a start before now, like “since yesterday 8am”.',
    );
    expect(parseTimeRange(out.examples[0]!, { now, timeZone: 'America/Los_Angeles' }).ok).toBe(true);
  });
});
