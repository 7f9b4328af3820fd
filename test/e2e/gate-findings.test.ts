// What a security review found on the schedules and Workflow Builder steps, each through the real bot
// (signed HTTP, the local Slack, the emulator): a scheduled live start decided by the wrong approvers and
// run without the live pre-checks, a schedule that outlives its owner's rights, secrets kept and shown, no
// limits, schedules past the 100th that nobody can manage, a step's "Run as" taken on trust, and a
// schedule decision from another Slack team.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SEED } from '../../standins/emulator/index.js';
import type { FunctionDefinition, LocalMessage } from '../../standins/localslack/index.js';
import { textOf } from '../support/approvals-rig.js';
import { eventually } from '../support/emulator.js';
import { type Harness, startHarness } from '../support/harness.js';
import { registerSecrets } from '../support/logs.js';

const W = SEED.workspaces.pumpStation;
/** Pump station A's M[0] of the pressure assessment: the service says it is in W, and not live. */
const M3 = SEED.models.pressureCommon;
const OPS = 'C0OPS';
const LAB = 'C0LAB';
const MANY = 'C0MANY';
const GENERAL = 'C0GENERAL';
const ALICE = 'U0ALICE';
const BOB = 'U0BOB';
const CAROL = 'U0CAROL';
const DAVE = 'U0DAVE';
const ERIN = 'U0ERIN';
const FRANK = 'U0FRANK';
const GINA = 'U0GINA';
const OPERATORS = 'S0OPERATORS';
/** A service token pasted where it does not belong. */
const PASTED = 'tsai-pat-9f8e7d6c5b4a39281706f5e4d3c2b1a0';
const PASTED_2 = 'xoxp-2718281828-3141592653-a1b2c3d4e5f6a7b8c9d0e1f2';
// Friday 27 November 2026, 05:00 UTC.
const NOW = Date.UTC(2026, 10, 27, 5, 0);

const FUNCTIONS = (
  parse(readFileSync(new URL('../../manifest.yml', import.meta.url), 'utf8')) as {
    functions: Record<string, FunctionDefinition>;
  }
).functions;

let h: Harness;
beforeAll(async () => {
  registerSecrets(PASTED, PASTED_2);
  h = await startHarness({
    now: new Date(NOW),
    flowDelays: { runningAfterMs: 100, completedAfterMs: 400 },
    env: {
      TSAI_TRACK_FIRST_POLL: '100ms',
      TSAI_TRACK_MAX_INTERVAL: '300ms',
      // Bob and Carol approve for the bot; Carol alone for Pump station A, the workspace of M3.
      TSAI_APPROVERS: `${BOB},${CAROL}`,
      TSAI_WORKSPACE_APPROVERS: `${W}=${CAROL}`,
      TSAI_OPERATORS: OPERATORS,
      TSAI_ALLOWED_CHANNELS: `${OPS},${LAB},${MANY}`,
      TSAI_SCHEDULES_PER_PERSON: '4',
      TSAI_SCHEDULES_PER_CHANNEL: '6',
    },
    users: [ALICE, BOB, CAROL, DAVE, ERIN, FRANK, GINA].map((id) => ({
      id,
      name: id.slice(3).toLowerCase(),
      tz: 'UTC',
    })),
    channels: [
      { id: OPS, name: 'plant-ops' },
      { id: LAB, name: 'lab' },
      { id: MANY, name: 'many' },
      { id: GENERAL, name: 'general' },
    ],
    usergroups: [{ id: OPERATORS, handle: 'operators', users: [ALICE, BOB, CAROL, DAVE, ERIN, FRANK, GINA] }],
    functions: FUNCTIONS,
  });
});
afterAll(async () => {
  if (process.env.SHOW_LOGS) console.log(h?.logs.filter((l) => /"level":(40|50)/.test(l)).join('\n'));
  await h?.close();
});

const bot = () => h.slack.botUserId;
const botMessages = (channel: string) => h.slack.messages(channel).filter((m) => m.user === bot());
const dms = (user: string) => botMessages(`D${user}`);
const until = <T>(check: () => Promise<T | undefined | false | null>, what: string): Promise<T> =>
  eventually<T>(async () => ((await check()) || undefined) as T | undefined, 60_000).catch((e: unknown) => {
    throw new Error(`waited for ${what}: ${String(e)}`);
  });

async function ask(text: string, user = ALICE, channel = OPS): Promise<string> {
  return textOf(await h.commandAndReply(text, { user, channel }));
}

async function scheduleNamed(name: string, channel = OPS) {
  return until(
    async () => (await h.store.listSchedules({ channelId: channel })).find((s) => s.name === name),
    `the schedule ${name}`,
  );
}

function cardOf(scheduleId: string, channel = OPS): Promise<LocalMessage> {
  return h.slack.waitFor(
    () => botMessages(channel).find((m) => textOf(m).includes(scheduleId) && /approv/i.test(textOf(m))),
    60_000,
    `the approval card of ${scheduleId}`,
  );
}

async function clickSchedule(
  user: string,
  card: LocalMessage,
  action: 'approve' | 'reject' | 'revoke',
  scheduleId: string,
  teamId?: string,
) {
  const d = await h.slack.clickButton({
    user,
    channel: card.channel,
    messageTs: card.ts,
    actionId: `schedule_${action}`,
    value: scheduleId,
    ...(teamId ? { teamId } : {}),
  });
  expect(d.status).toBe(200);
}

const livePosts = async (model: string) =>
  (await h.serviceRequests()).filter(
    (r) =>
      r.method === 'POST' &&
      r.path.endsWith('/flows') &&
      /LIVEMODEL/.test(JSON.stringify(r.body ?? '')) &&
      JSON.stringify(r.body).includes(model),
  );

/** A run of `scheduleId` recorded at `plannedAt`. */
const runOf = (scheduleId: string, plannedAt: number) =>
  until(
    async () =>
      (await h.store.listScheduleRuns({ scheduleIds: [scheduleId] })).find(
        (r) => r.plannedAt === plannedAt && r.state !== 'claimed',
      ),
    `the run of ${scheduleId} at ${new Date(plannedAt).toISOString()}`,
  );

/**
 * A run of the witness (`workspace show`, Bob's, in #plant-ops), until its answer is shown: the run is
 * recorded before its answer is posted, which must not be taken for Bob's reply to a later command.
 */
async function witnessed(run: () => Promise<unknown>): Promise<void> {
  // A lookup's answer is shown to its owner alone, in the channel.
  const shown = () =>
    botMessages(OPS).filter((m) => m.ephemeralTo === BOB && textOf(m).includes('Pump station A')).length;
  const before = shown();
  await run();
  await h.slack.waitFor(() => shown() > before, 60_000, "the witness's answer in #plant-ops");
}

describe('one approver rule: a schedule of a live start is decided by the approvers of its model', () => {
  it('the bot-wide approver is refused for a model of a workspace with its own approvers; its runs meet the live pre-checks', async () => {
    // The service says where M3 is: the common model of the pressure assessment, in Pump station A.
    expect(await ask(`workspace show ${W}`)).toContain('Pump station A');
    expect(await ask(`model common ${SEED.assessments.pressure}`)).toContain(M3);
    await until(
      async () => (await h.store.getCatalogEntry(h.slack.teamId, 'model', M3))?.workspaceId === W,
      'M3 placed in W',
    );
    await ask(`schedule "every day at 07:00" name="f1 live" live start ${M3}`);
    const s = await scheduleNamed('f1 live');
    expect(s.status).toBe('awaiting-approval');
    const card = await cardOf(s.id);
    expect(textOf(card)).toMatch(/approvers for workspace "Pump station A"/);

    // Bob approves for the bot, not for Pump station A: refused, as he would be for a request of M3.
    await clickSchedule(BOB, card, 'approve', s.id);
    const refused = await h.slack.waitFor(
      () => h.slack.messages(OPS, { user: BOB }).find((m) => /not one of the approvers/.test(textOf(m))),
      60_000,
      'Bob told he does not decide it',
    );
    expect(textOf(refused)).toContain('Pump station A');
    expect((await h.store.getSchedule(s.id))?.status).toBe('awaiting-approval');
    await clickSchedule(CAROL, card, 'approve', s.id);
    await until(async () => (await h.store.getSchedule(s.id))?.status === 'active', 'approved by Carol');

    // Meanwhile M3 is started by a typed request, which Carol approves; its flow completes.
    await ask(`live start ${M3} reason="commissioning"`);
    const request = await h.slack.waitFor(
      () =>
        botMessages(OPS).find(
          (m) => textOf(m).includes(M3) && JSON.stringify(m.blocks).includes('approval_approve'),
        ),
      60_000,
      'the request card',
    );
    await h.slack.clickButton({
      user: CAROL,
      channel: OPS,
      messageTs: request.ts,
      actionId: 'approval_approve',
    });
    await until(async () => {
      const [r] = await h.store.listApprovals({ statuses: ['executed'] });
      const flow = r?.flowId ? await h.store.getTrackedFlow({ teamId: r.teamId, flowId: r.flowId }) : null;
      return flow?.endReason === 'ended';
    }, 'the typed live start followed to its end');
    expect(await livePosts(M3)).toHaveLength(1);

    // At 07:00 the schedule's run meets the pre-check a request would: M3 is already live.
    h.clock.set(Date.UTC(2026, 10, 27, 7, 0, 5));
    const run = await runOf(s.id, Date.UTC(2026, 10, 27, 7));
    expect(run.state).toBe('refused');
    expect(run.detail).toMatch(/already live/);
    expect(await livePosts(M3)).toHaveLength(1);
  });
});

describe('a schedule does not outlive its owner’s rights', () => {
  it('no longer an operator, in a channel the bot no longer acts in, deactivated in Slack: not run, paused once, owner and channel told', async () => {
    const [DAVE_M, GENERAL_M, ERIN_M] = ['1070000000000000701', '1070000000000000702', '1070000000000000703'];
    h.clock.set(Date.UTC(2026, 10, 27, 7, 30));
    // Dave's and Erin's live starts, on models the bot has never placed: Carol decides (she approves for
    // the bot and for every workspace with approvers of its own).
    await ask(`schedule "every day at 08:00" name="dave live" live start ${DAVE_M}`, DAVE);
    await ask(`schedule "every day at 08:00" name="erin live" live start ${ERIN_M}`, ERIN);
    for (const name of ['dave live', 'erin live']) {
      const s = await scheduleNamed(name);
      await clickSchedule(CAROL, await cardOf(s.id), 'approve', s.id);
      await until(async () => (await h.store.getSchedule(s.id))?.status === 'active', `${name} approved`);
    }
    // Alice's, kept from when #general was an allowed channel, approved by Carol then.
    const kept = await h.store.createSchedule({
      teamId: h.slack.teamId,
      channelId: GENERAL,
      ownerId: ALICE,
      name: 'general live',
      kind: 'command',
      command: `live start ${GENERAL_M}`,
      whenText: 'every day at 08:00',
      rule: { pattern: '0 8 * * *', zone: 'UTC', at: { hour: 8, minute: 0 } },
      timeZone: 'UTC',
      status: 'awaiting-approval',
      createdAt: NOW,
      nextRunAt: null,
      approversStrictest: true,
      modelDoubt: 'unseen',
    } as Parameters<Harness['store']['createSchedule']>[0]);
    await h.store.setScheduleStatus(kept.id, {
      status: 'active',
      from: ['awaiting-approval'],
      by: CAROL,
      at: NOW,
      nextRunAt: Date.UTC(2026, 10, 27, 8),
    });
    // A lookup of Bob's at the same hour shows the runner went past it.
    await ask(`schedule "every day at 08:00" name="witness" workspace show ${W}`, BOB);
    const witness = await scheduleNamed('witness');

    // Dave leaves the operators; Erin is deactivated in Slack.
    const ops = h.slack.state.usergroups.get(OPERATORS)!;
    ops.users = ops.users.filter((u) => u !== DAVE);
    (h.slack.state.users.get(ERIN) as { deleted?: boolean }).deleted = true;

    h.clock.set(Date.UTC(2026, 10, 27, 8, 0, 5));
    await witnessed(() => runOf(witness.id, Date.UTC(2026, 10, 27, 8)));
    const dave = await scheduleNamed('dave live');
    const erin = await scheduleNamed('erin live');
    for (const s of [dave, erin, kept]) await runOf(s.id, Date.UTC(2026, 10, 27, 8));
    expect(await livePosts(DAVE_M)).toEqual([]);
    expect(await livePosts(GENERAL_M)).toEqual([]);
    expect(await livePosts(ERIN_M)).toEqual([]);
    for (const s of [dave, erin, kept]) {
      const now = await until(async () => {
        const x = await h.store.getSchedule(s.id);
        return x?.status === 'paused' ? x : undefined;
      }, `${s.name} paused`);
      expect(now.statusBy).toBe('system');
    }
    expect((await h.store.getSchedule(dave.id))?.statusReason).toMatch(/operator/);
    expect((await h.store.getSchedule(kept.id))?.statusReason).toMatch(/channel/);
    expect((await h.store.getSchedule(erin.id))?.statusReason).toMatch(/deactivated/);

    // Dave is told by direct message; each channel is told who can take it over or delete it.
    const daveTold = await h.slack.waitFor(
      () => dms(DAVE).find((m) => /dave live/.test(textOf(m)) && /paused/.test(textOf(m))),
      60_000,
      'Dave told',
    );
    expect(textOf(daveTold)).toMatch(/operator/);
    for (const [channel, name] of [
      [OPS, 'dave live'],
      [OPS, 'erin live'],
      [GENERAL, 'general live'],
    ] as const) {
      const told = await h.slack.waitFor(
        () => botMessages(channel).find((m) => textOf(m).includes(name) && /paused/.test(textOf(m))),
        60_000,
        `#${channel} told of ${name}`,
      );
      expect(textOf(told)).toMatch(/\/tsai schedule take/);
      expect(textOf(told)).toMatch(/\/tsai schedule delete/);
    }

    // The next day: nothing runs, nobody is told again.
    const toldBefore = botMessages(OPS).filter((m) => /paused/.test(textOf(m))).length;
    h.clock.set(Date.UTC(2026, 10, 28, 8, 0, 5));
    await witnessed(() => runOf(witness.id, Date.UTC(2026, 10, 28, 8)));
    for (const s of [dave, erin, kept])
      expect((await h.store.listScheduleRuns({ scheduleIds: [s.id] })).length).toBe(1);
    expect(botMessages(OPS).filter((m) => /paused/.test(textOf(m))).length).toBe(toldBefore);

    // Bob, an operator, takes Dave's over: it is his now, and waits for a new approval.
    expect(await ask('schedule take "dave live"', BOB)).toMatch(/took over|yours/i);
    const taken = await h.store.getSchedule(dave.id);
    expect(taken).toMatchObject({ ownerId: BOB, status: 'awaiting-approval' });
    await h.commandAndReply('schedule delete "dave live"', { user: BOB });
    await h.commandAndReply('schedule delete witness', { user: BOB });
  });
});

describe('secrets typed into a schedule are neither shown nor kept', () => {
  it('the creation reply, the card, the list, the pause reply, the stored rows, the audit, the logs and the service never see them', async () => {
    h.clock.set(Date.UTC(2026, 10, 29, 9, 0));
    const shownBefore = new Set([...h.slack.messages(OPS), ...dms(ALICE)].map((m) => m.ts));
    /** Sends a command and waits for what it does in the store, not for a reply (replies may cross). */
    const send = async (text: string) => expect((await h.command(text)).status).toBe(200);
    await send(`schedule "every day at 10:00" name=${PASTED} live start ${M3} reason="rotating ${PASTED_2}"`);
    await send(
      `schedule "every day at 10:00" name="secret learn" learn workspace=${W} signals=${SEED.signals.temperature}:temperature range="last 8 hours" name=${PASTED_2}`,
    );
    const live = await until(
      async () =>
        (await h.store.listSchedules({ channelId: OPS })).find(
          (s) => s.whenText === 'every day at 10:00' && s.command.startsWith('live start'),
        ),
      'the live schedule',
    );
    const learn = await scheduleNamed('secret learn');
    await cardOf(live.id);
    await send('schedules');
    await h.slack.waitFor(
      () =>
        h.slack
          .messages(OPS, { user: ALICE })
          .find(
            (m) => !shownBefore.has(m.ts) && /not shown/.test(textOf(m)) && /This channel's/.test(textOf(m)),
          ),
      60_000,
      'the list',
    );
    await send(`schedule pause ${learn.id}`);
    await until(async () => (await h.store.getSchedule(learn.id))?.status === 'paused', 'paused');
    await send(`schedule resume ${learn.id}`);
    await until(async () => (await h.store.getSchedule(learn.id))?.status === 'active', 'resumed');
    // Its run at 10:00 reads the kept command again: the service gets the mask, never the token.
    h.clock.set(Date.UTC(2026, 10, 29, 10, 0, 5));
    expect((await runOf(learn.id, Date.UTC(2026, 10, 29, 10))).state).toBe('ok');

    const shown = [...h.slack.messages(OPS), ...dms(ALICE)]
      .filter((m) => !shownBefore.has(m.ts) && m.user === bot())
      .map(textOf)
      .join('\n');
    expect(shown).toMatch(/scheduled .*live start/);
    expect(shown).toMatch(/paused the schedule `secret learn`/);
    expect(shown).toMatch(/A token-like value in what you typed was replaced/);
    const kept = JSON.stringify([
      await h.store.listSchedules({ channelId: OPS }),
      await h.store.listAudit({ limit: 200 }),
    ]);
    for (const secret of [PASTED, PASTED_2]) {
      expect(shown).not.toContain(secret.slice(0, 20));
      expect(kept).not.toContain(secret.slice(0, 20));
      expect(h.logs.join('\n')).not.toContain(secret.slice(0, 20));
      expect(JSON.stringify(await h.serviceRequests())).not.toContain(secret.slice(0, 20));
    }
    // A typed learn with a token as its name: the service gets the mask, never the token.
    await ask(
      `learn workspace=${W} signals=${SEED.signals.temperature}:temperature range="2026-11-20 08:00 to 2026-11-20 20:00" name=${PASTED}`,
    );
    expect(JSON.stringify(await h.serviceRequests())).not.toContain(PASTED.slice(0, 20));
    await send(`schedule delete ${learn.id}`);
    await send(`schedule delete ${live.id}`);
    await until(async () => (await h.store.getSchedule(live.id))?.status === 'deleted', 'deleted');
  });
});

describe('limits that protect the service, and every schedule reachable however many', () => {
  it('refuses a schedule past the person’s and the channel’s limits, and one more often than the shortest interval', async () => {
    for (let i = 1; i <= 4; i++)
      expect(
        await ask(`schedule "every day at 06:00" name="frank ${i}" workspace show ${W}`, FRANK, LAB),
      ).toMatch(/scheduled/);
    const fifth = await ask(`schedule "every day at 06:00" name="frank 5" workspace show ${W}`, FRANK, LAB);
    expect(fifth).toMatch(/4 schedules/);
    expect(fifth).toMatch(/\/tsai schedule delete/);
    expect(fifth).toContain('TSAI_SCHEDULES_PER_PERSON');
    expect(await ask(`schedule "every day at 06:00" name="gina 1" workspace show ${W}`, GINA, LAB)).toMatch(
      /scheduled/,
    );
    expect(await ask(`schedule "every day at 06:00" name="gina 2" workspace show ${W}`, GINA, LAB)).toMatch(
      /scheduled/,
    );
    const full = await ask(`schedule "every day at 06:00" name="gina 3" workspace show ${W}`, GINA, LAB);
    expect(full).toMatch(/6 schedules/);
    expect(full).toContain('TSAI_SCHEDULES_PER_CHANNEL');
    const often = await ask(`schedule "every minute" name="gina often" workspace show ${W}`, GINA, OPS);
    expect(often).toMatch(/15 minutes/);
    expect(often).toMatch(/\/tsai schedule "every 15 minutes"|every hour/);
    expect((await h.store.listSchedules({ channelId: LAB })).length).toBe(6);
    expect((await h.store.listSchedules({ ownerId: GINA })).map((s) => s.name).sort()).toEqual([
      'gina 1',
      'gina 2',
    ]);
  });

  it('past the 100th schedule of a channel, each is found by number, name and ID, and the list says how many', async () => {
    // Kept from before the limits: 105 schedules in one channel.
    const made = [];
    for (let i = 1; i <= 105; i++)
      made.push(
        await h.store.createSchedule({
          teamId: h.slack.teamId,
          channelId: MANY,
          ownerId: BOB,
          name: `bulk ${i}`,
          kind: 'command',
          command: `workspace show ${W}`,
          whenText: 'every day at 06:00',
          rule: { pattern: '0 6 * * *', zone: 'UTC', at: { hour: 6, minute: 0 } },
          timeZone: 'UTC',
          status: 'active',
          createdAt: NOW + i,
          nextRunAt: Date.UTC(2026, 11, 30, 6),
        }),
      );
    const list = await ask('schedules', BOB, MANY);
    expect(list).toMatch(/105 schedules/);
    expect(list).toMatch(/\/tsai schedules 2/);
    expect(await ask('schedule pause 104', BOB, MANY)).toMatch(/paused the schedule `bulk 104`/);
    expect((await h.store.getSchedule(made[103]!.id))?.status).toBe('paused');
    expect(await ask('schedule pause "bulk 103"', BOB, MANY)).toMatch(/paused/);
    expect(await ask(`schedule pause ${made[104]!.id}`, BOB, MANY)).toMatch(/paused/);
    const page = await ask('schedules 6', BOB, MANY);
    expect(page).toMatch(/\*10[1-5]\.\*/);
  });
});

describe('a step runs only as the person Slack says ran it', () => {
  it('a plain user ID as "Run as" fails the step with the reason, and nothing is sent', async () => {
    await h.clearServiceRequests();
    const ex = await h.slack.runFunction({
      callbackId: 'tsai_workspace_show',
      user: ALICE,
      inputs: { run_as: BOB, workspace: W, channel: OPS },
    });
    const ended = await h.slack.waitFor(
      (s) => {
        const x = s.execution(ex.id);
        return x && x.state !== 'running' ? x : undefined;
      },
      60_000,
      'the step ended',
    );
    expect(ended.state).toBe('failed');
    expect(ended.error).toMatch(/Run as/);
    expect(await h.askedOfService()).toEqual([]);
  });
});

describe('schedule decisions and refusals, as for requests', () => {
  it('a decision from another Slack team changes nothing; a refused pause names the owner and the approvers', async () => {
    h.clock.set(Date.UTC(2026, 10, 30, 9, 0));
    await ask(`schedule "every day at 11:00" name="team live" live start ${M3}`);
    const s = await scheduleNamed('team live');
    const card = await cardOf(s.id);
    await clickSchedule(CAROL, card, 'approve', s.id, 'T0OTHERTEAM');
    await h.slack.waitFor(
      () => h.slack.messages(OPS, { user: CAROL }).find((m) => /not known|does not know/.test(textOf(m))),
      60_000,
      'Carol told it is not known here',
    );
    expect((await h.store.getSchedule(s.id))?.status).toBe('awaiting-approval');

    const refused = await ask('schedule pause "team live"', FRANK);
    expect(refused).toContain(`<@${ALICE}>`);
    expect(refused).toMatch(/owner/);
    expect(refused).not.toMatch(new RegExp(`Approvers: <@${ALICE}>`));
    expect(refused).toContain(`<@${CAROL}>`);
    await ask('schedule delete "team live"');
  });
});
