import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FLOW_ACTION } from '../../src/slack/flows/views.js';
import { fieldActionId, MODAL_ACTION, MODAL_CALLBACK } from '../../src/slack/forms/views/ids.js';
import { decodeMeta } from '../../src/slack/forms/views/metadata.js';
import { REPEAT_FLOW } from '../../src/slack/views/schedule-actions.js';
import { SEED } from '../../standins/emulator/index.js';
import {
  DEFAULT_CHANNELS,
  DEFAULT_USERS,
  type LocalMessage,
  type OpenView,
} from '../../standins/localslack/index.js';
import { startAll } from '../../standins/start-all.js';
import { emulatorControl } from '../support/emulator.js';
import { type Harness, startHarness } from '../support/harness.js';
import { waitUntil } from '../support/patience.js';

const W = SEED.workspaces.pumpStation;
const T = SEED.signals.temperature;
const ALICE = 'U0ALICE';
const OPS = 'C0OPS';
const PRIVATE = 'C0PRIVATE';
const SLOW = 'C0SLOW';
const RANGE = 'range="2026-11-20 to 2026-11-21"';

// biome-ignore lint/suspicious/noExplicitAny: tests read Block Kit JSON by path
type Block = Record<string, any>;

let h: Harness;
let control: ReturnType<typeof emulatorControl>;
beforeAll(async () => {
  h = await startHarness({
    // Flows move on quickly, and the bot reads them back often, so a flow's whole life fits in a test.
    flowDelays: { runningAfterMs: 300, completedAfterMs: 1_200 },
    env: {
      TSAI_TRACK_FIRST_POLL: '100ms',
      TSAI_TRACK_MAX_INTERVAL: '400ms',
      TSAI_APPROVERS: 'U0BOB',
    },
    users: DEFAULT_USERS,
    channels: [
      ...DEFAULT_CHANNELS,
      { id: PRIVATE, name: 'private-ops', isPrivate: true, botMember: false },
      { id: SLOW, name: 'slow' },
    ],
  });
  control = emulatorControl(h.emulator.url);
});
afterAll(async () => {
  await h?.close();
});
beforeEach(async () => {
  h.slack.clearFaults();
  await control('DELETE', 'faults');
  await control('DELETE', 'flow-rules');
});

const seen = (m: LocalMessage | undefined) => (m ? `${m.text}\n${JSON.stringify(m.blocks ?? [])}` : '');
/** A learn in #ops whose flow the emulator gives `rule.status` (a flow rule); its announcement. */
async function learnInOps(name: string, rule: { status: string; message?: string }) {
  await control('POST', 'flow-rules', { flowType: 'ANOMALYLEARN', name: `^${name}$`, count: 1, ...rule });
  await h.command(`learn workspace=${W} signals=${T}:temperature ${RANGE} name=${name}`, { channel: OPS });
  return announcement(OPS, name);
}

const botMessages = (channel: string) =>
  h.slack.messages(channel).filter((m) => m.user === h.slack.botUserId && !m.threadTs);
const current = (channel: string, ts: string) => h.slack.messages(channel).find((m) => m.ts === ts);
const flowIdOf = (m: LocalMessage) => /flow (\d{19})/.exec(m.text)?.[1] ?? '';
const buttonsOf = (m: LocalMessage | undefined) =>
  ((m?.blocks ?? []) as Block[])
    .filter((b) => b.type === 'actions')
    .flatMap((b) => (b.elements as Block[]).map((e) => e.action_id as string));

/** The bot's announcement of the flow whose name is `name`, in `channel`. */
function announcement(channel: string, name: string): Promise<LocalMessage> {
  return h.slack.waitFor(
    () => botMessages(channel).find((m) => seen(m).includes(name)),
    5_000,
    `the announcement of ${name}`,
  );
}

/** Waits until the announcement shows `status`, then returns it. */
function showing(channel: string, ts: string, status: RegExp): Promise<LocalMessage> {
  return h.slack.waitFor(
    () => {
      const m = current(channel, ts);
      return m && status.test(seen(m)) ? m : undefined;
    },
    10_000,
    `the announcement showing ${status}`,
  );
}

/** The bot's replies in the announcement's thread. */
const threadOf = (channel: string, ts: string) =>
  h.slack
    .messages(channel, { threadTs: ts })
    .filter((m) => m.user === h.slack.botUserId && m.threadTs === ts);

async function completion(channel: string, ts: string): Promise<LocalMessage> {
  return h.slack.waitFor(() => threadOf(channel, ts)[0], 10_000, 'the completion reply');
}

/** The statuses the bot showed on a message, in order, from its chat.update calls. */
function shownStatuses(channel: string, ts: string): string[] {
  return h.slack.calls
    .filter(
      (c) => c.method === 'chat.update' && c.args.channel === channel && c.args.ts === ts && c.response.ok,
    )
    .map(
      (c) =>
        /\*(CREATED|RUNNING|COMPLETED|FAILED|CANCELLED|[A-Z_]+)\* (for|after)/.exec(
          JSON.stringify(c.args.blocks),
        )?.[1] ?? '?',
    );
}

async function modal(user: string, callbackId: string, notId?: string): Promise<OpenView> {
  return h.slack.waitFor(
    (s) => {
      const v = s.topView(user);
      if (!v || v.view.callback_id !== callbackId || v.id === notId) return undefined;
      return decodeMeta(v.view.private_metadata as string)?.timeZone ? v : undefined;
    },
    5_000,
    `the ${callbackId} form`,
  );
}

const initial = (v: OpenView, blockId: string) => {
  const el = (v.view.blocks as Block[]).find((b) => b.block_id === blockId)?.element;
  return el?.initial_value ?? el?.initial_option?.value;
};

describe('following a flow to its end', () => {
  it('a learn from a command: the announcement moves to COMPLETED in place, and one thread reply mentions the requester with the model and dataspec', async () => {
    await h.command(`learn workspace=${W} signals=${T}:temperature ${RANGE} name=tracked-command`, {
      channel: OPS,
    });
    const ann = await announcement(OPS, 'tracked-command');
    expect(seen(ann)).toContain('CREATED');
    await showing(OPS, ann.ts, /\*COMPLETED\* after/);
    const reply = await completion(OPS, ann.ts);
    expect(reply.text).toContain(`<@${ALICE}>`);
    expect(seen(reply)).toContain('completed after');
    // The model and dataspec the service says the flow produced, with the next steps.
    const flow = (await control('GET', 'state')) as {
      flows: { id: string; outputs?: { type: string; id: string }[] }[];
    };
    const outputs = flow.flows.find((f) => f.id === flowIdOf(ann))!.outputs!;
    const model = outputs.find((o) => o.type === 'entities.model')!.id;
    const dataspec = outputs.find((o) => o.type === 'entities.dataspec')!.id;
    expect(seen(reply)).toContain(model);
    expect(seen(reply)).toContain(dataspec);
    // What comes next in the new model's life, as its state allows: it is not live, so no backfill.
    expect(buttonsOf(reply)).toEqual([
      FLOW_ACTION.score,
      FLOW_ACTION['live-start'],
      FLOW_ACTION.relearn,
      REPEAT_FLOW.action,
    ]);
    // In place, in order, and never the same status twice.
    const statuses = shownStatuses(OPS, ann.ts);
    expect(statuses.at(-1)).toBe('COMPLETED');
    expect(new Set(statuses).size).toBe(statuses.length);
    // Exactly one end notice, also after more rounds.
    await new Promise((r) => setTimeout(r, 800));
    expect(threadOf(OPS, ann.ts)).toHaveLength(1);
    const tracked = await h.store.getTrackedFlow({ teamId: 'T0LOCAL', flowId: flowIdOf(ann) });
    expect(tracked).toMatchObject({ status: 'COMPLETED', endReason: 'ended', leaseOwner: null });
    expect(tracked!.finishedAt).not.toBeNull();
  });

  it('a learn from a form ends the same way; "Score with this model" opens the score form filled in, and it creates the right ANOMALYEVAL', async () => {
    await h.slack.sendShortcut({ user: ALICE, callbackId: 'tsai_shortcut_learn' });
    const form = await modal(ALICE, MODAL_CALLBACK.learn);
    // The ID fields are type-ahead selects: what goes in them is picked from what the bot offers.
    for (const [blockId, typed] of [
      ['workspace', W],
      ['signals', `${T}:temperature`],
    ] as const) {
      const offered = await h.slack.sendOptionsRequest({
        user: ALICE,
        viewId: form.id,
        blockId,
        actionId: fieldActionId(blockId),
        value: typed,
      });
      expect(offered.options?.map((o) => o.value)).toContain(typed);
    }
    const submitted = await h.slack.submitView({
      user: ALICE,
      viewId: form.id,
      values: {
        channel: { [fieldActionId('channel')]: OPS },
        name: { [fieldActionId('name')]: 'tracked-form' },
        workspace: { [fieldActionId('workspace')]: W },
        signals: { [fieldActionId('signals')]: [`${T}:temperature`] },
        range_1: { [MODAL_ACTION.range]: '2026-11-20 to 2026-11-21' },
      },
    });
    expect(submitted.errors).toBeUndefined();
    const ann = await announcement(OPS, 'tracked-form');
    await showing(OPS, ann.ts, /\*COMPLETED\* after/);
    const reply = await completion(OPS, ann.ts);
    expect(reply.text).toContain(`<@${ALICE}>`);

    const state = (await control('GET', 'state')) as {
      flows: { id: string; outputs?: { type: string; id: string }[] }[];
    };
    const outputs = state.flows.find((f) => f.id === flowIdOf(ann))!.outputs!;
    const model = outputs.find((o) => o.type === 'entities.model')!.id;
    const dataspec = outputs.find((o) => o.type === 'entities.dataspec')!.id;

    const before = h.slack.topView(ALICE)?.id;
    await h.slack.clickButton({
      user: ALICE,
      channel: OPS,
      messageTs: reply.ts,
      actionId: FLOW_ACTION.score,
    });
    const score = await modal(ALICE, MODAL_CALLBACK.score, before);
    expect(initial(score, 'model')).toBe(model);
    expect(initial(score, 'workspace')).toBe(W);
    expect(initial(score, 'dataspec_id')).toBe(dataspec);
    await h.clearServiceRequests();
    const d = await h.slack.submitView({
      user: ALICE,
      viewId: score.id,
      values: {
        prefix: { [fieldActionId('prefix')]: 'next/scores' },
        name: { [fieldActionId('name')]: 'scored' },
      },
    });
    expect(d.errors).toBeUndefined();
    await h.slack.waitFor(
      () => botMessages(OPS).find((m) => seen(m).includes('scored')),
      5_000,
      'the score announcement',
    );
    const [post] = (await h.serviceRequests()).filter((r) => r.method === 'POST');
    expect(post!.body).toEqual({
      flowType: 'ANOMALYEVAL',
      name: 'scored',
      spec: { model, workspace: W, dataspec: { id: dataspec }, outputsignalPrefix: 'next/scores' },
    });
  });

  it('a FAILED flow shows the service reason, escaped, with "Reopen with my inputs"', async () => {
    const ann = await learnInOps('will-fail', {
      status: 'FAILED',
      message: 'not enough data for <!channel>',
    });
    await showing(OPS, ann.ts, /\*FAILED\* after/);
    const reply = await completion(OPS, ann.ts);
    expect(reply.text).toContain(`<@${ALICE}>`);
    expect(seen(reply)).toContain('not enough data for &lt;!channel&gt;');
    expect(seen(reply)).not.toContain('<!channel>');
    expect(buttonsOf(reply)).toEqual([MODAL_ACTION.reopen]);
    const before = h.slack.topView(ALICE)?.id;
    await h.slack.clickButton({
      user: ALICE,
      channel: OPS,
      messageTs: reply.ts,
      actionId: MODAL_ACTION.reopen,
    });
    const again = await modal(ALICE, MODAL_CALLBACK.learn, before);
    expect(initial(again, 'workspace')).toBe(W);
    expect(initial(again, 'name')).toBe('will-fail');
    expect(initial(again, 'range_1')).toBe('2026-11-20 to 2026-11-21');
  });

  it('an approved live start ends with the model live, on the request card and in its thread', async () => {
    const model = SEED.models.pressureCommon;
    await h.command(`live start ${model} reason="tracked start"`, { channel: OPS });
    const card = await h.slack.waitFor(
      () => botMessages(OPS).find((m) => seen(m).includes('tracked start') && seen(m).includes('Approve')),
      5_000,
    );
    await h.slack.clickButton({
      user: 'U0BOB',
      channel: OPS,
      messageTs: card.ts,
      actionId: 'approval_approve',
    });
    await showing(OPS, card.ts, new RegExp(`Model \`${model}\` is now live`));
    const notes = await h.slack.waitFor(() => {
      const t = threadOf(OPS, card.ts);
      return t.some((m) => /completed after/.test(m.text)) ? t : undefined;
    }, 10_000);
    expect(notes.filter((m) => /completed after/.test(m.text))).toHaveLength(1);
    expect(notes.find((m) => /completed after/.test(m.text))!.text).toContain(`<@${ALICE}>`);
    const state = (await control('GET', 'state')) as { models: { id: string; live?: boolean }[] };
    expect(state.models.find((m) => m.id === model)?.live).toBe(true);
  });
});

describe('what the bot knows of the flows it follows', () => {
  it("/tsai flows lists the channel's latest flows with their status as followed; /tsai flow shows following and a fresh read", async () => {
    await h.command(`learn workspace=${W} signals=${T}:temperature ${RANGE} name=listed-one`, {
      channel: SLOW,
    });
    const ann = await announcement(SLOW, 'listed-one');
    await showing(SLOW, ann.ts, /\*COMPLETED\* after/);
    // The tracker writes a round's outcome to the store once Slack has shown it.
    await waitUntil(
      async () =>
        expect(
          (await h.store.getTrackedFlow({ teamId: 'T0LOCAL', flowId: flowIdOf(ann) }))?.finishedAt,
        ).not.toBeNull(),
      {
        timeout: 5_000,
      },
    );
    const list = await h.commandAndReply('flows 5', { channel: SLOW });
    expect(list.ephemeralTo).toBe(ALICE);
    expect(seen(list)).toContain(flowIdOf(ann));
    expect(seen(list)).toMatch(/\*COMPLETED\* after/);
    // Another channel's flows are not listed.
    expect(seen(await h.commandAndReply('flows', { channel: 'C0GENERAL' }))).not.toContain(flowIdOf(ann));
    const one = await h.commandAndReply(`flow ${flowIdOf(ann)}`, { channel: OPS });
    expect(seen(one)).toContain(`started by <@${ALICE}> in <#${SLOW}>`);
    expect(seen(one)).toContain('The service says now:');
    expect(seen(one)).toContain('Model created');
    const bad = await h.commandAndReply('flows 500', { channel: OPS });
    expect(seen(bad)).toContain('give 1 to 25');
  });
});

describe('following flows through faults', () => {
  it('a 429 on chat.update delays that message only; it still reaches its end', async () => {
    h.slack.injectFault({ method: 'chat.update', channel: SLOW, status: 429, retryAfter: 2, times: 2 });
    await h.command(`learn workspace=${W} signals=${T}:temperature ${RANGE} name=slow-one`, {
      channel: SLOW,
    });
    await h.command(`learn workspace=${W} signals=${T}:temperature ${RANGE} name=quick-one`, {
      channel: OPS,
    });
    const slow = await announcement(SLOW, 'slow-one');
    const quick = await announcement(OPS, 'quick-one');
    await showing(OPS, quick.ts, /\*COMPLETED\* after/);
    // The quick one ended while the slow one's updates were still put off.
    expect(
      h.slack.calls.filter(
        (c) => c.method === 'chat.update' && c.args.channel === SLOW && c.response.ok === false,
      ).length,
    ).toBeGreaterThan(0);
    await showing(SLOW, slow.ts, /\*COMPLETED\* after/);
    await completion(SLOW, slow.ts);
    expect(threadOf(SLOW, slow.ts)).toHaveLength(1);
  });

  it('in a private channel without the bot: announced through the response_url, and the end goes there too', async () => {
    const d = await h.command(`learn workspace=${W} signals=${T}:temperature ${RANGE} name=private-one`, {
      channel: PRIVATE,
    });
    expect(d.status).toBe(200);
    const ann = await h.slack.waitFor(
      () =>
        h.slack
          .messages(PRIVATE, { user: ALICE })
          .find((m) => m.via === 'response_url' && seen(m).includes('private-one')),
      5_000,
    );
    const end = await h.slack.waitFor(
      () =>
        h.slack
          .messages(PRIVATE, { user: ALICE })
          .find((m) => m.via === 'response_url' && /completed after/.test(m.text)),
      10_000,
      'the end through the response_url',
    );
    expect(end.text).toContain(`<@${ALICE}>`);
    expect(end.ts).not.toBe(ann.ts);
    expect(h.slack.calls.filter((c) => c.method === 'chat.update' && c.args.channel === PRIVATE)).toEqual([]);
  });

  it('in a private channel without the bot: the person is told once, in words, how to invite it and what they get meanwhile', async () => {
    const hints = () =>
      h.slack.messages(PRIVATE, { user: ALICE }).filter((m) => m.text.includes('/invite @tsai'));
    const start = async (name: string) => {
      await h.command(`learn workspace=${W} signals=${T}:temperature ${RANGE} name=${name}`, {
        channel: PRIVATE,
      });
      await h.slack.waitFor(
        () =>
          h.slack
            .messages(PRIVATE, { user: ALICE })
            .find((m) => m.via === 'response_url' && seen(m).includes(name)),
        10_000,
        `the announcement of ${name}`,
      );
    };
    await start('private-hinted');
    const [hint] = await h.slack.waitFor(
      () => (hints().length > 0 ? hints() : undefined),
      10_000,
      'the hint',
    );
    expect(hint!.ephemeralTo).toBe(ALICE);
    expect(hint!.text).toContain("I'm not in this channel");
    expect(hint!.text).toMatch(/status does not change in place/);
    expect(hint!.text).toMatch(/when it ends, you get one new message here/);
    expect(hint!.text).not.toMatch(/not_in_channel|channel_not_found|U0[A-Z]+/);
    // Once: the next flow in the same channel is announced the same way, without telling it again.
    await start('private-not-hinted-again');
    expect(hints()).toHaveLength(1);
    // The hint took one of the response_url's uses, and the end still comes through it.
    await h.slack.waitFor(
      () =>
        h.slack
          .messages(PRIVATE, { user: ALICE })
          .find(
            (m) =>
              m.via === 'response_url' &&
              /completed after/.test(m.text) &&
              seen(m).includes('private-hinted'),
          ),
      15_000,
      'the end of the hinted flow through the response_url',
    );
  });

  it('when the response_url is used up, the end goes to the requester by direct message', async () => {
    h.slack.injectFault({ method: 'response_url', status: 404, times: 'always' });
    try {
      await h.command(`learn workspace=${W} signals=${T}:temperature ${RANGE} name=dm-one`, {
        channel: PRIVATE,
      });
      const dm = await h.slack.waitFor(
        () =>
          [...h.slack.state.channels.values()]
            .filter((c) => c.isIm)
            .flatMap((c) => c.messages)
            .find(
              (m) =>
                m.user === h.slack.botUserId && /completed after/.test(m.text) && seen(m).includes('dm-one'),
            ),
        10_000,
        'the direct message',
      );
      expect(dm.text).toContain(`<@${ALICE}>`);
    } finally {
      h.slack.clearFaults();
    }
  });

  it('a service error while reading the flow back is retried; the flow still ends', async () => {
    await control('POST', 'faults', { method: 'GET', path: '/flows/\\d+$', status: 500, count: 3 });
    await h.command(`learn workspace=${W} signals=${T}:temperature ${RANGE} name=after-500`, {
      channel: OPS,
    });
    const ann = await announcement(OPS, 'after-500');
    await showing(OPS, ann.ts, /\*COMPLETED\* after/);
    const failedReads = (await h.serviceRequests()).filter(
      (r) => r.method === 'GET' && r.path.endsWith(`/flows/${flowIdOf(ann)}`) && r.status === 500,
    );
    expect(failedReads.length).toBeGreaterThan(0);
    await completion(OPS, ann.ts);
    expect(threadOf(OPS, ann.ts)).toHaveLength(1);
  });

  it('a status the bot does not know is shown as the service wrote it, and following goes on to the end', async () => {
    const ann = await learnInOps('odd-status', { status: 'WAITING_FOR_DATA' });
    await showing(OPS, ann.ts, /\*WAITING_FOR_DATA\* for/);
    await control('POST', `flows/${flowIdOf(ann)}/finish`, { status: 'COMPLETED' });
    await showing(OPS, ann.ts, /\*COMPLETED\* after/);
    expect(shownStatuses(OPS, ann.ts)).toEqual(['WAITING_FOR_DATA', 'COMPLETED']);
  });

  it('a CANCELLED flow ends with one notice and "Reopen with my inputs"', async () => {
    const ann = await learnInOps('cancelled-one', { status: 'CANCELLED' });
    await showing(OPS, ann.ts, /\*CANCELLED\* after/);
    const reply = await completion(OPS, ann.ts);
    expect(reply.text).toContain('ended CANCELLED');
    expect(buttonsOf(reply)).toEqual([MODAL_ACTION.reopen]);
  });

  it('a 401 while reading stops following with a clear note, and no end notice', async () => {
    const ann = await learnInOps('refused-read', { status: 'RUNNING' });
    await control('POST', 'faults', { method: 'GET', path: `/flows/${flowIdOf(ann)}$`, status: 401 });
    await showing(OPS, ann.ts, /can no longer read this flow/);
    expect(seen(current(OPS, ann.ts))).toContain("follow it in the service's Activity view");
    await new Promise((r) => setTimeout(r, 800));
    expect(threadOf(OPS, ann.ts)).toEqual([]);
    await waitUntil(
      async () =>
        expect((await h.store.getTrackedFlow({ teamId: 'T0LOCAL', flowId: flowIdOf(ann) }))?.endReason).toBe(
          'unauthorized',
        ),
      { timeout: 5_000 },
    );
  });

  it('a restart mid-flow: the new bot takes it to its end, and the requester is told once', async () => {
    const ann = await learnInOps('across-restart', { status: 'RUNNING' });
    await showing(OPS, ann.ts, /\*RUNNING\* for/);
    await h.running.stop();
    const again = await startAll({ config: h.config, logger: h.logger, clock: h.clock.source });
    try {
      h.slack.setBotEndpoint(`http://127.0.0.1:${again.slack.port()}/slack/events`);
      await control('POST', `flows/${flowIdOf(ann)}/finish`, { status: 'COMPLETED' });
      await showing(OPS, ann.ts, /\*COMPLETED\* after/);
      await completion(OPS, ann.ts);
      await new Promise((r) => setTimeout(r, 800));
      expect(threadOf(OPS, ann.ts)).toHaveLength(1);
    } finally {
      await again.stop();
    }
  });
});

describe('a service without flow read-back', () => {
  it('when the service cannot report flows, every followed flow says so once and is no longer read', async () => {
    // Its own bot: a client that learned the service has no read-back route remembers it.
    const own = await startHarness({
      flowDelays: { runningAfterMs: 300, completedAfterMs: 1_200 },
      env: { TSAI_TRACK_FIRST_POLL: '100ms', TSAI_TRACK_MAX_INTERVAL: '400ms' },
    });
    const h = own;
    const control = emulatorControl(own.emulator.url);
    await control('PUT', 'features', { flowReadBack: false });
    try {
      await h.command(`learn workspace=${W} signals=${T}:temperature ${RANGE} name=unreadable`, {
        channel: OPS,
      });
      const ann = await own.slack.waitFor(
        () =>
          own.slack
            .messages(OPS)
            .find((m) => m.user === own.slack.botUserId && seen(m).includes('unreadable')),
        5_000,
      );
      await own.slack.waitFor(
        () =>
          /does not report flow status/.test(seen(own.slack.messages(OPS).find((m) => m.ts === ann.ts))) ||
          undefined,
        10_000,
      );
      await new Promise((r) => setTimeout(r, 800));
      const reads = (await h.serviceRequests()).filter(
        (r) => r.method === 'GET' && r.path.endsWith(`/flows/${flowIdOf(ann)}`),
      );
      expect(reads.length).toBeLessThanOrEqual(1);
      expect(
        own.slack.calls.filter((c) => c.method === 'chat.update' && c.args.ts === ann.ts && c.response.ok),
      ).toHaveLength(1);
      expect(own.slack.messages(OPS, { threadTs: ann.ts }).filter((m) => m.threadTs === ann.ts)).toEqual([]);
      await waitUntil(
        async () =>
          expect(
            (await h.store.getTrackedFlow({ teamId: 'T0LOCAL', flowId: flowIdOf(ann) }))?.endReason,
          ).toBe('unsupported'),
        { timeout: 5_000 },
      );
    } finally {
      await own.close();
    }
  });
});

describe('a flow older than the maximum age', () => {
  it('is no longer followed: the message says so and where to look', async () => {
    const own = await startHarness({
      flowDelays: { runningAfterMs: 100, completedAfterMs: 600_000 },
      env: { TSAI_TRACK_FIRST_POLL: '100ms', TSAI_TRACK_MAX_INTERVAL: '300ms', TSAI_TRACK_MAX_AGE: '1s' },
    });
    try {
      await own.command(`learn workspace=${W} signals=${T}:temperature ${RANGE} name=too-old`, {
        channel: OPS,
      });
      const ann = await own.slack.waitFor(
        () =>
          own.slack.messages(OPS).find((m) => m.user === own.slack.botUserId && seen(m).includes('too-old')),
        5_000,
      );
      const stopped = await own.slack.waitFor(() => {
        const m = own.slack.messages(OPS).find((x) => x.ts === ann.ts);
        return m && /stopped following this flow after/.test(seen(m)) ? m : undefined;
      }, 10_000);
      expect(seen(stopped)).toContain("follow it in the service's Activity view");
      expect(seen(stopped)).toContain('*RUNNING* when the bot stopped following');
      await waitUntil(
        async () =>
          expect(
            (await own.store.getTrackedFlow({ teamId: 'T0LOCAL', flowId: flowIdOf(ann) }))?.endReason,
          ).toBe('max-age'),
        { timeout: 5_000 },
      );
    } finally {
      await own.close();
    }
  });
});
