import { describe, expect, it } from 'vitest';
import { SEED } from '../../standins/emulator/index.js';
import type { LocalMessage } from '../../standins/localslack/index.js';
import { buttonsOf, textOf } from '../support/approvals-rig.js';
import { emulatorControl, eventually } from '../support/emulator.js';
import { stackForThisSuite } from '../support/fixtures/stack.js';
import type { Harness } from '../support/harness.js';

const W = SEED.workspaces.pumpStation;
const OTHER_W = SEED.workspaces.sandbox;
const T = SEED.signals.temperature;
const OPS = 'C0OPS';
const RANGE = 'range="2026-11-20 08:00 to 2026-11-20 20:00"';

let h: Harness;
stackForThisSuite(
  (x) => {
    h = x;
  },
  {
    // Bob and Carol approve for the bot; Carol alone for the pump station's workspace.
    env: {
      TSAI_APPROVERS: 'U0BOB,U0CAROL',
      TSAI_WORKSPACE_APPROVERS: `${W}=U0CAROL`,
      TSAI_TRACK_FIRST_POLL: '100ms',
      TSAI_TRACK_MAX_INTERVAL: '400ms',
    },
    flowDelays: { runningAfterMs: 100, completedAfterMs: 400 },
  },
);

/** `/tsai <text>` from `user`, and the bot's next reply that user sees. */
async function ask(text: string, user = 'U0ALICE'): Promise<string> {
  const before = new Set(h.slack.messages(OPS, { user }).map((m) => m.ts));
  const d = await h.slack.sendCommand({ user, channel: OPS, text });
  expect(d.status).toBe(200);
  const reply = await h.slack.waitFor(
    () =>
      h.slack
        .messages(OPS, { user })
        .find((m) => !before.has(m.ts) && m.kind !== 'command' && m.user !== user),
    10_000,
    `a reply to /tsai ${text}`,
  );
  return textOf(reply);
}

/** The newest request card about `model`. */
function card(model: string): Promise<LocalMessage> {
  return h.slack.waitFor(
    () =>
      h.slack
        .messages(OPS)
        .filter((m) => buttonsOf(m).includes('approval_approve') && textOf(m).includes(model))
        .at(-1),
    10_000,
    `the request card of ${model}`,
  );
}

/** The flow the bot followed for the newest command whose flow name is `name`, once it has ended. */
async function ended(name: string): Promise<{ flowId: string; model?: string; dataspec?: string }> {
  const control = emulatorControl(h.emulator.url);
  const flowId = await eventually(async () => {
    const state = (await control('GET', 'state')) as { flows: { id: string; name?: string }[] };
    return state.flows.find((f) => f.name === name)?.id;
  });
  await eventually(
    async () =>
      (await h.store.getTrackedFlow({ teamId: 'T0LOCAL', flowId: flowId }))?.endReason === 'ended'
        ? true
        : undefined,
    30_000,
  );
  const state = (await control('GET', 'state')) as {
    flows: { id: string; outputs?: { type: string; id: string }[] }[];
  };
  const outputs = state.flows.find((f) => f.id === flowId)?.outputs ?? [];
  return {
    flowId,
    model: outputs.find((o) => o.type === 'entities.model')?.id,
    dataspec: outputs.find((o) => o.type === 'entities.dataspec')?.id,
  };
}

async function click(user: string, m: LocalMessage): Promise<void> {
  await h.slack.clickButton({ user, channel: OPS, messageTs: m.ts, actionId: 'approval_approve' });
}

async function refusedTo(user: string, pattern: RegExp): Promise<string> {
  const told = await h.slack.waitFor(
    () => h.slack.messages(OPS, { user }).find((m) => pattern.test(textOf(m))),
    10_000,
    `the refusal told to ${user}`,
  );
  return textOf(told);
}

const liveFlowsPosted = async () =>
  (await h.serviceRequests()).filter(
    (r) => r.method === 'POST' && r.path.endsWith('/flows') && /LIVEMODEL/.test(JSON.stringify(r.body ?? '')),
  );

describe("who approves follows the service's word, never the request's", () => {
  it('a relearn naming another workspace does not move the model away from its approvers', async () => {
    // A model the service created in the pump station's workspace.
    await ask(`learn workspace=${W} signals=${T}:temperature ${RANGE} name=routing-base`);
    const base = await ended('routing-base');
    const model = base.model!;
    const team = h.slack.teamId;
    expect(
      (await eventually(async () => (await h.store.getCatalogEntry(team, 'model', model)) ?? undefined))
        .workspaceId,
    ).toBe(W);

    // Someone claims the model is in the other workspace, whose live starts the bot's approvers decide.
    await ask(`relearn ${model} workspace=${OTHER_W} dataspec=${base.dataspec} name=routing-claim`);
    await ended('routing-claim');
    expect((await h.store.getCatalogEntry(team, 'model', model))?.workspaceId).toBe(W);

    await h.clearServiceRequests();
    await ask(`live start ${model} reason="routing"`);
    const request = await card(model);
    expect(textOf(request)).toContain(`approvers for workspace ${W}`);
    // Bob approves for the bot, not for the model's workspace: he cannot start it.
    await click('U0BOB', request);
    expect(await refusedTo('U0BOB', /not one of the approvers/)).toContain('<@U0CAROL>');
    expect(await liveFlowsPosted()).toEqual([]);
  });

  it('a model the bot has never seen is flagged to the requester and on the card, and the strictest rule decides', async () => {
    const unseen = '1079999999999999999';
    const told = await ask(`live start ${unseen} reason="unknown model"`);
    expect(told).toContain(`The bot has never seen model ${unseen}`);
    expect(told).toContain('it looked in');
    expect(told).toContain('Approvers can check');
    const request = await card(unseen);
    expect(textOf(request)).toContain(`The bot has never seen model ${unseen}`);
    expect(textOf(request)).toContain('Approvers can check');
    expect(textOf(request)).toContain('every workspace with approvers of its own');

    await h.clearServiceRequests();
    // Bob approves for the bot only; a model that could be in the pump station's workspace is not his to start.
    await click('U0BOB', request);
    expect(await refusedTo('U0BOB', /does not know which workspace holds/)).toContain('<@U0CAROL>');
    expect(await liveFlowsPosted()).toEqual([]);
    // Carol approves under every rule: her decision is taken.
    await click('U0CAROL', request);
    await h.slack.waitFor(() => {
      const m = h.slack.messages(OPS).find((x) => x.ts === request.ts);
      return m && !/Waiting for approval/.test(textOf(m)) ? m : undefined;
    }, 10_000);
  });
});
