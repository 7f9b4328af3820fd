import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED } from '../../standins/emulator/index.js';
import { DEFAULT_CHANNELS, DEFAULT_USERS, type LocalMessage } from '../../standins/localslack/index.js';
import { emulatorControl } from '../support/emulator.js';
import { type Harness, startHarness } from '../support/harness.js';
import { waitUntil } from '../support/patience.js';

/**
 * A live start or stop that cannot do anything is refused to its requester at once, with what to do,
 * and nothing reaches the approvers: through the real bot (startAll, worker), the local Slack with real
 * signatures and the emulator, whose models say whether they are live.
 */
const ALICE = 'U0ALICE';
const BOB = 'U0BOB';
const OPS = 'C0OPS';
const APPROVALS = 'C0APPROVALS';
const A = SEED.assessments;
const M = SEED.models;

let h: Harness;
let control: ReturnType<typeof emulatorControl>;
beforeAll(async () => {
  h = await startHarness({
    flowDelays: { runningAfterMs: 200, completedAfterMs: 600 },
    env: {
      TSAI_APPROVERS: BOB,
      TSAI_APPROVALS_CHANNEL: APPROVALS,
      TSAI_TRACK_FIRST_POLL: '100ms',
      TSAI_TRACK_MAX_INTERVAL: '300ms',
    },
    users: DEFAULT_USERS,
    channels: [...DEFAULT_CHANNELS, { id: APPROVALS, name: 'approvals' }],
  });
  control = emulatorControl(h.emulator.url);
});
afterAll(async () => {
  await h?.close();
});

const seen = (m: LocalMessage) => `${m.text}\n${JSON.stringify(m.blocks ?? [])}`;
const cards = () => h.slack.messages(APPROVALS).filter((m) => m.user === h.slack.botUserId);

/** Alice's command, refused: her private reply; nothing filed, nothing posted for the approvers. */
async function refused(text: string): Promise<string> {
  const [filedBefore, cardsBefore] = [(await h.store.listApprovals()).length, cards().length];
  const reply = await h.commandAndReply(text, { user: ALICE, channel: OPS });
  expect(reply.ephemeralTo).toBe(ALICE);
  expect((await h.store.listApprovals()).length).toBe(filedBefore);
  expect(cards().length).toBe(cardsBefore);
  expect(h.slack.messages(`D${BOB}`).filter((m) => m.user === h.slack.botUserId)).toEqual([]);
  return seen(reply);
}

describe('pre-checks before approvers are asked', () => {
  it("a start of a model the service's record says is live is refused, with how to stop it", async () => {
    const said = await refused(`live start assessment=${A.temperature}`);
    expect(said).toContain(`Model ${M.temperatureCommon} is already live`);
    expect(said).toContain(`/tsai live stop ${M.temperatureCommon}`);
  });

  it('a stop of a model that is not live is refused, with how to start it', async () => {
    const said = await refused(`live stop assessment=${A.pressure}`);
    expect(said).toContain(`Model ${M.pressureCommon} is not live`);
    expect(said).toContain(`/tsai live start ${M.pressureCommon}`);
  });

  it('an assessment without a common model is refused with an example', async () => {
    const said = await refused(`live start assessment=${A.vibration}`);
    expect(said).toContain(`Assessment ${A.vibration} has no common model`);
    expect(said).toContain('/tsai live start');
  });

  it('a start of a model the bot saw started, by a flow it followed to its end, is refused', async () => {
    await h.command(`live start ${M.pressureCommon} reason=first-start`, { user: ALICE, channel: OPS });
    const card = await h.slack.waitFor(
      () => cards().find((m) => seen(m).includes('first-start') && seen(m).includes('approval_approve')),
      5_000,
      'the request card',
    );
    await h.slack.clickButton({
      user: BOB,
      channel: APPROVALS,
      messageTs: card.ts,
      actionId: 'approval_approve',
    });
    await waitUntil(
      async () => {
        const [r] = await h.store.listApprovals({ statuses: ['executed'] });
        const flow = r?.flowId ? await h.store.getTrackedFlow({ teamId: r.teamId, flowId: r.flowId }) : null;
        expect(flow?.status).toBe('COMPLETED');
        expect(flow?.endReason).toBe('ended');
      },
      { timeout: 10_000, interval: 100 },
    );
    const [executed] = await h.store.listApprovals({ statuses: ['executed'] });
    const said = await refused(`live start ${M.pressureCommon} reason=second-start`);
    expect(said).toContain(`Model ${M.pressureCommon} is already live`);
    expect(said).toContain(`flow ${executed!.flowId}`);
    expect(said).toContain(`/tsai live stop ${M.pressureCommon}`);
  });

  it('a request that can do something still reaches the approvers', async () => {
    const before = cards().length;
    await h.command(`live stop ${M.pressureCommon} reason=now-stop`, { user: ALICE, channel: OPS });
    await h.slack.waitFor(
      () => cards().find((m) => seen(m).includes('now-stop') && seen(m).includes('approval_approve')),
      5_000,
      'the stop request card',
    );
    expect(cards().length).toBe(before + 1);
  });
});

type Block = { type?: string; elements?: { action_id?: string }[] };
const buttonsOf = (m: LocalMessage) =>
  ((m.blocks ?? []) as Block[])
    .filter((b) => b.type === 'actions')
    .flatMap((b) => (b.elements ?? []).map((e) => e.action_id));

/** Alice asks to stop the temperature M[0]; Bob approves while the service answers the flow's POST `status`. */
async function approvedThrough(
  status: number,
  tag: string,
): Promise<{ card: LocalMessage; notice: LocalMessage }> {
  await h.command(`live stop ${M.temperatureCommon} reason=${tag}`, { user: ALICE, channel: OPS });
  const card = await h.slack.waitFor(
    () => cards().find((m) => seen(m).includes(tag) && seen(m).includes('approval_approve')),
    5_000,
    `the request card ${tag}`,
  );
  await control('POST', 'faults', {
    method: 'POST',
    path: '/flows$',
    status,
    message: 'model is locked by a running evaluation',
    count: 1,
  });
  try {
    await h.slack.clickButton({
      user: BOB,
      channel: APPROVALS,
      messageTs: card.ts,
      actionId: 'approval_approve',
    });
    const decided = await h.slack.waitFor(
      () => {
        const m = cards().find((x) => x.ts === card.ts);
        return m && /could not be created|turned the flow down/.test(seen(m)) ? m : undefined;
      },
      10_000,
      `the decided card ${tag}`,
    );
    const notice = await h.slack.waitFor(
      () => h.slack.messages(APPROVALS, { threadTs: card.ts }).find((m) => m.user === h.slack.botUserId),
      5_000,
      'the note to the requester',
    );
    return { card: decided, notice };
  } finally {
    await control('DELETE', 'faults');
  }
}

describe('Retry is offered only where retrying can help', () => {
  it('a flow the service turns down (4xx) closes the request: no Retry, and what to do instead', async () => {
    const { card, notice } = await approvedThrough(400, 'turned-down');
    expect(seen(card)).toContain('Approved, but the service turned the flow down');
    expect(seen(card)).toContain('model is locked by a running evaluation');
    expect(seen(card)).toContain(`/tsai live stop ${M.temperatureCommon}`);
    expect(buttonsOf(card)).toEqual([]);
    expect(notice.text).toContain(`<@${ALICE}>`);
    expect(notice.text).toContain('file a new request');
  });

  it('a flow the service could not create for now (5xx) offers Retry', async () => {
    const { card } = await approvedThrough(503, 'gateway-down');
    expect(seen(card)).toContain('Approved, but the flow could not be created');
    expect(seen(card)).toContain('An approver may press Retry');
    expect(buttonsOf(card)).toEqual(['approval_retry']);
  });
});
