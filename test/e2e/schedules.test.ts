// Schedules through the real bot over signed HTTP: the clock is the test's, the runs are the bot's.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONNECT_CALLBACK, TOKEN_BLOCK, TOKEN_INPUT } from '../../src/slack/identity/ids.js';
import { SEED } from '../../standins/emulator/index.js';
import { DEFAULT_CHANNELS, DEFAULT_USERS, type LocalMessage } from '../../standins/localslack/index.js';
import { emulatorControl, eventually } from '../support/emulator.js';
import { type Harness, startHarness } from '../support/harness.js';
import { registerSecrets } from '../support/logs.js';

const W = SEED.workspaces.pumpStation;
const T = SEED.signals.temperature;
const M = '1070000000000000002';
const OPS = 'C0OPS';
const ALICE = 'U0ALICE';
const BOB = 'U0BOB';
/** A private channel the bot has not been invited to. */
const NIGHT = 'C0NIGHT';
// Friday 27 November 2026, 05:00 in London (UTC+0): Alice's zone.
const NOW = Date.UTC(2026, 10, 27, 5, 0);

// biome-ignore lint/suspicious/noExplicitAny: tests read Block Kit JSON by path
type Block = Record<string, any>;
/** A message's text and every text in its blocks, as a person reads them (and the buttons' values). */
const seen = (m: LocalMessage | undefined): string => {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        if ((k === 'text' || k === 'value' || k === 'action_id') && typeof x === 'string') out.push(x);
        else walk(x);
      }
  };
  walk(m?.blocks ?? []);
  return m ? `${m.text}\n${out.join('\n')}` : '';
};

/** Waits for a condition outside Slack (the store, the service's log); the deadline only bounds a hang. */
const until = <T>(
  check: () => Promise<T | undefined | false | null>,
  ms: number,
  _what: string,
): Promise<T> => eventually<T>(async () => ((await check()) || undefined) as T | undefined, ms * 3);

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    now: new Date(NOW),
    flowDelays: { runningAfterMs: 300, completedAfterMs: 1_000 },
    env: { TSAI_TRACK_FIRST_POLL: '100ms', TSAI_TRACK_MAX_INTERVAL: '400ms', TSAI_APPROVERS: BOB },
    users: DEFAULT_USERS,
    channels: [
      ...DEFAULT_CHANNELS,
      { id: NIGHT, name: 'night-shift', isPrivate: true, botMember: false, members: [ALICE, BOB] },
    ],
  });
});
afterAll(async () => {
  await h?.close();
});
beforeEach(async () => {
  await h.clearServiceRequests();
});

const botMessages = (channel: string) =>
  h.slack.messages(channel).filter((m) => m.user === h.slack.botUserId);
const learnsSent = async () =>
  (await h.serviceRequests()).filter(
    (r) => r.method === 'POST' && (r.body as Block | undefined)?.spec?.dataspec !== undefined,
  );

async function scheduleNamed(name: string) {
  return until(
    async () => (await h.store.listSchedules({ channelId: OPS })).find((s) => s.name === name),
    5_000,
    `the schedule ${name}`,
  );
}

describe('a schedule through the real bot', () => {
  it('fires at its instant, reads its range at that instant, and its flow is followed to its end', async () => {
    const reply = await h.commandAndReply(
      `schedule "every weekday at 06:00" name="shift learn" learn workspace=${W} signals=${T}:temperature range="last 8 hours"`,
    );
    const text = seen(reply);
    expect(text).toContain('every weekday at 06:00');
    expect(text).toContain('Europe/London');
    // The next three runs as Slack dates: Friday, Monday, Tuesday at 06:00.
    for (const at of [Date.UTC(2026, 10, 27, 6), Date.UTC(2026, 10, 30, 6), Date.UTC(2026, 11, 1, 6)])
      expect(text).toContain(`<!date^${at / 1000}^`);
    // Its notification text names them in words, never as ISO timestamps.
    expect(reply.text).toContain('Next: 2026-11-27 06:00 UTC, 2026-11-30 06:00 UTC, 2026-12-01 06:00 UTC');
    expect(reply.text).not.toMatch(/\d{4}-\d\d-\d\dT\d/);
    const s = await scheduleNamed('shift learn');
    expect(s).toMatchObject({
      status: 'active',
      ownerId: ALICE,
      timeZone: 'Europe/London',
      nextRunAt: Date.UTC(2026, 10, 27, 6),
    });
    expect(await learnsSent()).toEqual([]);

    // A minute before: nothing. At its instant: one learn, over the 8 hours before 06:00.
    h.clock.set(Date.UTC(2026, 10, 27, 5, 59));
    h.clock.set(Date.UTC(2026, 10, 27, 6, 0, 20));
    const [sent] = await until(
      async () => {
        const l = await learnsSent();
        return l.length ? l : undefined;
      },
      10_000,
      'the scheduled learn',
    );
    expect((sent!.body as Block).spec.dataspec.specs[0].timeRanges).toEqual([
      { startTime: '2026-11-26T22:00:00Z', endTime: '2026-11-27T06:00:00Z' },
    ]);
    // Announced in the schedule's channel, followed to its end: one reply in its thread.
    const announced = await h.slack.waitFor(
      () =>
        botMessages(OPS).find(
          (m) =>
            !m.threadTs && /ANOMALYLEARN|learn/i.test(m.text) && /\d{19}/.test(m.text) && m.ts !== reply.ts,
        ),
      5_000,
      'the scheduled flow’s announcement',
    );
    await h.slack.waitFor(
      () => botMessages(OPS).find((m) => m.threadTs === announced.ts),
      10_000,
      'the end of the scheduled flow',
    );
    const after = await until(
      async () => {
        const x = await h.store.getSchedule(s.id);
        return x?.lastOutcome ? x : undefined;
      },
      5_000,
      'the run recorded',
    );
    expect(after).toMatchObject({
      lastOutcome: 'ok',
      lastRunAt: Date.UTC(2026, 10, 27, 6),
      nextRunAt: Date.UTC(2026, 10, 30, 6),
    });
    const runs = await h.store.listScheduleRuns({ scheduleIds: [s.id] });
    expect(runs.map((r) => [r.plannedAt, r.state])).toEqual([[Date.UTC(2026, 10, 27, 6), 'ok']]);
    expect(runs[0]!.flowId).toMatch(/^\d{19}$/);
    // Later rounds do not run it again.
    await until(
      async () => (await h.store.getSchedule(s.id))?.leaseOwner === null || undefined,
      5_000,
      'lease given back',
    );
    expect(await learnsSent()).toHaveLength(1);

    // `/tsai schedules` shows it with its next run and last outcome; pause and delete by number.
    const list = seen(await h.commandAndReply('schedules'));
    expect(list).toContain('every weekday at 06:00');
    expect(list).toContain(`<!date^${Date.UTC(2026, 10, 30, 6) / 1000}^`);
    expect(list).toMatch(/ran/);
    const notOwner = seen(await h.commandAndReply('schedule pause 1', { user: 'U0CAROL' }));
    expect(notOwner).toMatch(/Only the schedule's owner or an approver/);
    expect(seen(await h.commandAndReply('schedule pause 1'))).toMatch(/paused the schedule/);
    expect((await h.store.getSchedule(s.id))?.status).toBe('paused');
    expect(seen(await h.commandAndReply('schedule delete "shift learn"'))).toMatch(/deleted the schedule/);
  });

  it.each([
    ['schedule "whenever" flows', /cannot read "whenever"/, /\/tsai schedule "every weekday at 06:00" /],
    [
      `schedule "every day at 06:00" learn workspace=${W} signalz=${T}`,
      /would be refused.*signalz/s,
      /\/tsai schedule "every day at 06:00" learn /,
    ],
    [
      `schedule "every day at 06:00" learn workspace=${W}`,
      /must be complete/,
      /\/tsai schedule "every day at 06:00" learn /,
    ],
    [
      `schedule "every day at 06:00" live start assessment=${SEED.assessments.temperature}`,
      /names its model/,
      /live start 1070000000000000002/,
    ],
    ['schedule "every day at 06:00" use clear', /Only commands that ask the service/, /\/tsai schedule /],
  ])('refuses %j at once with the reason and a correct example', async (command, reason, example) => {
    const reply = seen(await h.commandAndReply(command));
    expect(reply).toMatch(reason);
    expect(reply).toMatch(example);
    expect(await h.serviceRequests()).toEqual([]);
  });

  it('a live start runs on a schedule only once approved; a rejected schedule never runs', async () => {
    const liveSent = async () =>
      (await h.serviceRequests()).filter(
        (r) => r.method === 'POST' && /live|STARTLIVE/i.test(r.path + JSON.stringify(r.body)),
      );
    const approvalsBefore = (await h.store.listApprovals()).length;
    await h.commandAndReply(`schedule "every day at 07:00" name="rejected live" live start ${M}`);
    const rejected = await scheduleNamed('rejected live');
    expect(rejected.status).toBe('awaiting-approval');
    const card = await h.slack.waitFor(
      () =>
        botMessages(OPS).find((m) => seen(m).includes(rejected.id) && seen(m).includes('schedule_approve')),
      5_000,
      'the schedule’s approval card',
    );
    // The card says when it will run.
    expect(seen(card)).toContain(`<!date^${Date.UTC(2026, 10, 27, 7) / 1000}^`);
    // The owner may not approve their own schedule; an approver rejects it.
    await h.slack.clickButton({
      user: ALICE,
      channel: OPS,
      messageTs: card.ts,
      actionId: 'schedule_approve',
      value: rejected.id,
    });
    await h.slack.clickButton({
      user: BOB,
      channel: OPS,
      messageTs: card.ts,
      actionId: 'schedule_reject',
      value: rejected.id,
    });
    await until(
      async () => (await h.store.getSchedule(rejected.id))?.status === 'rejected' || undefined,
      5_000,
      'rejected',
    );

    await h.commandAndReply(`schedule "every day at 07:00" name="approved live" live start ${M}`);
    const approved = await scheduleNamed('approved live');
    const card2 = await h.slack.waitFor(
      () =>
        botMessages(OPS).find((m) => seen(m).includes(approved.id) && seen(m).includes('schedule_approve')),
      5_000,
      'the second approval card',
    );
    await h.slack.clickButton({
      user: BOB,
      channel: OPS,
      messageTs: card2.ts,
      actionId: 'schedule_approve',
      value: approved.id,
    });
    await until(
      async () => (await h.store.getSchedule(approved.id))?.status === 'active' || undefined,
      5_000,
      'approved',
    );
    expect(await liveSent()).toEqual([]);

    h.clock.set(Date.UTC(2026, 10, 27, 7, 0, 5));
    await until(
      async () => ((await liveSent()).length ? true : undefined),
      10_000,
      'the approved live start',
    );
    await until(
      async () => (await h.store.getSchedule(approved.id))?.lastOutcome === 'ok' || undefined,
      5_000,
      'recorded',
    );
    // One live start (the approved schedule's), none for the rejected one, and no approval request filed.
    expect(await liveSent()).toHaveLength(1);
    expect(await h.store.listScheduleRuns({ scheduleIds: [rejected.id] })).toEqual([]);
    expect((await h.store.listApprovals()).length).toBe(approvalsBefore);

    // Revoked, it never runs again.
    const card3 = h.slack.messages(OPS).find((m) => m.ts === card2.ts)!;
    expect(seen(card3)).toContain('schedule_revoke');
    await h.slack.clickButton({
      user: BOB,
      channel: OPS,
      messageTs: card2.ts,
      actionId: 'schedule_revoke',
      value: approved.id,
    });
    await until(
      async () => (await h.store.getSchedule(approved.id))?.status === 'rejected' || undefined,
      5_000,
      'revoked',
    );
    // A lookup due at the same instant shows that the runner has been past it.
    await h.commandAndReply(`schedule "every day at 07:00" name="witness" workspace show ${W}`);
    const witness = await scheduleNamed('witness');
    await h.clearServiceRequests();
    h.clock.set(Date.UTC(2026, 10, 28, 7, 0, 5));
    await until(
      async () => (await h.store.getSchedule(witness.id))?.lastOutcome === 'ok',
      5_000,
      'the witness ran',
    );
    expect(await liveSent()).toEqual([]);
    expect((await h.store.listScheduleRuns({ scheduleIds: [approved.id] })).map((r) => r.plannedAt)).toEqual([
      Date.UTC(2026, 10, 27, 7),
    ]);
  });

  it('posts a digest of the channel now', async () => {
    const before = new Set(botMessages(OPS).map((m) => m.ts));
    await h.command('digest now');
    const digest = await h.slack.waitFor(
      () =>
        botMessages(OPS)
          .filter((m) => !before.has(m.ts))
          .find((m) => /Digest for/.test(seen(m))),
      5_000,
      'the digest',
    );
    const text = seen(digest);
    expect(text).toMatch(/flows? started/);
    expect(text).toMatch(/Completed|Runs next|Schedule runs/);
    expect((digest.blocks ?? []).length).toBeLessThanOrEqual(50);
  });

  it('a digest on a schedule posts one message per period in the channel, within Block Kit limits', async () => {
    h.clock.set(Date.UTC(2026, 10, 27, 6, 30));
    const reply = seen(await h.commandAndReply('digest "every day at 07:00"'));
    expect(reply).toContain('every day at 07:00');
    const s = await scheduleNamed('digest every day at 07:00');
    const before = new Set(botMessages(OPS).map((m) => m.ts));
    h.clock.set(Date.UTC(2026, 10, 27, 7, 0, 3));
    const digest = await h.slack.waitFor(
      () =>
        botMessages(OPS)
          .filter((m) => !before.has(m.ts))
          .find((m) => /Digest for/.test(seen(m))),
      5_000,
      'the scheduled digest',
    );
    // The period since the day before: the scheduled learn of 06:00 is in it, and what runs next.
    const text = seen(digest);
    expect(text).toMatch(/ANOMALYLEARN/);
    expect(text).toMatch(/Runs next/);
    expect((digest.blocks ?? []).length).toBeLessThanOrEqual(50);
    await until(async () => (await h.store.getSchedule(s.id))?.lastOutcome === 'ok', 5_000, 'recorded');
    await h.commandAndReply('schedule delete "digest every day at 07:00"');
  });

  it('a digest of a channel without the bot comes to its owner by direct message, with how to invite the bot', async () => {
    h.clock.set(Date.UTC(2026, 10, 27, 6, 30));
    await h.command('digest "every day at 07:00"', { channel: NIGHT });
    const s = await until(
      async () => (await h.store.listSchedules({ channelId: NIGHT }))[0],
      5_000,
      'the night digest',
    );
    const dms = () => h.slack.messages(`D${ALICE}`).filter((m) => m.user === h.slack.botUserId);
    const before = new Set(dms().map((m) => m.ts));
    h.clock.set(Date.UTC(2026, 10, 27, 7, 0, 3));
    const got = await h.slack.waitFor(
      () => {
        const fresh = dms().filter((m) => !before.has(m.ts));
        const digest = fresh.find((m) => /Digest for/.test(seen(m)));
        const hint = fresh.find((m) => m.text.includes('/invite @tsai'));
        return digest && hint ? { digest, hint } : undefined;
      },
      10_000,
      'the digest and the hint by direct message',
    );
    expect(got.hint.text).toContain(`I'm not in <#${NIGHT}>`);
    expect(got.hint.text).toMatch(/sent its digest to you here instead/);
    expect(got.hint.text).not.toMatch(/channel_not_found|not_in_channel/);
    expect(h.slack.messages(NIGHT).filter((m) => /Digest for/.test(seen(m)))).toEqual([]);
    await until(async () => (await h.store.getSchedule(s.id))?.lastOutcome === 'ok', 5_000, 'recorded');

    await h.command(`schedule delete "${s.name}"`, { channel: NIGHT });
  });

  it('after downtime, runs the latest missed run once if less than an hour late, skips older ones and tells the owner once', async () => {
    const start = Date.UTC(2026, 10, 27, 8, 30);
    h.clock.set(start);
    await h.commandAndReply(`schedule "every hour" name="hourly look" workspace show ${W}`);
    const s = await scheduleNamed('hourly look');
    expect(s.nextRunAt).toBe(Date.UTC(2026, 10, 27, 9));
    const dmsBefore = new Set(h.slack.messages(`D${ALICE}`).map((m) => m.ts));
    // The bot "was down" from 08:30 to 11:20: 09:00 and 10:00 are more than an hour late, 11:00 is not.
    h.clock.set(Date.UTC(2026, 10, 27, 11, 20));
    const after = await until(
      async () => {
        const x = await h.store.getSchedule(s.id);
        return x?.lastRunAt === Date.UTC(2026, 10, 27, 11) ? x : undefined;
      },
      5_000,
      'the latest missed run',
    );
    expect(after).toMatchObject({ lastOutcome: 'ok', nextRunAt: Date.UTC(2026, 10, 27, 12) });
    const runs = await h.store.listScheduleRuns({ scheduleIds: [s.id] });
    expect(runs.map((r) => [new Date(r.plannedAt).toISOString().slice(11, 16), r.state])).toEqual([
      ['11:00', 'ok'],
      ['10:00', 'skipped'],
      ['09:00', 'skipped'],
    ]);
    const told = await h.slack.waitFor(
      () =>
        h.slack
          .messages(`D${ALICE}`)
          .filter((m) => !dmsBefore.has(m.ts))
          .find((m) => /missed 2 runs/.test(seen(m))),
      5_000,
      'the owner told of the skipped runs',
    );
    expect(seen(told)).toMatch(/skipped, not run late/);
    expect(seen(told)).toMatch(/latest one.*ran now/);
    await h.commandAndReply(`schedule delete "hourly look"`);
  });
});

describe('a schedule whose owner’s token the service turns down', () => {
  it('pauses once, and tells the owner once with Reconnect', async () => {
    const control = emulatorControl(h.emulator.url);
    const { token } = (await control('POST', 'users', { name: 'alice-own', role: 'Manager' })) as {
      token: string;
    };
    registerSecrets(token);
    const before = h.slack.topView(ALICE)?.id;
    await h.command('connect');
    const form = await h.slack.waitFor(
      (x) => {
        const v = x.topView(ALICE);
        return v && v.view.callback_id === CONNECT_CALLBACK && v.id !== before ? v : undefined;
      },
      8_000,
      'the Connect form',
    );
    await h.slack.submitView({
      user: ALICE,
      viewId: form.id,
      values: { [TOKEN_BLOCK]: { [TOKEN_INPUT]: token } },
    });
    await until(async () => h.store.getPersonToken(h.slack.teamId, ALICE), 5_000, 'connected');

    h.clock.set(Date.UTC(2026, 10, 27, 12, 10));
    await h.commandAndReply(`schedule "every hour" name="own token" workspace show ${W}`);
    const s = await scheduleNamed('own token');
    await control('DELETE', 'users/alice-own');
    const dmsBefore = new Set(h.slack.messages(`D${ALICE}`).map((m) => m.ts));
    h.clock.set(Date.UTC(2026, 10, 27, 13, 0, 5));
    const paused = await until(
      async () => {
        const x = await h.store.getSchedule(s.id);
        return x?.status === 'paused' ? x : undefined;
      },
      5_000,
      'paused',
    );
    expect(paused.statusReason).toMatch(/turned down its owner’s token/);
    const pauseNotices = () =>
      h.slack
        .messages(`D${ALICE}`)
        .filter((m) => !dmsBefore.has(m.ts))
        .filter((m) => /is paused: the service turned down your token/.test(seen(m)));
    const notice = await h.slack.waitFor(() => pauseNotices()[0], 5_000, 'the pause notice');
    expect(seen(notice)).toContain('identity_connect');
    // Later hours: nothing runs, nothing more is said.
    const requests = (await h.serviceRequests()).length;
    h.clock.set(Date.UTC(2026, 10, 27, 14, 0, 5));
    // Alice cannot make another schedule until she reconnects; Carol's shows the runner went past 15:00.
    expect(seen(await h.commandAndReply(`schedule "every hour" workspace show ${W}`))).toMatch(
      /turned down your token/,
    );
    await h.commandAndReply(`schedule "every hour" name="witness 2" workspace show ${W}`, {
      user: 'U0CAROL',
    });
    h.clock.set(Date.UTC(2026, 10, 27, 15, 0, 5));
    const witness = await scheduleNamed('witness 2');
    await until(
      async () => (await h.store.getSchedule(witness.id))?.lastRunAt === Date.UTC(2026, 10, 27, 15),
      5_000,
      'witness ran',
    );
    expect((await h.store.listScheduleRuns({ scheduleIds: [s.id] })).length).toBe(1);
    expect(pauseNotices()).toHaveLength(1);
    expect((await h.serviceRequests()).length).toBeGreaterThan(requests);
  });
});
