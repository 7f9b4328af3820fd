import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_ACTION } from '../../src/slack/approvals/card.js';
import { FLOW_ACTION } from '../../src/slack/flows/views.js';
import { fieldActionId, MODAL_ACTION } from '../../src/slack/forms/views/ids.js';
import { REPEAT_FLOW } from '../../src/slack/views/schedule-actions.js';
import { SEED } from '../../standins/emulator/index.js';
import { DEFAULT_USERS, type LocalMessage } from '../../standins/localslack/index.js';
import { type Harness, startHarness } from '../support/harness.js';
import { waitUntil } from '../support/patience.js';

/**
 * Asking the bot where people talk, through the real bot over signed HTTP: the local Slack delivers what
 * people write exactly as Slack's Events API does (app_mention, message.im and its subtypes), and the bot
 * answers in the thread or the direct messages.
 */
const W = SEED.workspaces.pumpStation;
const T = SEED.signals.temperature;
const ALICE = 'U0ALICE';
const BOB = 'U0BOB';
const OPS = 'C0OPS';
const APPROVALS = 'C0APPROVALS';
const QUIET = 'C0QUIET';
const RANGE = 'range="2026-11-20 to 2026-11-21"';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    flowDelays: { runningAfterMs: 300, completedAfterMs: 1_200 },
    env: {
      TSAI_TRACK_FIRST_POLL: '100ms',
      TSAI_TRACK_MAX_INTERVAL: '400ms',
      TSAI_APPROVERS: BOB,
      TSAI_APPROVALS_CHANNEL: APPROVALS,
    },
    users: DEFAULT_USERS,
    channels: [
      { id: 'C0GENERAL', name: 'general' },
      { id: OPS, name: 'plant-ops' },
      { id: APPROVALS, name: 'approvals' },
      { id: QUIET, name: 'quiet', botMember: false },
    ],
  });
});
afterAll(async () => {
  await h?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: tests read Block Kit JSON by path
type Block = Record<string, any>;
const textOf = (m: LocalMessage | undefined) => (m ? `${m.text}\n${JSON.stringify(m.blocks ?? [])}` : '');
const bot = () => h.slack.botUserId;
/** What `user` sees of the bot in a thread (its parent left out), oldest first. */
const inThread = (user: string, channel: string, threadTs: string) =>
  h.slack.messages(channel, { user, threadTs }).filter((m) => m.ts !== threadTs && m.user === bot());
const buttonsOf = (m: LocalMessage | undefined) =>
  ((m?.blocks ?? []) as Block[])
    .filter((b) => b.type === 'actions')
    .flatMap((b) => (b.elements as Block[]).map((e) => e.action_id as string));

/** `user` writes in `channel` (in the thread of `threadTs`), as Slack's client writes it. */
const say = (user: string, channel: string, text: string, threadTs?: string) =>
  h.slack.postUserMessage({ user, channel, text, ...(threadTs ? { threadTs } : {}) });

/** The first message of the bot in that thread that `user` sees and `test` accepts. */
const answer = (user: string, channel: string, threadTs: string, test: RegExp, label: string) =>
  h.slack.waitFor(() => inThread(user, channel, threadTs).find((m) => test.test(textOf(m))), 60_000, label);

/**
 * The first message of the bot that only `user` sees at the top of `channel`, after `after` and accepted by
 * `test`: what a mention at the top of a channel is answered privately with, where its author looks.
 */
const privately = (user: string, channel: string, after: LocalMessage, test: RegExp, label: string) =>
  h.slack.waitFor(
    () =>
      h.slack
        .messages(channel, { user })
        .find((m) => m.ts > after.ts && m.ephemeralTo === user && m.user === bot() && test.test(textOf(m))),
    60_000,
    label,
  );

/** The bot's reactions on a message, by name. */
const reactionsOn = (channel: string, m: LocalMessage) =>
  (h.slack.messages(channel).find((x) => x.ts === m.ts)?.reactions ?? [])
    .filter((r) => r.users.includes(bot()))
    .map((r) => r.name);

/** Until the message shows exactly these reactions of the bot. */
const reacted = (channel: string, m: LocalMessage, names: string[]) =>
  h.slack.waitFor(
    () => JSON.stringify(reactionsOn(channel, m)) === JSON.stringify(names) || undefined,
    60_000,
    `${names.join(', ') || 'no reaction'} on ${m.ts} (it has ${reactionsOn(channel, m).join(', ')})`,
  );

/** Until the bot has read an event of this message, so that "nothing happened" means something. */
const read = (m: LocalMessage) =>
  h.slack.waitFor(
    () => h.slack.events.find((e) => e.event.ts === m.ts && e.status === 200),
    60_000,
    `the delivery of ${m.ts}`,
  );

describe('a thread conversation', () => {
  it('is answered in the thread: a question, a flow looked up, a learn followed to its end, a live start approved', async () => {
    const question = say(ALICE, OPS, 'Pump 1 ran hot overnight. Was the baseline learn fine?');
    // Nobody asked the bot: no event, nothing said.
    expect(h.slack.events.some((e) => e.event.ts === question.ts)).toBe(false);

    // A flow looked up from the thread: its status, only to the one who asked, in the thread.
    const asked = say(BOB, OPS, `@tsai flow ${SEED.flows.baselineLearn}`, question.ts);
    expect(asked.text).toBe(`<@${bot()}> flow ${SEED.flows.baselineLearn}`);
    const status = await answer(
      BOB,
      OPS,
      question.ts,
      new RegExp(SEED.flows.baselineLearn),
      'the flow status',
    );
    expect(status.threadTs).toBe(question.ts);
    expect(status.ephemeralTo).toBe(BOB);
    expect(inThread(ALICE, OPS, question.ts)).toEqual([]);
    // Answered at once: the message says so, its "taken" mark replaced.
    await reacted(OPS, asked, ['white_check_mark']);

    // A learn asked in the thread: announced there for everyone, followed there to its end.
    const learn = say(
      ALICE,
      OPS,
      `@tsai learn workspace=${W} signals=${T}:temperature ${RANGE} name=thread-learn`,
      question.ts,
    );
    const announced = await answer(BOB, OPS, question.ts, /thread-learn/, 'the announcement in the thread');
    expect(announced.ephemeralTo).toBeUndefined();
    // A reply in the thread, not a message at the top of the channel.
    expect(h.slack.messages(OPS, { user: BOB }).some((m) => m.ts === announced.ts)).toBe(false);
    const ended = await answer(BOB, OPS, question.ts, /your ANOMALYLEARN flow/, 'the end in the thread');
    expect(ended.ts).not.toBe(announced.ts);
    expect(ended.threadTs).toBe(question.ts);
    expect(textOf(ended)).toMatch(/anomaly\/M\[\d+\]/);
    expect(textOf(ended)).toContain(`<@${ALICE}>`);
    await h.slack.waitFor(
      () =>
        /COMPLETED/.test(
          textOf(h.slack.messages(OPS, { threadTs: question.ts }).find((m) => m.ts === announced.ts)),
        ),
      60_000,
      'the announcement at COMPLETED, in place',
    );
    // Under way while followed, then done at its end.
    await reacted(OPS, learn, ['white_check_mark']);
    const marked = h.slack.calls
      .filter((c) => c.method.startsWith('reactions.') && c.args.timestamp === learn.ts)
      .map((c) => `${c.method} ${String(c.args.name)}`);
    expect(marked).toEqual([
      'reactions.add eyes',
      'reactions.add hourglass_flowing_sand',
      'reactions.remove eyes',
      'reactions.add white_check_mark',
      'reactions.remove hourglass_flowing_sand',
    ]);
    const audit = await h.store.listAudit({ limit: 5 });
    expect(audit.find((e) => e.operation === 'flow.ANOMALYLEARN')?.params.via).toBe('mention');

    // A live start asked in the thread: where it waits is said there, and its decision told there.
    const live = say(
      ALICE,
      OPS,
      `@tsai live start ${SEED.models.pressureCommon} reason="after the overnight run"`,
      question.ts,
    );
    const waiting = await answer(BOB, OPS, question.ts, /waiting for approval/, 'where the request waits');
    await reacted(OPS, live, ['hourglass_flowing_sand']);
    expect(textOf(waiting)).toContain(`<@${ALICE}>`);
    expect(textOf(waiting)).toContain(`<#${APPROVALS}>`);
    const card = await h.slack.waitFor(
      () => h.slack.messages(APPROVALS).find((m) => buttonsOf(m).includes(APPROVAL_ACTION.approve)),
      60_000,
      'the request card',
    );
    const approved = await h.slack.clickButton({
      user: BOB,
      channel: APPROVALS,
      messageTs: card.ts,
      actionId: APPROVAL_ACTION.approve,
    });
    expect(approved.status).toBe(200);
    const decision = await answer(ALICE, OPS, question.ts, /was approved/, 'the decision in the thread');
    expect(textOf(decision)).toContain(`<@${BOB}>`);
    expect(decision.ephemeralTo).toBeUndefined();
    await answer(ALICE, OPS, question.ts, /now live|is live/i, 'the live model told in the thread');
    // The flow the approval made ended: the message that asked for it is done.
    await reacted(OPS, live, ['white_check_mark']);
  });

  it('offers the form with a button when arguments are missing, and its outcome comes back to the thread', async () => {
    const top = say(ALICE, OPS, '@tsai learn');
    // Asked at the top of the channel, the offer is shown there, only to her, where she looks.
    const offer = await privately(ALICE, OPS, top, /Open the form/, 'the offer of the form');
    expect(offer.threadTs).toBeUndefined();
    expect(buttonsOf(offer)).toEqual([MODAL_ACTION.reopen]);
    const click = await h.slack.clickButton({
      user: ALICE,
      channel: OPS,
      messageTs: offer.ts,
      actionId: MODAL_ACTION.reopen,
    });
    expect(click.status).toBe(200);
    const form = await h.slack.waitFor(() => h.slack.topView(ALICE), 60_000, 'the learn form');
    // The ID fields are type-ahead selects: what goes in them is picked from what the bot offers.
    for (const [blockId, typed] of [
      ['workspace', W],
      ['signals', `${T}:temperature`],
    ] as const)
      await h.slack.sendOptionsRequest({
        user: ALICE,
        viewId: form.id,
        blockId,
        actionId: fieldActionId(blockId),
        value: typed,
      });
    const sent = await h.slack.submitView({
      user: ALICE,
      viewId: form.id,
      values: {
        name: { [fieldActionId('name')]: 'form-from-thread' },
        workspace: { [fieldActionId('workspace')]: W },
        signals: { [fieldActionId('signals')]: [`${T}:temperature`] },
        range_1: { [MODAL_ACTION.range]: '2026-11-20 to 2026-11-21' },
      },
    });
    expect(sent.errors).toBeUndefined();
    const announced = await answer(BOB, OPS, top.ts, /form-from-thread/, 'the form’s flow in the thread');
    expect(announced.threadTs).toBe(top.ts);
  });

  it('answers the buttons under a flow’s end in that thread: a schedule of it, a live start filed from it, a backfill form submitted from its end', async () => {
    const S = SEED.signals.vibration;
    const top = say(ALICE, OPS, 'Vibration looks odd on pump 2, can we model it?');
    say(
      ALICE,
      OPS,
      `@tsai learn workspace=${W} signals=${S}:vibration range="2026-11-01 to 2026-11-08" name=next-in-thread`,
      top.ts,
    );
    const learned = await answer(
      ALICE,
      OPS,
      top.ts,
      /your ANOMALYLEARN flow/,
      'the learn’s end in the thread',
    );
    expect(buttonsOf(learned)).toContain(FLOW_ACTION['live-start']);
    const takeLive = ((learned.blocks ?? []) as Block[])
      .filter((b) => b.type === 'actions')
      .flatMap((b) => b.elements as Block[])
      .find((e) => e.action_id === FLOW_ACTION['live-start']);
    const modelId = (JSON.parse(takeLive?.value ?? '{}') as { model?: string }).model;
    expect(modelId).toMatch(/^\d{19}$/);

    // "Run this every …" makes a schedule of the learn; the new schedule is said in the thread.
    const shownBefore = h.slack.topView(ALICE)?.id;
    await h.slack.clickButton({
      user: ALICE,
      channel: OPS,
      messageTs: learned.ts,
      actionId: REPEAT_FLOW.action,
    });
    const repeat = await h.slack.waitFor(
      () => {
        const v = h.slack.topView(ALICE);
        return v && v.id !== shownBefore && v.view.callback_id === REPEAT_FLOW.callback ? v : undefined;
      },
      60_000,
      'the "Run this every" form',
    );
    const repeated = await h.slack.submitView({
      user: ALICE,
      viewId: repeat.id,
      values: {
        [REPEAT_FLOW.whenBlock]: { [REPEAT_FLOW.whenInput]: 'every Monday at 7' },
        [REPEAT_FLOW.commandBlock]: {
          [REPEAT_FLOW.commandInput]: `learn workspace=${W} signals=${S}:vibration range="last 8 hours" name=weekly-in-thread`,
        },
      },
    });
    expect(repeated.errors ?? {}).toEqual({});
    const scheduled = await answer(
      BOB,
      OPS,
      top.ts,
      /every Monday at 07:00/,
      'the new schedule in the thread',
    );
    expect(textOf(scheduled)).toContain('weekly-in-thread');

    // "Take it live" runs its command as a mention in the thread would: where it waits is said there.
    const before = inThread(ALICE, OPS, top.ts).length;
    const click = await h.slack.clickButton({
      user: ALICE,
      channel: OPS,
      messageTs: learned.ts,
      actionId: FLOW_ACTION['live-start']!,
    });
    expect(click.status).toBe(200);
    const waiting = await h.slack.waitFor(
      () =>
        inThread(ALICE, OPS, top.ts)
          .slice(before)
          .find((m) => /waiting for approval/.test(textOf(m))),
      60_000,
      'where the request waits, in the thread',
    );
    expect(waiting.threadTs).toBe(top.ts);
    const card = await h.slack.waitFor(
      () =>
        h.slack
          .messages(APPROVALS)
          .find((m) => buttonsOf(m).includes(APPROVAL_ACTION.approve) && textOf(m).includes(modelId!)),
      60_000,
      'the request card',
    );
    await h.slack.clickButton({
      user: BOB,
      channel: APPROVALS,
      messageTs: card.ts,
      actionId: APPROVAL_ACTION.approve,
    });
    const live = await answer(
      ALICE,
      OPS,
      top.ts,
      /your STARTLIVEMODEL flow \S+ completed/,
      'the live start’s end in the thread',
    );
    expect(buttonsOf(live)).toContain(FLOW_ACTION.eval);

    // "Backfill its output" opens its form, filled in; what it starts is announced in the thread.
    const shown = h.slack.topView(ALICE)?.id;
    await h.slack.clickButton({ user: ALICE, channel: OPS, messageTs: live.ts, actionId: FLOW_ACTION.eval! });
    const form = await h.slack.waitFor(
      () => {
        const v = h.slack.topView(ALICE);
        return v && v.id !== shown ? v : undefined;
      },
      60_000,
      'the backfill form',
    );
    const datastream = await h.slack.sendOptionsRequest({
      user: ALICE,
      viewId: form.id,
      blockId: 'datastream',
      actionId: fieldActionId('datastream'),
      value: SEED.datastream,
    });
    const sent = await h.slack.submitView({
      user: ALICE,
      viewId: form.id,
      values: {
        datastream: { [fieldActionId('datastream')]: datastream.options![0]!.value },
        entities: { [fieldActionId('entities')]: 'pump-2' },
        range_1: { [MODAL_ACTION.range]: '2026-11-20 09:00 to 17:00' },
        name: { [fieldActionId('name')]: 'backfill-in-thread' },
      },
    });
    expect(sent.errors).toBeUndefined();
    const announced = await answer(
      BOB,
      OPS,
      top.ts,
      /backfill-in-thread/,
      'the backfill announced in the thread',
    );
    expect(announced.ephemeralTo).toBeUndefined();
    expect(h.slack.messages(OPS).some((m) => !m.threadTs && /backfill-in-thread/.test(textOf(m)))).toBe(
      false,
    );
  });

  it('makes a schedule and a digest from a mention, said in the thread', async () => {
    const top = say(ALICE, OPS, '@tsai digest now');
    const digest = await answer(BOB, OPS, top.ts, /Digest for/, 'the digest in the thread');
    expect(digest.ephemeralTo).toBeUndefined();
    say(ALICE, OPS, `@tsai schedule "every weekday at 06:00" workspace show ${W}`, top.ts);
    await answer(BOB, OPS, top.ts, /weekday/i, 'the new schedule in the thread');
    const made = await h.store.listSchedules({ channelId: OPS });
    expect(made.map((s) => s.command)).toContain(`workspace show ${W}`);
  });
});

describe('an answer you can see, where you asked', () => {
  it('a refused mention at the top of a channel is answered there, to its author only, and marked refused', async () => {
    const asked = say(ALICE, OPS, '@tsai lern workspace=1030000000000000001');
    const refusal = await privately(ALICE, OPS, asked, /not a command|Did you mean/i, 'the refusal');
    // In the channel, where she looks: not inside a thread she never opened, and no reply for others.
    expect(refusal.threadTs).toBeUndefined();
    expect(textOf(refusal)).toContain('`@tsai learn');
    expect(inThread(ALICE, OPS, asked.ts)).toEqual([]);
    expect(h.slack.messages(OPS, { user: BOB }).some((m) => m.ts === refusal.ts)).toBe(false);
    await reacted(OPS, asked, ['no_entry_sign']);
  });

  it('a refused mention in a thread is answered in that thread, as before', async () => {
    const top = say(BOB, OPS, 'Anyone know the learn syntax?');
    const asked = say(ALICE, OPS, '@tsai lern', top.ts);
    const refusal = await answer(
      ALICE,
      OPS,
      top.ts,
      /not a command|Did you mean/i,
      'the refusal in the thread',
    );
    expect(refusal.ephemeralTo).toBe(ALICE);
    expect(h.slack.messages(OPS, { user: ALICE }).some((m) => m.ts === refusal.ts)).toBe(false);
    await reacted(OPS, asked, ['no_entry_sign']);
  });

  it('marks a message taken as soon as it is read, then done; the Messages tab alike', async () => {
    const asked = say(ALICE, OPS, '@tsai flows');
    await privately(ALICE, OPS, asked, /flow/i, 'the flows, to her');
    await reacted(OPS, asked, ['white_check_mark']);
    const first = h.slack.calls.find(
      (c) => c.method.startsWith('reactions.') && c.args.timestamp === asked.ts,
    );
    expect(first?.method).toBe('reactions.add');
    expect(first?.args.name).toBe('eyes');
    const dm = h.slack.postUserMessage({ user: BOB, channel: `D${BOB}`, text: 'flows' });
    await reacted(`D${BOB}`, dm, ['white_check_mark']);
  });

  it('a failure is marked failed, and no reaction Slack refuses holds up the answer', async () => {
    h.slack.injectFault({ method: 'reactions.add', error: 'missing_scope', times: 'always' });
    try {
      const asked = say(ALICE, OPS, `@tsai workspace show ${W}`);
      await privately(ALICE, OPS, asked, /Pump station A/, 'the answer, reactions refused');
    } finally {
      h.slack.clearFaults({ method: 'reactions.add' });
    }
    // The service fails every try: the answer says so, and the message is marked failed.
    await h.addFault({ method: 'GET', path: '/workspace/', status: 503 });
    try {
      const failing = say(ALICE, OPS, `@tsai workspace show ${W}`);
      await reacted(OPS, failing, ['x']);
    } finally {
      await h.clearFaults();
    }
  });
});

describe('never a loop, never twice', () => {
  const workspaces = async (name: string) =>
    (await h.serviceRequests()).filter(
      (r) => r.method === 'POST' && r.path.endsWith('/workspace') && JSON.stringify(r.body).includes(name),
    );

  it('a bot’s message, its own mention of itself, a retry and a second delivery run nothing', async () => {
    const text = `<@${bot()}> workspace create "Loop 1"`;
    const own = await h.slack.sendEvent({
      type: 'app_mention',
      user: bot(),
      bot_id: h.slack.botId,
      text,
      ts: '1790000000.000101',
      channel: OPS,
    });
    const other = await h.slack.sendEvent({
      type: 'app_mention',
      subtype: 'bot_message',
      bot_id: 'B0OTHER',
      user: 'U0OTHERBOT',
      text,
      ts: '1790000000.000102',
      channel: OPS,
    });
    expect([own.status, other.status]).toEqual([200, 200]);

    const first = say(ALICE, OPS, '@tsai workspace create "Once only"');
    await waitUntil(async () => expect(await workspaces('Once only')).toHaveLength(1));
    const delivered = h.slack.events.find((e) => e.event.ts === first.ts)!;
    // Slack's retry of that delivery, and the same message delivered again under another event ID.
    const retry = await h.slack.sendEvent(delivered.event, { eventId: delivered.eventId, retryNum: 1 });
    const again = await h.slack.sendEvent(delivered.event);
    expect([retry.status, again.status]).toEqual([200, 200]);
    // A message after them, read once it is answered: whatever the earlier ones did is done by then.
    const later = say(ALICE, OPS, '@tsai workspace create "After the repeats"');
    await waitUntil(async () => expect(await workspaces('After the repeats')).toHaveLength(1));
    await answer(ALICE, OPS, later.ts, /After the repeats/, 'the later answer');
    expect(await workspaces('Loop 1')).toEqual([]);
    expect(await workspaces('Once only')).toHaveLength(1);
    expect(inThread(ALICE, OPS, '1790000000.000101')).toEqual([]);
  });

  it('an edit of a command that ran runs nothing; a refused one is read again once corrected', async () => {
    const ran = say(ALICE, OPS, '@tsai workspace create "Edited 1"');
    await waitUntil(async () => expect(await workspaces('Edited 1')).toHaveLength(1));
    h.slack.editUserMessage({
      user: ALICE,
      channel: OPS,
      ts: ran.ts,
      text: '@tsai workspace create "Edited 2"',
    });
    await h.slack.waitFor(
      () => h.slack.events.find((e) => e.event.ts === ran.ts && e.event.edited),
      60_000,
      'the edit delivered',
    );

    const typo = say(ALICE, OPS, '@tsai worksapce create "Corrected"');
    const refusal = await privately(ALICE, OPS, typo, /Edit your message/, 'the refusal');
    await reacted(OPS, typo, ['no_entry_sign']);
    expect(textOf(refusal)).toContain('workspace');
    // Its examples are written as they are typed in a thread, where Slack runs no slash command.
    expect(textOf(refusal)).toContain('`@tsai ');
    expect(textOf(refusal)).not.toContain('`/tsai');
    h.slack.editUserMessage({
      user: ALICE,
      channel: OPS,
      ts: typo.ts,
      text: '@tsai workspace create "Corrected"',
    });
    await waitUntil(async () => expect(await workspaces('Corrected')).toHaveLength(1));
    // Read again, it was taken and done: the refusal's mark is gone.
    await reacted(OPS, typo, ['white_check_mark']);
    // Edited again after it ran: nothing more.
    h.slack.editUserMessage({
      user: ALICE,
      channel: OPS,
      ts: typo.ts,
      text: '@tsai workspace create "Corrected"',
    });
    const last = say(ALICE, OPS, '@tsai workspace create "Edited last"');
    await answer(ALICE, OPS, last.ts, /Edited last/, 'a later answer');
    expect(await workspaces('Edited 2')).toEqual([]);
    expect(await workspaces('Corrected')).toHaveLength(1);
  });

  it('a mention with nothing else gets help, to the one who asked', async () => {
    const bare = say(ALICE, OPS, '@tsai');
    const help = await privately(ALICE, OPS, bare, /help/, 'help');
    expect(textOf(help)).toContain('`@tsai learn');
    expect(textOf(help)).not.toContain('`/tsai');
  });
});

describe('the Messages tab', () => {
  it('takes commands without /tsai, answers there, and never answers itself', async () => {
    const dm = `D${ALICE}`;
    h.slack.postUserMessage({ user: ALICE, channel: dm, text: `workspace show ${W}` });
    const shown = await h.slack.waitFor(
      () =>
        h.slack
          .messages(dm, { user: ALICE })
          .find((m) => m.user === bot() && /Pump station A/.test(textOf(m))),
      60_000,
      'the workspace in the DM',
    );
    expect(shown.ephemeralTo).toBeUndefined();
    h.slack.postUserMessage({ user: ALICE, channel: dm, text: 'help learn' });
    const help = await h.slack.waitFor(
      () =>
        h.slack
          .messages(dm, { user: ALICE })
          .find((m) => m.user === bot() && /learn/.test(textOf(m)) && m.ts > shown.ts),
      60_000,
      'help in the DM',
    );
    // Commands read there as they are typed there: without /tsai.
    expect(textOf(help)).toContain('`learn workspace=');
    expect(textOf(help)).not.toContain('`/tsai');
    // The bot's own posts there reach it as message.im events, with its bot_id: none is answered.
    await h.slack.waitFor(
      () =>
        h.slack.events.filter((e) => e.event.channel === dm && e.event.bot_id === h.slack.botId).length >= 2,
      60_000,
      'the bot told of its own DM posts',
    );
    const mine = h.slack.messages(dm).filter((m) => m.user === bot()).length;
    const after = h.slack.postUserMessage({ user: ALICE, channel: dm, text: 'flows' });
    await h.slack.waitFor(
      () => h.slack.messages(dm).some((m) => m.user === bot() && m.ts > after.ts),
      60_000,
      'the answer to flows',
    );
    expect(h.slack.messages(dm).filter((m) => m.user === bot()).length).toBe(mine + 1);
  });
});

describe('a channel the bot is not in', () => {
  it('answers where Slack lets it and tells how to invite the bot, once', async () => {
    const asked = say(ALICE, QUIET, '@tsai flows');
    await read(asked);
    const hint = await h.slack.waitFor(
      () =>
        h.slack
          .messages(`D${ALICE}`)
          .find((m) => m.text.includes('/invite @tsai') && m.text.includes(`<#${QUIET}>`)),
      60_000,
      'the invite hint',
    );
    expect(hint.user).toBe(bot());
    // Slack takes no ephemeral there from an app outside the channel: the answer comes by direct message.
    await h.slack.waitFor(
      () =>
        h.slack
          .messages(`D${ALICE}`)
          .find((m) => m.ts > hint.ts && /flow/i.test(textOf(m)) && !m.text.includes('/invite')),
      60_000,
      'the answer by direct message',
    );
  });
});

describe('a live start asked in the Messages tab, with no approvals channel set', () => {
  let dmBot: Harness;
  beforeAll(async () => {
    dmBot = await startHarness({ users: DEFAULT_USERS, env: { TSAI_APPROVERS: BOB } });
  });
  afterAll(async () => {
    await dmBot?.close();
  });

  it('goes to the approvers directly (its direct messages are no place approvers see), and its decision comes back', async () => {
    const slack = dmBot.slack;
    slack.postUserMessage({
      user: ALICE,
      channel: `D${ALICE}`,
      text: `live start ${SEED.models.pressureCommon}`,
    });
    const card = await slack.waitFor(
      () =>
        slack.messages(`D${BOB}`, { user: BOB }).find((m) => buttonsOf(m).includes(APPROVAL_ACTION.approve)),
      60_000,
      'the card in bob’s direct messages',
    );
    expect(textOf(card)).toContain('asked in a direct message');
    expect(slack.messages(`D${ALICE}`).some((m) => buttonsOf(m).includes(APPROVAL_ACTION.approve))).toBe(
      false,
    );
    await slack.waitFor(
      () => slack.messages(`D${ALICE}`).find((m) => /sent to the approvers directly/.test(textOf(m))),
      60_000,
      'alice told where it went',
    );
    await slack.clickButton({
      user: BOB,
      channel: `D${BOB}`,
      messageTs: card.ts,
      actionId: APPROVAL_ACTION.approve,
    });
    await slack.waitFor(
      () => slack.messages(`D${ALICE}`).find((m) => /was approved/.test(textOf(m))),
      60_000,
      'alice told the decision',
    );
  });
});
