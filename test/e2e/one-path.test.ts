import { describe, expect, it } from 'vitest';
import { APPROVAL_ACTION } from '../../src/slack/approvals/card.js';
import { fieldActionId, MODAL_ACTION, MODAL_CALLBACK } from '../../src/slack/forms/views/ids.js';
import { decodeMeta } from '../../src/slack/forms/views/metadata.js';
import { SEED } from '../../standins/emulator/index.js';
import type { LocalMessage } from '../../standins/localslack/index.js';
import { stackForThisSuite } from '../support/fixtures/stack.js';
import type { Harness } from '../support/harness.js';

const W = SEED.workspaces.pumpStation;
const T = SEED.signals.temperature;
const OPS = 'C0OPS';
const seen = (m: LocalMessage) => `${m.text}\n${JSON.stringify(m.blocks ?? [])}`;

// One bot as `npm start` runs it (follow-up worker included), with an operator list and approvers: the
// command, the form and the approved live start each go through the one operation runner, so each is
// authorised, executed and audited the same way.
let h: Harness;
stackForThisSuite(
  (started) => {
    h = started;
  },
  {
    env: { TSAI_OPERATORS: 'U0ALICE,U0BOB', TSAI_APPROVERS: 'U0BOB', TSAI_APPROVALS_CHANNEL: OPS },
  },
);

async function submitLearnForm(user: string): Promise<LocalMessage> {
  await h.slack.sendCommand({ user, channel: OPS, text: `learn workspace=${W}` });
  const view = await h.slack.waitFor(
    (s) => {
      const v = s.topView(user);
      return v?.view.callback_id === MODAL_CALLBACK.learn &&
        decodeMeta(v.view.private_metadata as string)?.timeZone
        ? v
        : undefined;
    },
    5000,
    'the learn form',
  );
  const before = new Set(h.slack.messages(OPS, { user }).map((m) => m.ts));
  // The signals field is a type-ahead select: what is typed there is picked from what the bot offers.
  const signal = `${T}:temperature`;
  const offered = await h.slack.sendOptionsRequest({
    user,
    viewId: view.id,
    blockId: 'signals',
    actionId: fieldActionId('signals'),
    value: signal,
  });
  expect(offered.options?.map((o) => o.value)).toContain(signal);
  const d = await h.slack.submitView({
    user,
    viewId: view.id,
    values: {
      signals: { [fieldActionId('signals')]: [signal] },
      range_1: { [MODAL_ACTION.range]: '2026-11-20 to 2026-11-21' },
    },
  });
  expect(d.errors).toBeUndefined();
  return h.slack.waitFor(
    (s) =>
      s.messages(OPS, { user }).find((m) => !before.has(m.ts) && m.user !== user && m.kind !== 'command'),
    5000,
    'the form result',
  );
}

describe('one path for every operation', () => {
  it('a command and a form that create the same flow send the same body and are audited alike', async () => {
    await h.clearServiceRequests();
    await h.commandAndReply(
      `learn workspace=${W} signals=${T}:temperature range="2026-11-20 to 2026-11-21" name=same`,
      { channel: OPS },
    );
    const form = await submitLearnForm('U0ALICE');
    expect(seen(form)).toContain('started an ANOMALYLEARN flow');
    const [fromCommand, fromForm] = (await h.serviceRequests()).filter((r) => r.method === 'POST');
    // Names differ (a default name carries the form's author and time); everything else is the same.
    const strip = (b: unknown) =>
      JSON.parse(JSON.stringify(b), (k, v) => (k === 'name' ? undefined : v)) as Record<string, unknown>;
    expect(strip(fromForm!.body)).toEqual(strip(fromCommand!.body));
    const audit = (await h.store.listAudit({ operationPrefixes: ['flow.'] })).reverse();
    expect(audit.map((e) => [e.operation, e.userId, e.channelId, e.outcome])).toEqual([
      ['flow.ANOMALYLEARN', 'U0ALICE', OPS, 'ok'],
      ['flow.ANOMALYLEARN', 'U0ALICE', OPS, 'ok'],
    ]);
  });

  it('the access policy refuses a non-operator the same way from a command and from a form', async () => {
    await h.clearServiceRequests();
    const reply = await h.commandAndReply(`workspace create "not mine"`, { user: 'U0CAROL', channel: OPS });
    expect(seen(reply)).toContain('You are not an operator');
    expect(seen(reply)).toContain('Operators: <@U0ALICE> or <@U0BOB>');
    // The form opens only after the same check: carol is refused before filling anything in.
    const form = await h.commandAndReply(`learn workspace=${W}`, { user: 'U0CAROL', channel: OPS });
    expect(seen(form)).toContain('You are not an operator');
    expect(h.slack.topView('U0CAROL')).toBeUndefined();
    expect(await h.askedOfService()).toEqual([]);
    const refused = await h.store.listAudit({ operationPrefixes: ['policy.'] });
    expect(refused.map((e) => [e.userId, (e.params as { operation: string }).operation])).toEqual([
      ['U0CAROL', 'learn'],
      ['U0CAROL', 'workspace create'],
    ]);
  });

  it('an approved live start is executed and audited by the same runner, as the approver', async () => {
    await h.clearServiceRequests();
    await h.commandAndReply(`live start ${SEED.models.pressureCommon} reason="one path"`, { channel: OPS });
    const card = await h.slack.waitFor(
      () => h.slack.messages(OPS).find((m) => m.user === h.slack.botUserId && seen(m).includes('one path')),
      5000,
    );
    await h.slack.clickButton({
      user: 'U0BOB',
      channel: OPS,
      messageTs: card.ts,
      actionId: APPROVAL_ACTION.approve,
    });
    await h.slack.waitFor(
      () => h.slack.messages(OPS).find((m) => m.ts === card.ts && seen(m).includes('Approved and executed')),
      5000,
    );
    const flows = (await h.serviceRequests()).filter((r) => r.method === 'POST' && r.path.endsWith('/flows'));
    expect(flows.map((r) => (r.body as { flowType: string }).flowType)).toEqual(['STARTLIVEMODEL']);
    const [entry] = await h.store.listAudit({ operationPrefixes: ['flow.STARTLIVEMODEL'] });
    expect(entry).toMatchObject({ userId: 'U0BOB', channelId: OPS, outcome: 'ok' });
    expect(entry!.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('channel defaults fill a command and a form alike, and the reply says so', async () => {
    await h.commandAndReply(`use workspace=${SEED.workspaces.sandbox}`, { channel: OPS });
    await h.clearServiceRequests();
    const reply = await h.commandAndReply(`learn dataspec=${SEED.dataspec}`, { channel: OPS });
    expect(seen(reply)).toContain(
      `From this channel's defaults: workspace ${SEED.workspaces.sandbox} (channel default).`,
    );
    const [req] = await h.serviceRequests();
    expect(req!.body).toMatchObject({ spec: { workspace: SEED.workspaces.sandbox } });
    await h.commandAndReply('use clear', { channel: OPS });
  });
});
