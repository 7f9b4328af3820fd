import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  REJECT_MODAL_CALLBACK,
  REJECT_REASON_ACTION,
  REJECT_REASON_BLOCK,
} from '../../src/slack/approvals/card.js';
import { HOME_ACTION } from '../../src/slack/home/views.js';
import { checkBlockKitLimits } from '../../src/wire/block-kit.js';
import { SEED } from '../../standins/emulator/index.js';
import type { OpenView } from '../../standins/localslack/index.js';
import {
  APPROVALS,
  APPROVER,
  OPS,
  REQUESTER,
  type Rig,
  requestIdOf,
  startRig,
  textOf,
} from '../support/approvals-rig.js';

/**
 * The App Home through the real bot (startAll, follow-up worker, SQLite), the local Slack and the
 * emulator: published when opened and again when something of the viewer's changes; Approve and Reject
 * there go through the card's code, exactly once.
 */
const CAROL = 'U0CAROL';
const HOUR = 3_600_000;

let rig: Rig;
beforeAll(async () => {
  rig = await startRig({ env: { TSAI_TRACK_FIRST_POLL: '100ms', TSAI_TRACK_MAX_INTERVAL: '300ms' } });
  await rig.startBot();
});
afterAll(async () => {
  await rig?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: tests read Block Kit JSON by path
type Block = Record<string, any>;

/** Every text of a Home view, joined: what the person reads. */
function viewText(v: OpenView | undefined): string {
  if (!v) return '';
  const out: string[] = [];
  const walk = (x: unknown) => {
    if (Array.isArray(x)) x.forEach(walk);
    else if (x && typeof x === 'object') {
      const o = x as Record<string, unknown>;
      if (typeof o.text === 'string') out.push(o.text);
      Object.values(o).forEach(walk);
    }
  };
  walk(v.view.blocks);
  return out.join('\n');
}

const homeOf = (user: string) => rig.slack.state.home.get(user);

/** An Approve click signed as Slack signs it, from `user`'s own Home, whether or not it shows that button. */
const approveClickSentBy = (user: string, username: string, blockId: string, value: string) => {
  const home = homeOf(user)!;
  return rig.slack.signedPost(
    '/slack/events',
    new URLSearchParams({
      payload: JSON.stringify({
        type: 'block_actions',
        user: { id: user, username, team_id: rig.slack.teamId },
        team: { id: rig.slack.teamId },
        api_app_id: rig.slack.appId,
        trigger_id: rig.slack.state.issueTrigger(user),
        container: { type: 'view', view_id: home.id },
        view: { id: home.id, type: 'home', hash: home.hash },
        actions: [{ type: 'button', action_id: HOME_ACTION.approve, block_id: blockId, value }],
      }),
    }).toString(),
  );
};

/** `user`'s Home once what it shows passes `test`. */
function homeWhen(
  user: string,
  test: (text: string, v: OpenView) => boolean,
  label: string,
): Promise<OpenView> {
  return rig.slack.waitFor(
    () => {
      const v = homeOf(user);
      return v && test(viewText(v), v) ? v : undefined;
    },
    8000,
    `${user}'s Home: ${label}`,
  );
}

/** `user` opens the Home tab and sees it as the bot publishes it for this visit. */
async function openHome(user: string): Promise<OpenView> {
  const before = homeOf(user)?.hash;
  const d = await rig.slack.openHome({ user });
  expect(d.status).toBe(200);
  return homeWhen(user, (_t, v) => v.hash !== before, 'published on open');
}

/** Files `live start|stop …` as `user` and returns the request's ID. */
async function file(text: string, user = REQUESTER): Promise<string> {
  const before = rig.requestMessage()?.ts;
  await rig.command(text, { user });
  const m = await rig.slack.waitFor(
    () => {
      const x = rig.requestMessage();
      return x && x.ts !== before ? x : undefined;
    },
    5000,
    'the request card',
  );
  return requestIdOf(m);
}

function homeClick(user: string, requestId: string, action: keyof typeof HOME_ACTION) {
  const v = homeOf(user)!;
  return rig.slack.sendViewAction({
    user,
    viewId: v.id,
    blockId: `home_decide_${requestId}`,
    actionId: HOME_ACTION[action],
  });
}

const cardOf = (requestId: string) => rig.requestMessage(requestId)!;
const dmTo = (user: string, re: RegExp) =>
  rig.slack.waitFor(
    () => rig.seen(user, `D${user}`).find((m) => re.test(textOf(m))),
    5000,
    `a direct message to ${user} matching ${re}`,
  );
const flowsFor = async (model: string) => (await rig.liveFlows()).filter((f) => f.model === model);

describe('the App Home', () => {
  it('is published when opened, within Block Kit limits; only approvers see what waits for approval', async () => {
    const alice = await openHome(REQUESTER);
    expect(checkBlockKitLimits(alice.view, 'home')).toEqual([]);
    expect(alice.view.type).toBe('home');
    expect(viewText(alice)).toContain('Your pending requests (0)');
    expect(viewText(alice)).toContain('Your flows, last 7 days');
    expect(viewText(alice)).not.toContain('Waiting for your approval');
    const bob = await openHome(APPROVER);
    expect(viewText(bob)).toContain('Waiting for your approval (0)');
  });

  it('lists a filed request for the approvers with Approve and Reject, and for its requester; Approve there executes it once', async () => {
    const model = SEED.models.pressureCommon;
    const id = await file(`live start ${model} reason="night shift"`);
    const bob = await homeWhen(APPROVER, (t) => t.includes(id), 'the request waits');
    expect(viewText(bob)).toContain('Waiting for your approval (1)');
    expect(viewText(bob)).toContain('night shift');
    const buttons = (bob.view.blocks as Block[]).find((b) => b.block_id === `home_decide_${id}`)?.elements;
    expect(buttons.map((e: Block) => [e.text.text, e.action_id, e.value])).toEqual([
      ['Approve', HOME_ACTION.approve, id],
      ['Reject', HOME_ACTION.reject, id],
    ]);
    await homeWhen(
      REQUESTER,
      (t) => t.includes('Your pending requests (1)') && t.includes(model),
      'her request',
    );

    expect((await homeClick(APPROVER, id, 'approve')).status).toBe(200);
    // The card is updated as when its own button is clicked; the requester is told in its thread.
    await rig.slack.waitFor(() => /Approved and executed/.test(textOf(cardOf(id))), 5000, 'the card');
    expect(await flowsFor(model)).toHaveLength(1);
    // No response_url in a Home click: the approver is told by direct message.
    await dmTo(APPROVER, new RegExp(`request \`${id}\`.*Approved and executed`, 's'));
    await homeWhen(APPROVER, (t) => !t.includes(id), 'the request gone');
    await homeWhen(REQUESTER, (t) => t.includes('Your pending requests (0)'), 'her request decided');
  });

  it('raced against the card, Approve executes once: the first decision wins wherever it was clicked', async () => {
    const model = SEED.models.temperatureAnomaly;
    const id = await file(`live stop ${model}`);
    await homeWhen(APPROVER, (t) => t.includes(id), 'the request waits');
    const card = cardOf(id);
    const [fromHome, fromCard] = await Promise.all([
      homeClick(APPROVER, id, 'approve'),
      rig.click(CAROL, card, 'approve'),
    ]);
    expect([fromHome.status, fromCard.status]).toEqual([200, 200]);
    // "Approved, creating the flow…" comes first; the card's last word is the execution's.
    await rig.slack.waitFor(
      () => /Approved and executed/.test(textOf(cardOf(id))),
      8000,
      'the card executed',
    );
    await rig.slack.waitFor(
      () =>
        rig.seen(CAROL, APPROVALS).some((m) => /already approved/.test(textOf(m))) ||
        rig
          .seen(APPROVER, `D${APPROVER}`)
          .some((m) => /already approved/.test(textOf(m)) && textOf(m).includes('')),
      5000,
      'the loser told',
    );
    const flows = await rig.liveFlows();
    expect(flows.filter((f) => f.model === model && f.flowType === 'STOPLIVEMODEL')).toHaveLength(1);
  });

  it("applies the card's rules: one's own request is not offered, others are refused, Reject asks for a reason", async () => {
    const model = SEED.models.temperatureCommon;
    const id = await file(`live stop ${model} reason="bob's own"`, APPROVER);
    const bob = await homeWhen(APPROVER, (t) => t.includes(id), 'his own request');
    expect(viewText(bob)).toMatch(/Waiting for your approval \(0\)/);
    expect(viewText(bob)).toContain('Your pending requests (1)');

    // Alice is no approver and has no button; a forged click is refused like one on the card.
    const forged = await approveClickSentBy(REQUESTER, 'alice', `home_decide_${id}`, id);
    expect(forged.status).toBe(200);
    await dmTo(REQUESTER, /You are not an approver/);

    // Carol rejects from her Home: the card's reason form opens, and the rejection lands on the card.
    await openHome(CAROL);
    await homeWhen(CAROL, (t) => t.includes(id), 'the request waits for carol');
    const click = await homeClick(CAROL, id, 'reject');
    const form = await rig.slack.waitFor(
      () => {
        const v = rig.slack.topView(CAROL);
        return v?.view.callback_id === REJECT_MODAL_CALLBACK ? v : undefined;
      },
      5000,
      'the reason form',
    );
    expect(click.triggerId).toBeDefined();
    const submitted = await rig.slack.submitView({
      user: CAROL,
      viewId: form.id,
      values: { [REJECT_REASON_BLOCK]: { [REJECT_REASON_ACTION]: 'not during the audit' } },
    });
    expect(submitted.status).toBe(200);
    await rig.slack.waitFor(() => /Rejected/.test(textOf(cardOf(id))), 5000, 'the card rejected');
    expect(textOf(cardOf(id))).toContain('not during the audit');
    await homeWhen(APPROVER, (t) => t.includes('Your pending requests (0)'), 'his request decided');
    await homeWhen(CAROL, (t) => !t.includes(id), 'off her list');
    expect(await flowsFor(model)).toHaveLength(0);
  });

  it('lists the flows its viewer started, with their status as followed and, once finished, their model', async () => {
    const reply = await rig.command(
      `learn workspace=${SEED.workspaces.pumpStation} signals=${SEED.signals.temperature}:temperature range="2026-11-20 to 2026-11-21"`,
      { user: REQUESTER, channel: OPS },
    );
    const flowId = /\*Flow ID\*\\n`(\d+)`/.exec(JSON.stringify(reply.blocks))![1]!;
    const finished = await fetch(`${rig.emulator.url}/_emulator/flows/${flowId}/finish`, { method: 'POST' });
    expect(finished.status).toBe(200);
    const alice = await homeWhen(
      REQUESTER,
      (t) => t.includes(flowId) && t.includes('COMPLETED'),
      'the finished flow',
    );
    const text = viewText(alice);
    expect(text).toContain('ANOMALYLEARN');
    expect(text).toMatch(/Model created\*\n.*`14\d{17}`/);
    // The channel she used, with its defaults (none yet).
    expect(text).toContain(`<#${OPS}>: _no defaults_`);
    expect(checkBlockKitLimits(alice.view, 'home')).toEqual([]);
  });

  it("another team's Home shows none of it", async () => {
    const id = await file(`live start ${SEED.models.pressureCommon} reason="for T0LOCAL only"`);
    await homeWhen(CAROL, (t) => t.includes(id), 'the request waits for carol');
    const envelope = {
      token: 'local-verification-token',
      team_id: 'T0OTHER',
      api_app_id: rig.slack.appId,
      type: 'event_callback',
      event_id: 'Ev0OTHERTEAM',
      event_time: Math.floor(Date.now() / 1000),
      event: {
        type: 'app_home_opened',
        user: CAROL,
        channel: `D${CAROL}`,
        tab: 'home',
        event_ts: '1.000001',
      },
    };
    const d = await rig.slack.signedPost('/slack/events', JSON.stringify(envelope), {
      contentType: 'application/json',
    });
    expect(d.status).toBe(200);
    const other = await homeWhen(CAROL, (t) => !t.includes(id), 'the other team’s Home');
    const text = viewText(other);
    expect(text).toContain('Waiting for your approval (0)');
    expect(text).toContain('Your flows, last 7 days (0)');
    expect(text).not.toContain(`<#${OPS}>`);
    await homeWhen(CAROL, (t) => !t.includes('for T0LOCAL only'), 'no trace of it');
    // Back in her own team, it is there again.
    await rig.slack.openHome({ user: CAROL });
    await homeWhen(CAROL, (t) => t.includes(id), 'her own team again');
  });

  it('a Home someone published meanwhile (hash_conflict) is built again and published', async () => {
    rig.slack.injectFault({ method: 'views.publish', error: 'hash_conflict' });
    const before = homeOf(APPROVER)!.hash;
    await rig.slack.openHome({ user: APPROVER });
    await homeWhen(APPROVER, (_t, v) => v.hash !== before, 'published after the conflict');
    const publishes = rig.slack.calls.filter(
      (c) => c.method === 'views.publish' && c.args.user_id === APPROVER,
    );
    expect(publishes.at(-2)?.response.error).toBe('hash_conflict');
    expect(publishes.at(-1)?.response.ok).toBe(true);
  });

  it('a click on a request nobody knows changes nothing and says so', async () => {
    const d = await approveClickSentBy(APPROVER, 'bob', 'home_decide_x', 'no-such');
    expect(d.status).toBe(200);
    await dmTo(APPROVER, /not known to this bot/);
  });

  it('takes an expired request off the Homes', async () => {
    const id = await file(`live start ${SEED.models.pressureCommon} reason="expires"`);
    await homeWhen(APPROVER, (t) => t.includes(id), 'the request waits');
    rig.clock.advance(5 * HOUR);
    await rig.slack.waitFor(() => /Expired/.test(textOf(cardOf(id))), 5000, 'the card expired');
    await homeWhen(APPROVER, (t) => !t.includes(id), 'the expired request gone');
    await homeWhen(REQUESTER, (t) => !t.includes('"expires"') && !t.includes(id), 'hers gone');
  });
});
