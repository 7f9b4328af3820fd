import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_ACTION } from '../../src/slack/approvals/card.js';
import { MODAL_ACTION } from '../../src/slack/forms/views/ids.js';
import { PLAIN_ACTION } from '../../src/slack/plain/listener.js';
import { SEED } from '../../standins/emulator/index.js';
import { DEFAULT_USERS, type LocalMessage } from '../../standins/localslack/index.js';
import { type Harness, startHarness } from '../support/harness.js';
import { waitUntil } from '../support/patience.js';

/**
 * Plain requests, through the real bot over the Events API: people write to it in their own words, in
 * their direct messages and in a channel's thread; the bot answers each with what it read, the exact
 * command, and changes nothing at the service until the person clicks Run it.
 */
const S = SEED;
const W = S.workspaces.pumpStation;
const W2 = S.workspaces.sandbox;
const T = S.signals.temperature;
const P = S.signals.pressure;
const M = S.models.temperatureAnomaly;
const M0 = S.models.pressureCommon;
const A = S.assessments.temperature;
const ALICE = 'U0ALICE';
const BOB = 'U0BOB';
const DORA = 'U0DORA';
const OPS = 'C0OPS';
const APPROVALS = 'C0APPROVALS';

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
    users: [
      ...DEFAULT_USERS,
      { id: DORA, name: 'dora', realName: 'Dora Schmidt', tz: 'Europe/Berlin', locale: 'de-DE' },
    ],
    channels: [
      { id: 'C0GENERAL', name: 'general' },
      { id: OPS, name: 'plant-ops' },
      { id: APPROVALS, name: 'approvals' },
    ],
  });
  h.slack.configureApp({
    assistantView: { description: 'tsai', suggestedPrompts: [{ title: 'My flows', message: 'flows' }] },
  });
  // What the catalog learns from ordinary use: a lookup names the workspaces, a learn the signals.
  await h.commandAndReply(`workspace show ${W}`);
  await h.commandAndReply(`workspace show ${W2}`);
  await h.commandAndReply(`learn workspace=${W} signals=${T}:temperature,${P}:pressure range="last 3 days"`);
});
afterAll(async () => {
  await h?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: tests read Block Kit JSON by path
type Block = Record<string, any>;
const textOf = (m: LocalMessage | undefined) => (m ? `${m.text}\n${JSON.stringify(m.blocks ?? [])}` : '');
const bot = () => h.slack.botUserId;
const dm = (user: string) => `D${user}`;
const buttons = (m: LocalMessage) =>
  ((m.blocks ?? []) as Block[])
    .filter((b) => b.type === 'actions')
    .flatMap((b) => (b.elements as Block[]).map((e) => e.text.text as string));
/** The command a reading quotes first, as typed where it was asked. */
const quoted = (m: LocalMessage) => /I read this as `([^`]+)`/.exec(textOf(m).replace(/\\"/g, '"'))?.[1];

/** `user` writes `text` in their direct messages with the bot; the bot's first answer after it. */
async function ask(user: string, text: string, test = /./) {
  const asked = h.slack.postUserMessage({ user, channel: dm(user), text });
  const answer = await h.slack.waitFor(
    () =>
      h.slack
        .messages(dm(user))
        .find((m) => m.ts > asked.ts && m.user === bot() && !m.threadTs && test.test(textOf(m))),
    60_000,
    `the answer to “${text}”`,
  );
  return { asked, answer };
}

/** What the bot has asked of the service that may change something (anything but reads). */
const changes = async () => (await h.serviceRequests()).filter((r) => r.method !== 'GET');

const click = (user: string, m: LocalMessage, actionId: string, blockId?: string) =>
  h.slack.clickButton({
    user,
    channel: m.channel,
    messageTs: m.ts,
    actionId,
    ...(blockId ? { blockId } : {}),
  });

/** Twenty requests of different shapes, and what each is read as (the command typed in the Messages tab). */
const OFFERED: readonly { says: string; reads: string; user?: string }[] = [
  {
    says: 'train a model on temperature and pressure at Pump station A using last week',
    reads: 'learn workspace="Pump station A" signals=temperature,pressure range="last week"',
  },
  {
    says: 'please build a model with temperature at Pump station A over the past 3 days',
    reads: 'learn workspace="Pump station A" signals=temperature range="over the past 3 days"',
  },
  {
    says: 'learn a model on pressure at Pump station A for 2026-11-20T00:00Z/P1D',
    reads: 'learn workspace="Pump station A" signals=pressure range="2026-11-20T00:00Z/P1D"',
  },
  {
    says: 'train a model on temperature at Pump station A seit gestern',
    reads: 'learn workspace="Pump station A" signals=temperature range="seit gestern"',
    user: DORA,
  },
  {
    says: `retrain model ${M} on pressure at Pump station A for yesterday 9am to 5pm`,
    reads: `relearn ${M} workspace="Pump station A" signals=pressure range="yesterday 9am to 5pm"`,
  },
  {
    says: `score model ${M} on temperature at Pump station A from 2026-11-20 to 2026-11-21`,
    reads: `score ${M} workspace="Pump station A" signals=temperature range="from 2026-11-20 to 2026-11-21"`,
  },
  {
    says: `evaluate temperature at Sandbox with model ${M} in the last 8 hours`,
    reads: `score ${M} workspace=Sandbox signals=temperature range="in the last 8 hours"`,
  },
  {
    says: `backfill assessment ${A} with model ${M} on datastream ${S.datastream} yesterday for entities pump-1 and pump-2`,
    reads: `eval ${A} model=${M} datastream=${S.datastream} entities=pump-1,pump-2 range="yesterday"`,
  },
  {
    says: `take model ${M0} live because new baseline`,
    reads: `live start ${M0} reason="new baseline"`,
  },
  { says: `stop the model ${M}`, reads: `live stop ${M}` },
  { says: 'create a workspace called Line 5', reads: 'workspace create name="Line 5"' },
  {
    says: `move the model ${M} to workspace ${W2}`,
    reads: `model move model=${M} workspace=${W2}`,
  },
];

/** Questions that change nothing: answered at once, after what they were read as. */
const ASKED: readonly { says: string; reads: string; answer: RegExp }[] = [
  { says: 'what waits for me?', reads: 'approvals', answer: /pending|no request|nothing/i },
  { says: 'show my flows', reads: 'flows', answer: /ANOMALYLEARN|flow/i },
  {
    says: `what is the status of flow ${S.flows.baselineLearn}`,
    reads: `flow ${S.flows.baselineLearn}`,
    answer: /COMPLETED|status/i,
  },
  {
    says: 'show the workspace Pump station A',
    reads: 'workspace show "Pump station A"',
    answer: new RegExp(W),
  },
  { says: `what is the common model of assessment ${A}`, reads: `model common ${A}`, answer: /M\[0\]/ },
  { says: 'who am i?', reads: 'whoami', answer: /identity|token|act as/i },
];

const offers = new Map<string, LocalMessage>();

describe('plain requests', () => {
  it('reads twenty requests of different shapes, each into its command or refused with a reason, and changes nothing before a click', async () => {
    await h.clearServiceRequests();
    for (const r of OFFERED) {
      const user = r.user ?? ALICE;
      const { answer } = await ask(user, r.says, /I read this as/);
      expect.soft(quoted(answer), r.says).toBe(r.reads);
      expect(buttons(answer), r.says).toContain('Not what I meant');
      expect(textOf(answer)).toMatch(/Nothing is done until you click/);
      offers.set(r.says, answer);
    }
    for (const q of ASKED) {
      const { asked, answer } = await ask(ALICE, q.says, /I read this as/);
      expect.soft(quoted(answer), q.says).toBe(q.reads);
      expect(buttons(answer)).toEqual([]);
      await h.slack.waitFor(
        () =>
          h.slack
            .messages(dm(ALICE))
            .find((m) => m.ts > answer.ts && m.ts > asked.ts && m.user === bot() && q.answer.test(textOf(m))),
        60_000,
        `the answer to “${q.says}”`,
      );
    }

    // A phrase with two readings: each offered as a command, none guessed.
    const both = (await ask(ALICE, `run the model ${M} over yesterday`, /more than one way/)).answer;
    expect(textOf(both)).toContain(`\`score ${M} range=\\"yesterday\\"\``);
    expect(textOf(both)).toContain(`\`eval model=${M} range=\\"yesterday\\"\``);
    offers.set('both', both);

    // What names no command: said plainly, with what works as typed.
    const none = (await ask(ALICE, 'good morning team, any news?', /could not tell/)).answer;
    expect(textOf(none)).toMatch(/“train a model”, or as a command: `learn workspace=/);
    expect(buttons(none)).toEqual([]);

    // A reading that cannot run is refused with its reason, and offers no Run it.
    const future = (
      await ask(ALICE, 'train a model on temperature at Pump station A next week', /I read this as/)
    ).answer;
    expect(quoted(future)).toBe('learn workspace="Pump station A" signals=temperature range="next week"');
    expect(textOf(future)).toMatch(/cannot run as it is: .*future/i);
    expect(buttons(future)).not.toContain('Run it');

    // A pasted token is masked before anything is kept or shown.
    const token = 'xoxb-1234567890-abcdefghijklmnopqrstuv';
    const masked = (await ask(ALICE, `create a workspace called ${token}`, /token-like value/)).answer;
    expect(textOf(masked)).not.toContain(token);
    expect(JSON.stringify(await h.store.listAudit({ limit: 100 }))).not.toContain(token);

    // Nothing of all that reached the service but reads.
    expect(await changes()).toEqual([]);
  });

  it('Run it runs the command read, once, as the person who asked, and only they may click', async () => {
    const offer = offers.get(OFFERED[0]!.says)!;
    await h.clearServiceRequests();
    // Were Alice's reading shown to Bob, his click would be refused: what was read from her words is hers.
    expect((await click(BOB, offer, PLAIN_ACTION.run)).status).toBe(200);
    await h.slack.waitFor(
      () =>
        h.slack
          .messages(dm(ALICE))
          .find((m) => m.ts > offer.ts && /Only <@U0ALICE>, who asked/.test(textOf(m))),
      60_000,
      'the other clicker told',
    );
    expect(await changes()).toEqual([]);
    // A reading is kept under the installation it was asked in: the same button value, clicked as from
    // another workspace (even by the same user ID), finds nothing there and runs nothing.
    expect(
      (
        await h.slack.clickButton({
          user: ALICE,
          channel: offer.channel,
          messageTs: offer.ts,
          actionId: PLAIN_ACTION.run,
          teamId: 'T0ELSEWHERE',
        })
      ).status,
    ).toBe(200);
    await h.slack.waitFor(
      () => h.slack.messages(dm(ALICE)).find((m) => m.ts > offer.ts && /no longer kept/.test(textOf(m))),
      60_000,
      'the click from another workspace told',
    );
    expect(await changes()).toEqual([]);
    await h.clearServiceRequests();
    expect((await click(ALICE, offer, PLAIN_ACTION.run)).status).toBe(200);
    await waitUntil(async () => {
      expect((await changes()).some((r) => r.method === 'POST' && /flows/.test(r.path))).toBe(true);
    }, 60_000);
    const sent = (await changes()).filter((r) => r.method === 'POST');
    expect(sent).toHaveLength(1);
    expect(JSON.stringify(sent[0]!.body)).toContain(W);
    const audit = await h.store.listAudit({ limit: 5 });
    const line = audit.find((e) => e.operation === 'flow.ANOMALYLEARN');
    expect(line?.userId).toBe(ALICE);
    expect(line?.params.via).toBe('direct-message');

    expect((await click(ALICE, offer, PLAIN_ACTION.run)).status).toBe(200);
    await h.slack.waitFor(
      () => h.slack.messages(dm(ALICE)).find((m) => m.ts > offer.ts && /run already/.test(textOf(m))),
      60_000,
      'the second click told',
    );
    expect((await changes()).filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('Run it of a live start files its request for approval: nothing is sent before an approver decides', async () => {
    const offer = offers.get(OFFERED.find((r) => r.reads.startsWith('live start'))!.says)!;
    await h.clearServiceRequests();
    await click(ALICE, offer, PLAIN_ACTION.run);
    const card = await h.slack.waitFor(
      () => h.slack.messages(APPROVALS).find((m) => m.ts > offer.ts && /new baseline/.test(textOf(m))),
      60_000,
      'the approval card',
    );
    expect(await changes()).toEqual([]);
    await h.slack.clickButton({
      user: BOB,
      channel: APPROVALS,
      messageTs: card.ts,
      actionId: APPROVAL_ACTION.approve,
    });
    await waitUntil(async () => {
      expect(
        (await changes()).some((r) => r.method === 'POST' && /STARTLIVEMODEL/.test(JSON.stringify(r.body))),
      ).toBe(true);
    }, 60_000);
  });

  it('Open the form opens the operation’s form filled in with what was read', async () => {
    const offer = offers.get(OFFERED[0]!.says)!;
    expect((await click(ALICE, offer, MODAL_ACTION.reopen)).status).toBe(200);
    const form = await h.slack.waitFor(() => h.slack.topView(ALICE), 60_000, 'the learn form');
    const view = JSON.stringify(form.view);
    expect(view).toContain(W);
    expect(view).toContain(T);
    expect(view).toContain(P);
    expect(view).toContain('last week');
  });

  it('Not what I meant answers with the commands near it, exactly as typed', async () => {
    const offer = offers.get('both')!;
    await click(ALICE, offer, PLAIN_ACTION.other);
    const other = await h.slack.waitFor(
      () => h.slack.messages(dm(ALICE)).find((m) => m.ts > offer.ts && /came near/.test(textOf(m))),
      60_000,
      'the commands near it',
    );
    expect(textOf(other)).toContain('`score &lt;model_id&gt;');
    expect(textOf(other)).toContain('`eval &lt;assessment');
    expect(await changes()).not.toContainEqual(expect.objectContaining({ method: 'PUT' }));
  });

  it('reads a plain request in a channel’s thread, answered privately there; a typed command still runs as typed', async () => {
    const top = h.slack.postUserMessage({ user: ALICE, channel: OPS, text: '@tsai hello' });
    const thread = top.ts;
    const asked = h.slack.postUserMessage({
      user: ALICE,
      channel: OPS,
      threadTs: thread,
      text: '@tsai train a model on temperature at Pump station A using yesterday',
    });
    const answer = await h.slack.waitFor(
      () =>
        h.slack
          .messages(OPS, { user: ALICE, threadTs: thread })
          .find((m) => m.ts > asked.ts && m.user === bot() && /I read this as/.test(textOf(m))),
      60_000,
      'the reading in the thread',
    );
    expect(answer.ephemeralTo).toBe(ALICE);
    expect(quoted(answer)).toBe(
      '@tsai learn workspace="Pump station A" signals=temperature range="yesterday"',
    );
    // Bob sees the thread but not Alice's reading: the click is hers alone.
    await expect(click(BOB, answer, PLAIN_ACTION.run)).rejects.toThrow(/sees no message/);
    const typed = h.slack.postUserMessage({
      user: ALICE,
      channel: OPS,
      threadTs: thread,
      text: `@tsai workspace show ${W}`,
    });
    const shown = await h.slack.waitFor(
      () =>
        h.slack
          .messages(OPS, { user: ALICE, threadTs: thread })
          .find((m) => m.ts > typed.ts && m.user === bot() && /Pump station A/.test(textOf(m))),
      60_000,
      'the typed command answered',
    );
    expect(textOf(shown)).not.toMatch(/I read this as/);
  });

  it('reads a plain request in the assistant pane, run there by its button as typed in the pane', async () => {
    const opened = await h.slack.openAssistant({ user: ALICE, channel: OPS });
    const inPane = () =>
      h.slack
        .messages(dm(ALICE), { user: ALICE, threadTs: opened.threadTs })
        .filter((m) => m.ts !== opened.threadTs && m.user === bot());
    // The pane's thread is kept as the pane's when it is greeted.
    await h.slack.waitFor(() => inPane().find((m) => /Hi <@/.test(textOf(m))), 60_000, 'the greeting');
    const asked = h.slack.postUserMessage({
      user: ALICE,
      channel: dm(ALICE),
      threadTs: opened.threadTs,
      text: 'train a model on signal 1050000000000000001 at workspace 1030000000000000001 using yesterday',
    });
    const reading = await h.slack.waitFor(
      () => inPane().find((m) => m.ts > asked.ts && /I read this as/.test(textOf(m))),
      60_000,
      'the reading in the pane',
    );
    expect(quoted(reading)).toBe(`learn workspace=${W} signals=${T} range="yesterday"`);
    await h.clearServiceRequests();
    await click(ALICE, reading, PLAIN_ACTION.run);
    await h.slack.waitFor(
      () => h.slack.messages(OPS).find((m) => m.ts > reading.ts && /ANOMALYLEARN/.test(textOf(m))),
      60_000,
      'the learn announced in the channel viewed',
    );
    const line = (await h.store.listAudit({ limit: 5 })).find((e) => e.operation === 'flow.ANOMALYLEARN');
    expect(line?.params.via).toBe('assistant');
    expect(line?.channelId).toBe(OPS);
  });
});
