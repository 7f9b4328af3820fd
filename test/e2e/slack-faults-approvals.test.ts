import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REJECT_MODAL_CALLBACK } from '../../src/slack/approvals/card.js';
import { HOME_ACTION } from '../../src/slack/home/views.js';
import { openStore, type Store } from '../../src/store/index.js';
import { SEED } from '../../standins/emulator/index.js';
import type { LocalMessage, OpenView } from '../../standins/localslack/index.js';
import {
  APPROVALS,
  APPROVER,
  buttonsOf,
  CROWD,
  GROUP_APPROVER,
  REQUESTER,
  type Rig,
  startRig,
  textOf,
} from '../support/approvals-rig.js';
import { waitUntil } from '../support/patience.js';

/**
 * Slack failing or refusing around approvals and the App Home, through the real bot (startAll with its
 * worker, signed requests through a balancer, the local Slack's faults and channel states): a request
 * whose card the approvals channel does not take goes to the approvers directly and stays decidable and
 * expirable; a card that cannot be updated leaves the person who decided told; a Home Slack does not take
 * is published again. The store is read to show that nothing is left in limbo.
 */
const CAROL = 'U0CAROL';
const APPROVER_USERS = [APPROVER, CAROL, GROUP_APPROVER, ...CROWD];

let rig: Rig;
let store: Store;
beforeAll(async () => {
  rig = await startRig();
  await rig.startBot();
  store = await openStore(rig.databaseUrl);
});
afterAll(async () => {
  await store?.close();
  await rig?.close();
});
afterEach(() => {
  rig.slack.clearFaults();
  rig.slack.setTokenStatus('active');
  rig.slack.configureApp({ chatWritePublic: true });
  rig.slack.setChannelState(APPROVALS, { archived: false, botMember: true });
});

type Line = { msg: string; level: number } & Record<string, unknown>;
const lines = (from = 0): Line[] =>
  rig.logs
    .slice(from)
    .flatMap((chunk) => chunk.split('\n'))
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Line);
async function logged(msg: string, from: number, fields: Record<string, unknown> = {}): Promise<Line> {
  let found: Line | undefined;
  await waitUntil(
    () => {
      found = lines(from).find((l) => l.msg === msg && Object.entries(fields).every(([k, v]) => l[k] === v));
      if (!found) throw new Error(`no log line "${msg}"`);
    },
    { timeout: 10_000, interval: 50 },
  );
  return found!;
}

const botDms = (user: string) => rig.seen(user, `D${user}`).filter((m) => m.user === rig.slack.botUserId);
/** The copy of request `id`'s card in `user`'s direct messages. */
const copyFor = (user: string, id: string) =>
  rig.slack.waitFor(
    () => botDms(user).find((m) => textOf(m).includes(`Request \`${id}\``)),
    8_000,
    `${user}'s copy of ${id}`,
  );
const latest = (m: LocalMessage) => rig.slack.messages(m.channel).find((x) => x.ts === m.ts)!;
const dmTo = (user: string, re: RegExp) =>
  rig.slack.waitFor(
    () => botDms(user).find((m) => re.test(textOf(m))),
    8_000,
    `a DM to ${user} matching ${re}`,
  );
const approvalOf = async (id: string) => (await store.getApproval(id))!;
/** Files `/tsai <text>` as the requester: their note, and the new request's ID from the store. */
async function file(text: string): Promise<{ note: LocalMessage; id: string }> {
  const known = new Set((await store.listApprovals({ limit: 500 })).map((r) => r.id));
  const note = await rig.command(text);
  let id = '';
  await waitUntil(async () => {
    const fresh = (await store.listApprovals({ limit: 500 })).find((r) => !known.has(r.id));
    if (!fresh) throw new Error('no new request yet');
    id = fresh.id;
  });
  return { note, id };
}
const flowsFor = async (model: string, flowType: string) =>
  (await rig.liveFlows()).filter((f) => f.model === model && f.flowType === flowType);
/** Carol opens her Home, waits for the request there, and approves it from it. */
async function approveFromCarolsHome(id: string): Promise<void> {
  await rig.slack.openHome({ user: CAROL });
  const home = await rig.slack.waitFor(
    () => {
      const v = rig.slack.state.home.get(CAROL);
      return v && JSON.stringify(v.view.blocks).includes(`home_decide_${id}`) ? v : undefined;
    },
    8_000,
    "Carol's Home listing the request",
  );
  await rig.slack.sendViewAction({
    user: CAROL,
    viewId: home.id,
    blockId: `home_decide_${id}`,
    actionId: HOME_ACTION.approve,
  });
}

function clickIn(user: string, m: LocalMessage, actionId: string) {
  return rig.slack.clickButton({ user, channel: m.channel, messageTs: m.ts, actionId });
}

describe('an approval request the approvals channel does not take', () => {
  it('(the bot is not in it) goes to every approver by direct message; one approves there, the flow is created once, every copy and the requester are told', async () => {
    rig.slack.configureApp({ chatWritePublic: false });
    rig.slack.setChannelState(APPROVALS, { botMember: false });
    const from = rig.logs.length;
    const model = SEED.models.temperatureCommon;
    const { note, id } = await file(`live start ${model} reason="via DMs"`);
    expect(note.ephemeralTo).toBe(REQUESTER);
    expect(textOf(note)).toContain(`could not be posted in <#${APPROVALS}>`);
    expect(textOf(note)).toContain(`sent to the approvers directly (${APPROVER_USERS.length})`);
    expect(textOf(note)).toContain('it expires');
    await logged(
      'could not post the approval request in the approvals channel; sending it to the approvers directly',
      from,
    );
    // Still pending, decidable, with no message in the channel.
    expect(await approvalOf(id)).toMatchObject({ status: 'pending', messageTs: null });
    expect(rig.requestMessage(id)).toBeUndefined();

    const bobs = await copyFor(APPROVER, id);
    const carols = await copyFor(CAROL, id);
    expect(buttonsOf(bobs)).toEqual(['approval_approve', 'approval_reject']);
    expect(textOf(bobs)).toContain('Sent to you directly');
    expect(textOf(bobs)).toContain('invite it with `/invite @tsai`');
    expect(textOf(bobs)).not.toContain('not_in_channel');
    expect(botDms(REQUESTER).some((m) => textOf(m).includes(`Request \`${id}\``))).toBe(false);

    expect((await clickIn(APPROVER, bobs, 'approval_approve')).status).toBe(200);
    await waitUntil(async () => expect((await approvalOf(id)).status).toBe('executed'), { timeout: 8_000 });
    expect(await flowsFor(model, 'STARTLIVEMODEL')).toHaveLength(1);
    for (const copy of [bobs, carols])
      await rig.slack.waitFor(
        () => {
          const m = latest(copy);
          return /Approved and executed/.test(textOf(m)) && buttonsOf(m).length === 0 ? m : undefined;
        },
        8_000,
        'the copy updated',
      );
    // The requester, who has no thread to read, is told by direct message.
    expect(textOf(await dmTo(REQUESTER, /was approved/))).toContain(`<@${APPROVER}>`);
  });

  it('(archived) goes to the approvers; nobody decides, and it expires as any other: the copies and the requester say so', async () => {
    rig.slack.setChannelState(APPROVALS, { archived: true });
    const { note, id } = await file(`live stop ${SEED.models.pressureCommon}`);
    expect(textOf(note)).toContain('that channel is archived: unarchive it, or choose another channel');
    expect(textOf(note)).not.toContain('is_archived');
    const carols = await copyFor(CAROL, id);
    expect((await approvalOf(id)).status).toBe('pending');

    const r = await approvalOf(id);
    // The bots' clock moves past the request's expiry: the sweeper expires it.
    rig.clock.set(new Date(r.expiresAt + 60_000));
    await waitUntil(async () => expect((await approvalOf(id)).status).toBe('expired'), { timeout: 8_000 });
    await rig.slack.waitFor(
      () => (/Expired/.test(textOf(latest(carols))) ? true : undefined),
      8_000,
      'the copy expired',
    );
    expect(buttonsOf(latest(carols))).toEqual([]);
    await dmTo(REQUESTER, /expired before anyone decided/);
  });

  it('(and no approver can be reached either: the token refused) tells the requester through the response_url; once the token works, an approver decides it in the Home tab', async () => {
    rig.slack.setTokenStatus('revoked');
    const model = SEED.models.pressureCommon;
    const { note, id } = await file(`live start ${model}`);
    expect(note.via).toBe('response_url');
    expect(textOf(note)).toContain('no approver could be sent it');
    expect(textOf(note)).toContain(
      "Slack refuses the bot's token (the app was removed or its token revoked): tell your Slack admins",
    );
    expect(textOf(note)).not.toContain('token_revoked');
    expect(textOf(note)).toContain("decide it in the bot's Home tab");
    expect(await approvalOf(id)).toMatchObject({ status: 'pending', messageTs: null });

    rig.slack.setTokenStatus('active');
    await approveFromCarolsHome(id);
    await waitUntil(async () => expect((await approvalOf(id)).status).toBe('executed'), { timeout: 8_000 });
    expect(await flowsFor(model, 'STARTLIVEMODEL')).toHaveLength(1);
    await dmTo(REQUESTER, new RegExp(`start live model \`${model}\`[^]*was approved by <@${CAROL}>`));
  });

  it('(channel_not_found, or Slack failing past its retry) says why in the copies and the note', async () => {
    for (const fault of [{ error: 'channel_not_found' }, { status: 502 }]) {
      rig.slack.injectFault({ method: 'chat.postMessage', channel: APPROVALS, times: 'always', ...fault });
      const { note, id } = await file(`live stop ${SEED.models.temperatureCommon}`);
      const why = fault.error
        ? 'Slack does not show the bot that channel (a private channel it was not invited to, or a wrong channel setting): invite it with `/invite @tsai`'
        : 'Slack did not answer';
      expect(textOf(note)).toContain(why);
      expect(textOf(note)).not.toContain('channel_not_found');
      expect(textOf(await copyFor(APPROVER, id))).toContain(why);
      expect((await approvalOf(id)).status).toBe('pending');
      rig.slack.clearFaults();
    }
  });

  it('(refused for its blocks) is posted there plain, saying where to decide; a decision in the Home tab still updates it', async () => {
    rig.slack.injectFault({ method: 'chat.postMessage', channel: APPROVALS, error: 'invalid_blocks' });
    const { id } = await file(`live start ${SEED.models.temperatureAnomaly} reason="plain card"`);
    const card = await rig.slack.waitFor(
      () =>
        rig.slack
          .messages(APPROVALS)
          .find(
            (m) => m.user === rig.slack.botUserId && !m.threadTs && textOf(m).includes(`Request \`${id}\``),
          ),
      8_000,
      'the plain card',
    );
    expect(buttonsOf(card)).toEqual([]);
    expect(textOf(card)).toContain('Approve or Reject it in the bot’s Home tab');
    expect((await approvalOf(id)).messageTs).toBe(card.ts);
    await approveFromCarolsHome(id);
    await rig.slack.waitFor(
      () => (/Approved and executed/.test(textOf(latest(card))) ? true : undefined),
      8_000,
      'the card updated',
    );
  });

  it('(a 429 with a short Retry-After) is posted there after the wait, and nobody is sent a copy', async () => {
    rig.slack.injectFault({ method: 'chat.postMessage', channel: APPROVALS, status: 429, retryAfter: 1 });
    const dmsBefore = botDms(APPROVER).length;
    const { note, id } = await file(`live stop ${SEED.models.temperatureCommon}`);
    expect(textOf(note)).toContain('waiting for approval');
    expect(rig.requestMessage(id)).toBeDefined();
    expect((await approvalOf(id)).messageTs).not.toBeNull();
    expect(botDms(APPROVER)).toHaveLength(dmsBefore);
  });
});

describe("a request's card that cannot be updated on a decision", () => {
  it('(429, then Slack failing) is updated once Slack takes it; meanwhile the approver is told the outcome privately', async () => {
    const model = SEED.models.temperatureAnomaly;
    const { id } = await file(`live start ${model}`);
    const card = rig.requestMessage(id)!;
    rig.slack.injectFault({
      method: 'chat.update',
      channel: APPROVALS,
      status: 429,
      retryAfter: 1,
      times: 2,
    });
    rig.slack.injectFault({ method: 'chat.update', channel: APPROVALS, status: 503, times: 2 });
    const from = rig.logs.length;
    await rig.click(APPROVER, card, 'approve');
    await waitUntil(async () => expect((await approvalOf(id)).status).toBe('executed'), { timeout: 8_000 });
    const told = await rig.slack.waitFor(
      () =>
        rig
          .seen(APPROVER, APPROVALS)
          .find((m) => m.ephemeralTo === APPROVER && /card could not be updated/.test(textOf(m))),
      8_000,
      'the approver told privately',
    );
    expect(textOf(told)).toContain('Approved and executed');
    await logged('could not update the request message; trying again later', from, { requestId: id });
    await rig.slack.waitFor(
      () => (/Approved and executed/.test(textOf(latest(card))) ? true : undefined),
      20_000,
      'the card updated after the wait',
    );
    expect(buttonsOf(latest(card))).toEqual([]);
    // The requester is told in the thread as usual.
    await rig.slack.waitFor(
      () =>
        rig
          .seen(REQUESTER, APPROVALS, card.ts)
          .find((m) => m.threadTs === card.ts && /approved/.test(m.text)),
      5_000,
    );
  }, 40_000);

  it('(the bot removed from the channel after posting) stays as it was: the approver is told the outcome privately, the requester by direct message', async () => {
    const model = SEED.models.temperatureAnomaly;
    const { id } = await file(`live stop ${model}`);
    const card = rig.requestMessage(id)!;
    for (const method of ['chat.update', 'chat.postMessage'])
      rig.slack.injectFault({ method, channel: APPROVALS, error: 'not_in_channel', times: 'always' });
    await rig.click(CAROL, card, 'approve');
    await waitUntil(async () => expect((await approvalOf(id)).status).toBe('executed'), { timeout: 8_000 });
    const told = await rig.slack.waitFor(
      () =>
        rig
          .seen(CAROL, APPROVALS)
          .find((m) => m.ephemeralTo === CAROL && /card could not be updated/.test(textOf(m))),
      8_000,
      'the approver told privately',
    );
    expect(textOf(told)).toContain(id);
    expect(buttonsOf(latest(card))).toEqual(['approval_approve', 'approval_reject']);
    await dmTo(REQUESTER, new RegExp(`stop live model \`${model}\`[^]*was approved by <@${CAROL}>`));
    // A later click on the stale card changes nothing and says who decided.
    rig.slack.clearFaults();
    await rig.click(APPROVER, card, 'approve');
    await rig.slack.waitFor(
      () =>
        rig
          .seen(APPROVER, APPROVALS)
          .find((m) => m.ephemeralTo === APPROVER && /already approved by/.test(textOf(m))),
      8_000,
    );
    expect(await flowsFor(model, 'STOPLIVEMODEL')).toHaveLength(1);
  });

  it('Reject whose reason form Slack does not open (expired_trigger_id): nothing is decided, the approver is told to click again, and that works', async () => {
    const { id } = await file(`live stop ${SEED.models.pressureCommon} reason="to be rejected"`);
    const card = rig.requestMessage(id)!;
    rig.slack.injectFault({ method: 'views.open', error: 'expired_trigger_id' });
    await rig.click(APPROVER, card, 'reject');
    const told = await rig.slack.waitFor(
      () =>
        rig
          .seen(APPROVER, APPROVALS)
          .find((m) => m.ephemeralTo === APPROVER && /did not open/.test(textOf(m))),
      8_000,
    );
    expect(textOf(told)).toContain('Click Reject again');
    expect((await approvalOf(id)).status).toBe('pending');
    await rig.click(APPROVER, card, 'reject');
    await rig.slack.waitFor(
      () => (rig.slack.topView(APPROVER)?.view.callback_id === REJECT_MODAL_CALLBACK ? true : undefined),
      8_000,
    );
    await rig.slack.closeView({ user: APPROVER, viewId: rig.slack.topView(APPROVER)!.id });
  });
});

describe('the App Home when Slack does not take it', () => {
  const homeOf = (user: string) => rig.slack.state.home.get(user);
  async function published(user: string, after: string | undefined, timeout = 8_000): Promise<OpenView> {
    return rig.slack.waitFor(
      () => {
        const v = homeOf(user);
        return v && v.hash !== after ? v : undefined;
      },
      timeout,
      `${user}'s Home published`,
    );
  }

  it("a 429 on one person's Home holds only theirs: another's is published meanwhile, and theirs after the wait", async () => {
    rig.slack.injectFault({ method: 'views.publish', user: APPROVER, status: 429, retryAfter: 3 });
    const from = rig.logs.length;
    const bobBefore = homeOf(APPROVER)?.hash;
    const carolBefore = homeOf(CAROL)?.hash;
    await rig.slack.openHome({ user: APPROVER });
    await rig.slack.openHome({ user: CAROL });
    await published(CAROL, carolBefore);
    await logged('a Home was not published; publishing it again later', from, { user: APPROVER });
    expect(homeOf(APPROVER)?.hash).toBe(bobBefore);
    await published(APPROVER, bobBefore, 15_000);
  }, 30_000);

  it('Slack failing (5xx) is tried again; a Home Slack refuses (invalid_blocks) is replaced by the short one; with the token refused, the next visit publishes it', async () => {
    // Two calls: the Web API client's own retry fails too, so the publisher tries again later.
    rig.slack.injectFault({ method: 'views.publish', user: CAROL, status: 503, times: 2 });
    let before = homeOf(CAROL)?.hash;
    await rig.slack.openHome({ user: CAROL });
    const again = await published(CAROL, before, 15_000);
    expect(JSON.stringify(again.view.blocks)).toContain('What waits for you');

    rig.slack.injectFault({ method: 'views.publish', user: CAROL, error: 'invalid_blocks' });
    before = again.hash;
    const from = rig.logs.length;
    await rig.slack.openHome({ user: CAROL });
    const short = await published(CAROL, before);
    expect(JSON.stringify(short.view.blocks)).toContain('could not be shown in full');
    expect(JSON.stringify(short.view.blocks)).toContain('/tsai approvals');
    await logged('Slack refused a Home; publishing the short one instead', from, { user: CAROL });

    rig.slack.setTokenStatus('revoked');
    before = short.hash;
    await rig.slack.openHome({ user: CAROL });
    await logged('could not publish a Home', from, { user: CAROL });
    expect(homeOf(CAROL)?.hash).toBe(before);
    rig.slack.setTokenStatus('active');
    await rig.slack.openHome({ user: CAROL });
    expect(JSON.stringify((await published(CAROL, before)).view.blocks)).toContain('What waits for you');
  }, 40_000);
});
