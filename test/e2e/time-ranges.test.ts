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
  { id: 'U0NIRA', name: 'nira', tz: 'Asia/Kathmandu', locale: 'en-IN' }, // UTC+05:45
  { id: 'U0FLEUR', name: 'fleur', tz: 'Europe/Paris', locale: 'fr-FR' },
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
  it('shifts: refused until the channel declares them, then "last shift" is sent exactly, in each zone', async () => {
    const channel = 'C0GENERAL';
    const learn = (range: string) => `learn workspace=${W} signals=${T} range="${range}"`;
    const before = await h.commandAndReply(learn('last shift'), { user: 'U0NIRA', channel });
    expect(seen(before)).toContain('/tsai use shifts=06:00,14:00,22:00');
    expect(await h.serviceRequests()).toEqual([]);

    const set = await h.commandAndReply('use shifts=morning@06:00,late@14:00,night@22:00', {
      user: 'U0NIRA',
      channel,
    });
    expect(seen(set)).toContain('morning 06:00–14:00, late 14:00–22:00, night 22:00–06:00');

    // Sunday 15:45 in Kathmandu: the morning shift, 06:00–14:00 at +05:45, is the last one over.
    const nira = await h.commandAndReply(learn('last shift'), { user: 'U0NIRA', channel });
    expect(await sentRanges()).toEqual([
      { startTime: '2026-11-22T00:15:00Z', endTime: '2026-11-22T08:15:00Z' },
    ]);
    expect(seen(nira)).toContain('[morning shift = 06:00–14:00]');

    // Sunday 05:00 in New York: the night shift is going on, so the last one over is Saturday's late shift.
    await h.clearServiceRequests();
    await h.commandAndReply(learn('last shift'), { user: 'U0CAROL', channel });
    expect(await sentRanges()).toEqual([
      { startTime: '2026-11-21T19:00:00Z', endTime: '2026-11-22T03:00:00Z' },
    ]);

    // Another command, another zone: EVAL reads "the night shift on Friday" in Kolkata.
    await h.clearServiceRequests();
    await h.commandAndReply(`${EVAL} range="the night shift on Friday"`, { user: 'U0BOB', channel });
    expect(await evalRange()).toEqual({
      startTime: ns('2026-11-20T16:30:00Z'),
      endTime: ns('2026-11-21T00:30:00Z'),
    });

    // The shifts are this channel's: elsewhere the phrase is still refused, with how to declare them.
    await h.clearServiceRequests();
    await refused(learn('last shift'), 'U0NIRA', /\/tsai use shifts=06:00,14:00,22:00/);
  });

  it('counted back from now: days ago with times and hours ago, in the person’s zone', async () => {
    const learn = (range: string) => `learn workspace=${W} signals=${T} range="${range}"`;
    // Sunday 22 Nov 15:45 in Kathmandu: 3 days ago is Thursday 19 Nov.
    const reply = await h.commandAndReply(learn('3 days ago 9am to 5pm'), { user: 'U0NIRA' });
    expect(await sentRanges()).toEqual([
      { startTime: '2026-11-19T03:15:00Z', endTime: '2026-11-19T11:15:00Z' },
    ]);
    expect(seen(reply)).toContain('Thu 19 Nov 09:00 – 17:00');
    await h.clearServiceRequests();
    await h.commandAndReply(`${EVAL} range="from 6 hours ago to now"`, { user: 'U0CAROL' });
    expect(await evalRange()).toEqual({
      startTime: ns('2026-11-22T04:00:00Z'),
      endTime: ns('2026-11-22T10:00:00Z'),
    });
    await h.clearServiceRequests();
    await refused(learn('since 3 days ago'), 'U0NIRA', /since 3 days ago 00:00.*past 3 days/s);
  });

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

  it('a German and a French user give ranges in their own language, read exactly; replies stay in English', async () => {
    const learn = (range: string) => `learn workspace=${W} signals=${T} range="${range}"`;
    // Sunday 22 Nov 2026 11:00 in Berlin and Paris: yesterday is Saturday 21 Nov, at UTC+01:00.
    const de = await h.commandAndReply(learn('gestern von 9 bis 17 Uhr'), { user: 'U0DIRK' });
    expect(await sentRanges()).toEqual([
      { startTime: '2026-11-21T08:00:00Z', endTime: '2026-11-21T16:00:00Z' },
    ]);
    expect(seen(de)).toContain('Sat 21 Nov 09:00 – 17:00 CET (08:00–16:00 UTC)');

    await h.clearServiceRequests();
    await h.commandAndReply(`${EVAL} range="die letzten 3 Tage"`, { user: 'U0DIRK' });
    expect(await evalRange()).toEqual({
      startTime: ns('2026-11-19T10:00:00Z'),
      endTime: ns('2026-11-22T10:00:00Z'),
    });

    await h.clearServiceRequests();
    const fr = await h.commandAndReply(learn('la semaine dernière'), { user: 'U0FLEUR' });
    expect(await sentRanges()).toEqual([
      { startTime: '2026-11-08T23:00:00Z', endTime: '2026-11-15T23:00:00Z' },
    ]);
    expect(seen(fr)).toContain('Mon 9 Nov 00:00 – Mon 16 Nov 00:00 CET');

    await h.clearServiceRequests();
    await h.commandAndReply(learn('hier de 22h à 6h'), { user: 'U0FLEUR' });
    expect(await sentRanges()).toEqual([
      { startTime: '2026-11-21T21:00:00Z', endTime: '2026-11-22T05:00:00Z' },
    ]);

    // Refused with a reason, in English, and nothing reaches the service.
    await h.clearServiceRequests();
    await refused(
      learn('gestern von 9 bis'),
      'U0DIRK',
      /I read “gestern von 9 bis” as “yesterday from 9 to”/,
    );
    await refused(learn('hier quelque part'), 'U0FLEUR', /I read “hier quelque part” as/);
    // The same words from someone whose Slack language is English are not a range at all.
    await refused(learn('gestern von 9 bis 17 Uhr'), 'U0ALICE', /could not read/);
  });

  it('a range with two readings is refused with each one as a whole command to type, never one of them picked', async () => {
    const command = `learn workspace=${W} signals=${T} range="yesterday 1-5"`;
    const s = await refused(command, 'U0ALICE', /could be 01:00–05:00 or 13:00–17:00/);
    expect(s).toContain('Which did you mean?');
    expect(s).toContain(`/tsai learn workspace=${W} signals=${T} range=\\"yesterday 1am to 5am\\"`);
    expect(s).toContain(`/tsai learn workspace=${W} signals=${T} range=\\"yesterday 1pm to 5pm\\"`);

    // Each offered command works as typed.
    await h.commandAndReply(`learn workspace=${W} signals=${T} range="yesterday 1pm to 5pm"`, {
      user: 'U0ALICE',
    });
    expect(await sentRanges()).toEqual([
      { startTime: '2026-11-21T13:00:00Z', endTime: '2026-11-21T17:00:00Z' },
    ]);

    // A German phrase the language uses both ways offers the reading that can be over by now.
    await h.clearServiceRequests();
    const night = await refused(
      `learn workspace=${W} signals=${T} range="heute Nacht"`,
      'U0DIRK',
      /“heute Nacht” could be the night that ended this morning or the one to come/,
    );
    expect(night).toContain(`range=\\"letzte Nacht\\"`);
  });

  it('the kinds people write in their other tools, through the real bot: offsets, ISO intervals, weeks, so far', async () => {
    const learn = (range: string) => `learn workspace=${W} signals=${T} range="${range}"`;
    await h.commandAndReply(learn('now-30m to now-10m'), { user: 'U0NIRA' });
    expect(await sentRanges()).toEqual([
      { startTime: '2026-11-22T09:30:00Z', endTime: '2026-11-22T09:50:00Z' },
    ]);
    await h.clearServiceRequests();
    await h.commandAndReply(`${EVAL} range="2026-11-21T06:00:00.000000001Z/PT12H"`, { user: 'U0NIRA' });
    expect(await evalRange()).toEqual({
      startTime: '1795240800000000001',
      endTime: '1795284000000000001',
    });
    await h.clearServiceRequests();
    // ISO week 46 of 2026 is Mon 9 Nov to Mon 16 Nov; in Kathmandu (UTC+05:45).
    const kw = await h.commandAndReply(learn('KW 46'), { user: 'U0NIRA' });
    expect(await sentRanges()).toEqual([
      { startTime: '2026-11-08T18:15:00Z', endTime: '2026-11-15T18:15:00Z' },
    ]);
    expect(seen(kw)).toContain('Mon 9 Nov 00:00 – Mon 16 Nov 00:00');
    await h.clearServiceRequests();
    await h.commandAndReply(learn('today so far'), { user: 'U0CAROL' });
    expect(await sentRanges()).toEqual([
      { startTime: '2026-11-22T05:00:00Z', endTime: '2026-11-22T10:00:00Z' },
    ]);
    await h.clearServiceRequests();
    // Sunday 05:00 in New York: the night from Friday 22:00 to Saturday 06:00 EST.
    await h.commandAndReply(learn('the day before yesterday 10pm to 6am'), { user: 'U0CAROL' });
    expect(await sentRanges()).toEqual([
      { startTime: '2026-11-21T03:00:00Z', endTime: '2026-11-21T11:00:00Z' },
    ]);
  });

  it('a mention and a form read a German user’s range as the command does, each through the one reader', async () => {
    const echo = 'Sat 21 Nov 09:00 – 17:00 CET (08:00–16:00 UTC)';
    const asked = await h.slack.postUserMessage({
      user: 'U0DIRK',
      channel: 'C0GENERAL',
      text: `@tsai learn workspace=${W} signals=${T} range="gestern von 9 bis 17 Uhr"`,
    });
    await h.slack.waitFor(
      (sl) =>
        sl
          .messages('C0GENERAL', { threadTs: asked.ts })
          .some((m) => m.ts !== asked.ts && seen(m).includes(echo)),
      60_000,
      'the answer in the thread',
    );
    expect(await sentRanges()).toEqual([
      { startTime: '2026-11-21T08:00:00Z', endTime: '2026-11-21T16:00:00Z' },
    ]);

    // Without signals=, learn opens its form with the range in it; the preview is the same echo.
    await h.clearServiceRequests();
    await h.command(`learn workspace=${W} range="gestern von 9 bis 17 Uhr"`, { user: 'U0DIRK' });
    await h.slack.waitFor(
      (sl) => JSON.stringify(sl.topView('U0DIRK')?.view ?? {}).includes(echo) || undefined,
      30_000,
      'preview',
    );
  });
});
