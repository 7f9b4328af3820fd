// Time ranges end to end: one test per kind of phrase, through the real bot, checking the body the service
// emulator received (or that it received nothing) and what the user was told. The harness's clock is
// Sunday 22 Nov 2026 10:00 UTC: 10:00 in London, 15:30 in Kolkata, 05:00 in New York, 11:00 in Berlin.
import { beforeEach, describe, expect, it } from 'vitest';
import { SEED } from '../../standins/emulator/index.js';
import type { LocalMessage, LocalUser } from '../../standins/localslack/index.js';
import { stackForThisSuite } from '../support/fixtures/stack.js';
import type { Harness } from '../support/harness.js';

const S = SEED;
const W = S.workspaces.pumpStation;
const T = S.signals.temperature;
const M = S.models.temperatureAnomaly;
const EVAL = `eval ${S.assessments.temperature} model=${M} datastream=${S.datastream} entities=pump-1`;

const USERS: LocalUser[] = [
  { id: 'U0ALICE', name: 'alice', tz: 'Europe/London', locale: 'en-GB' },
  { id: 'U0BOB', name: 'bob', tz: 'Asia/Kolkata', locale: 'en-IN' },
  { id: 'U0CAROL', name: 'carol', tz: 'America/New_York', locale: 'en-US' },
  { id: 'U0DIRK', name: 'dirk', tz: 'Europe/Berlin', locale: 'de-DE' },
  { id: 'U0NOLOC', name: 'noloc', tz: 'Europe/Berlin' }, // Slack gives no locale
];

let h: Harness;
stackForThisSuite(
  (started) => {
    h = started;
  },
  { users: USERS },
);
beforeEach(async () => {
  await h.clearServiceRequests();
});

const seen = (m: LocalMessage) => `${m.text}\n${JSON.stringify(m.blocks ?? [])}`;
const ns = (iso: string) => (BigInt(Date.parse(iso)) * 1_000_000n).toString();

/** What the commands asked of the service, less the flow tracker's reads. */
const asked = () => h.askedOfService();

/** The time ranges of the inline dataspec the last flow request carried. */
async function sentRanges(): Promise<unknown> {
  const last = (await asked()).at(-1);
  const body = last?.body as { spec?: { dataspec?: { specs?: { timeRanges?: unknown }[] } } } | undefined;
  return body?.spec?.dataspec?.specs?.[0]?.timeRanges;
}

async function evalRange(): Promise<unknown> {
  const last = (await asked()).at(-1);
  const body = last?.body as { spec?: { segments?: { timeRange?: unknown }[] } } | undefined;
  return body?.spec?.segments?.[0]?.timeRange;
}

async function refused(text: string, user: string, pattern: RegExp): Promise<string> {
  const reply = await h.commandAndReply(text, { user });
  const s = seen(reply);
  expect(reply.ephemeralTo).toBe(user);
  expect(s).toMatch(pattern);
  expect(await asked()).toEqual([]);
  return s;
}

describe('time ranges end to end', () => {
  it('named parts of a day: "last night" is 22:00 to 06:00, and the echo says so', async () => {
    const reply = await h.commandAndReply(`learn workspace=${W} signals=${T} range="last night"`, {
      user: 'U0ALICE',
    });
    expect(await sentRanges()).toEqual([
      { startTime: '2026-11-21T22:00:00Z', endTime: '2026-11-22T06:00:00Z' },
    ]);
    expect(seen(reply)).toContain('Sat 21 Nov 22:00 – Sun 22 Nov 06:00 GMT [night = 22:00–06:00]');
  });

  it('named weeks: "last weekend" is Saturday to Monday of last week; "next week" is refused for learning', async () => {
    await h.commandAndReply(`learn workspace=${W} signals=${T} range="last weekend"`, { user: 'U0BOB' });
    // Sat 14 Nov 00:00 to Mon 16 Nov 00:00 in Kolkata (UTC+05:30)
    expect(await sentRanges()).toEqual([
      { startTime: '2026-11-13T18:30:00Z', endTime: '2026-11-15T18:30:00Z' },
    ]);
    await h.clearServiceRequests();
    await refused(`learn workspace=${W} signals=${T} range="next week"`, 'U0BOB', /ends in the future/);
  });

  it('weekday spans: the most recent one that is over, never stretched to reach a future day', async () => {
    // Sunday 05:00 in New York: Friday 20 Nov 17:00 to Monday 23 Nov 09:00 is not over, so it is the one before.
    const reply = await h.commandAndReply(`${EVAL} range="Friday 5pm to Monday 9am"`, { user: 'U0CAROL' });
    expect(await evalRange()).toEqual({
      startTime: ns('2026-11-13T22:00:00Z'),
      endTime: ns('2026-11-16T14:00:00Z'),
    });
    expect(seen(reply)).toContain(
      'Fri 13 Nov 17:00 – Mon 16 Nov 09:00 EST (Fri 13 Nov 22:00 – Mon 16 Nov 14:00 UTC)',
    );
  });

  it('day/month order: read the region’s way, refused with both readings when the region is unknown', async () => {
    const de = await h.commandAndReply(`learn workspace=${W} signals=${T} range="01/11/2026"`, {
      user: 'U0DIRK',
    });
    expect(await sentRanges()).toEqual([
      { startTime: '2026-10-31T23:00:00Z', endTime: '2026-11-01T23:00:00Z' },
    ]);
    expect(seen(de)).toContain('[01/11/2026 = 1 Nov 2026 (day first, as in de-DE)]');

    await h.commandAndReply(`learn workspace=${W} signals=${T} range="01/11/2026"`, { user: 'U0CAROL' });
    expect(await sentRanges()).toEqual([
      { startTime: '2026-01-11T05:00:00Z', endTime: '2026-01-12T05:00:00Z' },
    ]);

    await h.clearServiceRequests();
    const s = await refused(
      `learn workspace=${W} signals=${T} range="01/11/2026"`,
      'U0NOLOC',
      /could be 1 Nov 2026 \(day first\) or 11 Jan 2026 \(month first\)/,
    );
    expect(s).toContain('2026-11-01');

    await h.commandAndReply(`learn workspace=${W} signals=${T} range="13/11/2026"`, { user: 'U0NOLOC' });
    expect(await sentRanges()).toEqual([
      { startTime: '2026-11-12T23:00:00Z', endTime: '2026-11-13T23:00:00Z' },
    ]);
  });

  it('impossible instants: before 1970 is refused in the user’s words, not the wire schema’s', async () => {
    const s = await refused(
      `${EVAL} range="1969-12-31 to 1970-01-02"`,
      'U0ALICE',
      /before 1 Jan 1970 00:00 UTC, and the service keeps nothing earlier/,
    );
    expect(s).not.toMatch(/startTime|segments|spec\./);
  });

  it('"today" as an end means now, so EVAL takes "yesterday to today"', async () => {
    const reply = await h.commandAndReply(`${EVAL} range="yesterday to today"`, { user: 'U0ALICE' });
    expect(await evalRange()).toEqual({
      startTime: ns('2026-11-21T00:00:00Z'),
      endTime: ns('2026-11-22T10:00:00Z'),
    });
    expect(seen(reply)).toContain('Sat 21 Nov 00:00 – Sun 22 Nov 10:00 GMT');
  });

  it('plain English: "the last 3 days" and "the past 24 hours"', async () => {
    await h.commandAndReply(`learn workspace=${W} signals=${T} range="the last 3 days"`, { user: 'U0ALICE' });
    expect(await sentRanges()).toEqual([
      { startTime: '2026-11-19T10:00:00Z', endTime: '2026-11-22T10:00:00Z' },
    ]);
    await h.commandAndReply(`relearn ${M} workspace=${W} signals=${T} range="the past 24 hours"`, {
      user: 'U0ALICE',
    });
    expect(await sentRanges()).toEqual([
      { startTime: '2026-11-21T10:00:00Z', endTime: '2026-11-22T10:00:00Z' },
    ]);
  });

  it('learning and scoring refuse ranges that are not over, as EVAL does', async () => {
    await refused(`learn workspace=${W} signals=${T} range="tomorrow"`, 'U0ALICE', /ends in the future/);
    await refused(
      `relearn ${M} workspace=${W} signals=${T} range="this week; next week"`,
      'U0ALICE',
      /future/,
    );
    await refused(
      `score ${M} workspace=${W} signals=${T} prefix=p range="yesterday 9am to tomorrow 5pm"`,
      'U0ALICE',
      /ends in the future/,
    );
  });

  it('forms: a modal previews a range exactly as the command echoes it, with the same refusals', async () => {
    const reply = await h.commandAndReply(`learn workspace=${W} signals=${T} range="last night"`, {
      user: 'U0ALICE',
    });
    const echo = 'Sat 21 Nov 22:00 – Sun 22 Nov 06:00 GMT [night = 22:00–06:00]';
    expect(seen(reply)).toContain(echo);
    await h.clearServiceRequests();

    // Without signals=, learn opens its modal prefilled with the range; the preview is the same echo.
    await h.command(`learn workspace=${W} range="last night"`, { user: 'U0ALICE' });
    await h.slack.waitFor(
      (s) => JSON.stringify(s.topView('U0ALICE')?.view ?? {}).includes(echo) || undefined,
      30_000,
      'preview',
    );

    await h.command(`learn workspace=${W} range="tomorrow"`, { user: 'U0ALICE' });
    await h.slack.waitFor(
      (s) => JSON.stringify(s.topView('U0ALICE')?.view ?? {}).includes('ends in the future') || undefined,
      30_000,
      'refusal in the preview',
    );
    // The flow the first learn created is being followed meanwhile: its reads are the tracker's, not the
    // preview's, and come whenever the tracker's schedule says.
    const followed = (r: { method: string; path: string }) =>
      r.method === 'GET' && /\/flows\/\d+$/.test(r.path);
    expect((await h.serviceRequests()).filter((r) => !followed(r))).toEqual([]);
  });
});
