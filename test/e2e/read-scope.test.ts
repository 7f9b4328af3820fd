import { describe, expect, it } from 'vitest';
import { SEED } from '../../standins/emulator/index.js';
import type { LocalMessage } from '../../standins/localslack/index.js';
import { buttonsOf, textOf } from '../support/approvals-rig.js';
import { stackForThisSuite } from '../support/fixtures/stack.js';
import type { Harness } from '../support/harness.js';

const W = SEED.workspaces.pumpStation;
const OTHER_TEAM = 'T0OTHER';

let h: Harness;
stackForThisSuite(
  (x) => {
    h = x;
  },
  // Bob approves for the bot; Carol alone for the pump station's workspace.
  { env: { TSAI_APPROVERS: 'U0BOB', TSAI_WORKSPACE_APPROVERS: `${W}=U0CAROL` } },
);

/** `/tsai <text>` from `user`, in the local team or another one, and the bot's next reply that user sees. */
async function ask(text: string, user = 'U0ALICE', teamId?: string): Promise<string> {
  const channel = 'C0OPS';
  const before = new Set(h.slack.messages(channel, { user }).map((m) => m.ts));
  const d = await h.slack.sendCommand({ user, channel, text, ...(teamId ? { teamId } : {}) });
  expect(d.status).toBe(200);
  const reply = await h.slack.waitFor(
    () =>
      h.slack
        .messages(channel, { user })
        .find((m) => !before.has(m.ts) && m.kind !== 'command' && m.user !== user),
    5_000,
    `a reply to /tsai ${text}`,
  );
  return textOf(reply);
}

/** The newest request card about `model`. */
async function card(model: string): Promise<LocalMessage> {
  return h.slack.waitFor(
    () =>
      h.slack
        .messages('C0OPS')
        .filter((m) => buttonsOf(m).includes('approval_approve') && textOf(m).includes(model))
        .at(-1),
    5_000,
    `the request card of ${model}`,
  );
}

describe('flows are shown only within the Slack workspace that started them', () => {
  it("answers another team's flow as it answers an ID nobody knows, and lists it only at home", async () => {
    await ask(
      `learn workspace=${W} signals=${SEED.signals.temperature} range="2026-11-20 08:00 to 2026-11-20 20:00"`,
    );
    const [flow] = await h.store.listTrackedFlows({ limit: 1 });
    if (!flow) throw new Error('no followed flow');
    expect(await ask(`flow ${flow.flowId}`)).toContain(flow.flowId);
    expect(await ask(`flow ${flow.flowId}`)).not.toContain('There is no flow');

    await h.clearServiceRequests();
    const foreign = await ask(`flow ${flow.flowId}`, 'U0ALICE', OTHER_TEAM);
    const unknown = await ask('flow 1999999999999999999', 'U0ALICE', OTHER_TEAM);
    expect(foreign).toContain(`There is no flow ${flow.flowId} to show here`);
    expect(foreign.replaceAll(flow.flowId, 'ID')).toBe(unknown.replaceAll('1999999999999999999', 'ID'));
    expect(foreign).not.toContain('ANOMALYLEARN');
    // The other team's question never reached the service for the foreign flow.
    const reads = (await h.serviceRequests()).filter((r) => r.path.includes(flow.flowId));
    expect(reads).toEqual([]);

    expect(await ask('flows')).toContain(flow.flowId);
    expect(await ask('flows', 'U0ALICE', OTHER_TEAM)).not.toContain(flow.flowId);
  });
});

describe('pending requests are shown to their requester and to whoever decides them', () => {
  it('lists a request to its requester and the approvers, and to nobody else', async () => {
    // The service moves the model to a workspace without approvers of its own: the bot's approvers decide.
    await ask(`model move ${SEED.models.pressureCommon} to ${SEED.workspaces.sandbox}`, 'U0CAROL');
    await ask(`live start ${SEED.models.pressureCommon} reason="scope test"`, 'U0CAROL');
    await card(SEED.models.pressureCommon);
    // Carol's own notice of her request may come after its card: the next reply must not be taken for it.
    await h.slack.waitFor(
      () =>
        h.slack
          .messages('C0OPS', { user: 'U0CAROL' })
          .find((m) => m.user !== 'U0CAROL' && m.text.includes('is waiting for approval')),
      5_000,
      "Carol's notice of her request",
    );
    const requester = await ask('approvals', 'U0CAROL');
    expect(requester).toContain('that you filed or may decide');
    expect(requester).toContain(SEED.models.pressureCommon);
    expect(await ask('approvals', 'U0BOB')).toContain(SEED.models.pressureCommon);
    const alice = await ask('approvals', 'U0ALICE');
    expect(alice).not.toContain(SEED.models.pressureCommon);
    expect(alice).toContain("Only the bot's approvers see everyone's requests");
    // Another Slack workspace's approver does not see this team's requests.
    expect(await ask('approvals', 'U0BOB', OTHER_TEAM)).not.toContain(SEED.models.pressureCommon);
  });

  it('keeps the audit log for the bot’s approvers and says so to anyone else', async () => {
    const refused = await ask('audit', 'U0ALICE');
    expect(refused).toContain('Only approvers can read the audit log');
    expect(refused).toContain('<@U0BOB>');
    expect(await ask('audit', 'U0BOB')).toMatch(/^Audit log: \d+ entries/);
  });
});

describe('approvers per service workspace', () => {
  it('a request on a model of a workspace with its own approvers is decided by them, and its card says so', async () => {
    await ask(`workspace show ${W}`);
    // Its common model is live, so stopping it is what can be asked.
    await ask(`live stop assessment=${SEED.assessments.temperature} reason="workspace rule"`);
    const request = await card(SEED.models.temperatureCommon);
    expect(textOf(request)).toContain('approvers for workspace "Pump station A"');

    // Bob approves for the bot, not for this workspace.
    await h.slack.clickButton({
      user: 'U0BOB',
      channel: 'C0OPS',
      messageTs: request.ts,
      actionId: 'approval_approve',
    });
    const told = await h.slack.waitFor(
      () =>
        h.slack.messages('C0OPS', { user: 'U0BOB' }).find((m) => /not one of the approvers/.test(textOf(m))),
      5_000,
      'the refusal told to Bob',
    );
    expect(textOf(told)).toContain('<@U0CAROL>');
    expect(await h.serviceRequests()).not.toContainEqual(
      expect.objectContaining({ method: 'POST', path: expect.stringContaining('/flows') }),
    );

    await h.slack.clickButton({
      user: 'U0CAROL',
      channel: 'C0OPS',
      messageTs: request.ts,
      actionId: 'approval_approve',
    });
    const done = await h.slack.waitFor(() => {
      const m = h.slack.messages('C0OPS').find((x) => x.ts === request.ts);
      return m && /Approved and executed/.test(textOf(m)) ? m : undefined;
    }, 5_000);
    expect(textOf(done)).toContain('<@U0CAROL>');
  });

  it("a model whose workspace has no approvers of its own falls to the bot's approvers", async () => {
    // The service moves the model to the sandbox workspace, which has no approvers of its own.
    await ask(`model move ${SEED.models.pressureCommon} to ${SEED.workspaces.sandbox}`);
    await ask(`live start ${SEED.models.pressureCommon} reason="bot rule"`);
    const request = await card(SEED.models.pressureCommon);
    expect(textOf(request)).toContain("the bot's approvers");
  });
});
