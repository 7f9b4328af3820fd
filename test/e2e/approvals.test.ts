import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REJECT_REASON_ACTION, REJECT_REASON_BLOCK } from '../../src/slack/approvals/card.js';
import { SEED } from '../../standins/emulator/index.js';
import type { LocalMessage } from '../../standins/localslack/index.js';
import {
  APPROVALS,
  APPROVER,
  buttonsOf,
  CROWD,
  GROUP_APPROVER,
  OPS,
  OUTSIDER,
  REQUESTER,
  type Rig,
  requestIdOf,
  startRig,
  textOf,
} from '../support/approvals-rig.js';

const MODEL = SEED.models.temperatureCommon;
const HOUR = 3_600_000;

let rig: Rig;
beforeAll(async () => {
  rig = await startRig();
  await rig.startBot();
});
afterAll(async () => {
  await rig?.close();
});
afterEach(async () => {
  await fetch(`${rig.emulator.url}/_emulator/faults`, { method: 'DELETE' });
});

/** Files a live request as `user` and returns the posted request message and the requester's note. */
async function file(text: string, user = REQUESTER): Promise<{ message: LocalMessage; note: LocalMessage }> {
  const before = rig.requestMessage()?.ts;
  const note = await rig.command(text, { user });
  const message = await rig.slack.waitFor(
    () => {
      const m = rig.requestMessage();
      return m && m.ts !== before ? m : undefined;
    },
    5000,
    'the request message',
  );
  return { message, note };
}

/** The request message once its text matches `re` (it is updated in place). */
function messageWhen(message: LocalMessage, re: RegExp): Promise<LocalMessage> {
  return rig.slack.waitFor(
    () => {
      const m = rig.slack.messages(APPROVALS).find((x) => x.ts === message.ts);
      return m && re.test(textOf(m)) ? m : undefined;
    },
    5000,
    `request message matching ${re}`,
  );
}

/** The next ephemeral `user` sees in `channel` matching `re`. */
function ephemeralFor(user: string, re: RegExp, channel = APPROVALS): Promise<LocalMessage> {
  return rig.slack.waitFor(
    () => rig.seen(user, channel).find((m) => m.ephemeralTo === user && re.test(textOf(m))),
    5000,
    `an ephemeral to ${user} matching ${re}`,
  );
}

function current(message: LocalMessage): LocalMessage {
  return rig.slack.messages(APPROVALS).find((x) => x.ts === message.ts)!;
}

async function flowsFor(model: string) {
  return (await rig.liveFlows()).filter((f) => f.model === model);
}

describe('live start/stop approvals through Slack', () => {
  it('files a request, another user approves, the flow is created once, the message and requester are updated', async () => {
    const before = (await rig.liveFlows()).length;
    const { message, note } = await file(`live start ${MODEL} reason="new baseline"`);

    // The requester's ephemeral note links to the request; nothing reached the service yet.
    expect(note.ephemeralTo).toBe(REQUESTER);
    expect(textOf(note)).toContain('waiting for approval');
    expect(textOf(note)).toContain(`${rig.slack.url}/archives/${APPROVALS}/p`);
    // A mention inside a link label does not render in Slack: the channel follows the link.
    expect(textOf(note)).toMatch(new RegExp(`\\|the request> in <#${APPROVALS}>`));
    expect(rig.slack.calls.some((c) => c.method === 'chat.getPermalink')).toBe(true);
    expect(await rig.liveFlows()).toHaveLength(before);

    // The request message, in the approvals channel, for everyone.
    expect(message.ephemeralTo).toBeUndefined();
    const text = textOf(message);
    expect(text).toContain(`<@${REQUESTER}>`);
    expect(text).toContain('STARTLIVEMODEL');
    expect(text).toContain(MODEL);
    expect(text).toContain('new baseline');
    expect(text).toContain('Expires');
    expect(text).toContain('2026-11-22 14:00 UTC'); // filed at 10:00, TTL 4 h
    expect(buttonsOf(message)).toEqual(['approval_approve', 'approval_reject']);

    const ack = await rig.click(APPROVER, message, 'approve');
    expect(ack.status).toBe(200);
    const done = await messageWhen(message, /Approved and executed/);
    expect(buttonsOf(done)).toEqual([]);
    expect(done.edits).toBeGreaterThan(0);
    const flows = await flowsFor(MODEL);
    expect(flows).toHaveLength(1);
    expect(flows[0]!.flowType).toBe('STARTLIVEMODEL');
    const flowId = flowIdIn(done);
    expect(textOf(done)).toContain(`<@${APPROVER}>`);
    expect(flowId).toMatch(/^\d{18,19}$/);

    // The requester is told in the thread, with the flow ID.
    const thread = await rig.slack.waitFor(
      () => rig.seen(REQUESTER, APPROVALS, message.ts).find((m) => m.threadTs === message.ts),
      5000,
      'thread reply',
    );
    expect(thread.text).toContain(`<@${REQUESTER}>`);
    expect(thread.text).toContain('approved');
    expect(thread.text).toContain(flowId);
  });

  it('takes the buttons away as soon as an approval wins, while the flow is still being created', async () => {
    await fetch(`${rig.emulator.url}/_emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'POST', path: '/flows$', latencyMs: 700, count: 1 }),
    });
    const { message } = await file(`live stop ${SEED.models.temperatureCommon}`);
    await rig.click('U0CAROL', message, 'approve');
    const executing = await messageWhen(message, /creating the flow/);
    expect(buttonsOf(executing)).toEqual([]);
    expect(textOf(executing)).toContain('<@U0CAROL>');
    await messageWhen(message, /Approved and executed/);
  });

  it('files nothing for an assessment without a common model or a bad ID, and says why', async () => {
    const before = rig.requestMessage()?.ts;
    const none = await rig.command(`live start assessment=${SEED.assessments.vibration}`);
    expect(none.ephemeralTo).toBe(REQUESTER);
    expect(textOf(none)).toContain('has no common model M[0]');
    const bad = await rig.command('live stop 12345');
    expect(textOf(bad)).toContain('not a valid model ID');
    expect(rig.requestMessage()?.ts).toBe(before);
  });

  it('refuses self-approval: nothing changes', async () => {
    const { message } = await file(`live stop ${SEED.models.pressureCommon}`, 'U0CAROL');
    await rig.click('U0CAROL', message, 'approve');
    const refusal = await ephemeralFor('U0CAROL', /cannot approve it yourself/);
    expect(refusal.ephemeralTo).toBe('U0CAROL');
    expect(current(message).edits).toBe(0);
    expect(buttonsOf(current(message))).toEqual(['approval_approve', 'approval_reject']);
    expect(await flowsFor(SEED.models.pressureCommon)).toEqual([]);
  });

  it('refuses non-approvers and names whom to ask; honours user-group membership', async () => {
    const model = SEED.models.temperatureAnomaly;
    const { message } = await file(`live start ${model}`);
    await rig.click(OUTSIDER, message, 'approve');
    const refusal = await ephemeralFor(OUTSIDER, /not an approver/);
    expect(textOf(refusal)).toContain(`<@${APPROVER}>`);
    expect(textOf(refusal)).toContain('<!subteam^S0LEADS>');
    await rig.click(OUTSIDER, message, 'reject');
    await rig.slack.waitFor(
      () => rig.seen(OUTSIDER, APPROVALS).filter((m) => /not an approver/.test(textOf(m))).length === 2,
      5000,
    );
    expect(rig.slack.topView(OUTSIDER)).toBeUndefined();
    expect(current(message).edits).toBe(0);
    expect(await flowsFor(model)).toEqual([]);

    // Dave is an approver only as a member of S0LEADS (usergroups.users.list).
    await rig.click(GROUP_APPROVER, message, 'approve');
    const done = await messageWhen(message, /Approved and executed/);
    expect(textOf(done)).toContain(`<@${GROUP_APPROVER}>`);
    expect(
      rig.slack.calls.some((c) => c.method === 'usergroups.users.list' && c.args.usergroup === 'S0LEADS'),
    ).toBe(true);
    expect(await flowsFor(model)).toHaveLength(1);
  });

  it('rejects with a reason through the modal; later clicks learn who decided', async () => {
    const model = SEED.models.pressureCommon;
    const { message } = await file(`live start assessment=${SEED.assessments.pressure}`);
    expect(textOf(message)).toContain(model); // M[0] of the assessment
    await rig.click(APPROVER, message, 'reject');
    const view = await rig.slack.waitFor(() => rig.slack.topView(APPROVER), 5000, 'reject modal');
    const submitted = await rig.slack.submitView({
      user: APPROVER,
      viewId: view.id,
      values: { [REJECT_REASON_BLOCK]: { [REJECT_REASON_ACTION]: 'not during the shift <!channel> change' } },
    });
    expect(submitted.status).toBe(200);
    const rejected = await messageWhen(message, /Rejected/);
    expect(buttonsOf(rejected)).toEqual([]);
    expect(textOf(rejected)).toContain('not during the shift &lt;!channel&gt; change');
    expect(textOf(rejected)).toContain(`<@${APPROVER}>`);
    const thread = await rig.slack.waitFor(
      () => rig.seen(REQUESTER, APPROVALS, message.ts).find((m) => m.threadTs === message.ts),
      5000,
    );
    expect(thread.text).toContain('rejected');
    expect(await flowsFor(model)).toEqual([]);
  });

  // A flow the service turns down (4xx) offers no Retry: test/e2e/live-prechecks.test.ts.
  it('a failure a retry can get past (503) shows Retry; a retry by an approver creates the flow', async () => {
    const model = SEED.models.temperatureCommon;
    const before = (await flowsFor(model)).length;
    await fetch(`${rig.emulator.url}/_emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        method: 'POST',
        path: '/flows$',
        status: 503,
        message: 'model is busy',
        count: 1,
      }),
    });
    const { message } = await file(`live stop ${model}`);
    await rig.click(APPROVER, message, 'approve');
    const failed = await messageWhen(message, /could not be created/);
    expect(textOf(failed)).toContain('model is busy');
    expect(buttonsOf(failed)).toEqual(['approval_retry']);
    expect(await flowsFor(model)).toHaveLength(before);

    await rig.click(OUTSIDER, failed, 'retry');
    await ephemeralFor(OUTSIDER, /not an approver/);
    await rig.click('U0CAROL', failed, 'retry');
    const done = await messageWhen(message, /Approved and executed/);
    expect(buttonsOf(done)).toEqual([]);
    const flows = await flowsFor(model);
    expect(flows).toHaveLength(before + 1);
    expect(flows.at(-1)!.flowType).toBe('STOPLIVEMODEL');
  });

  it('an unknown outcome is shown as such, with no Retry', async () => {
    await fetch(`${rig.emulator.url}/_emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'POST', path: '/flows$', reset: 'after', count: 1 }),
    });
    const { message } = await file(`live start ${SEED.models.temperatureAnomaly}`);
    await rig.click(APPROVER, message, 'approve');
    const unknown = await messageWhen(message, /outcome unknown/);
    expect(buttonsOf(unknown)).toEqual([]);
    expect(textOf(unknown)).toContain('Activity view');
  });

  it('20 concurrent Approve clicks from different approvers create exactly one flow', async () => {
    const model = SEED.models.pressureCommon;
    const before = (await flowsFor(model)).length;
    const { message } = await file(`live start ${model} reason=crowd`);
    const acks = await Promise.all(CROWD.map((user) => rig.click(user, message, 'approve')));
    expect(acks.every((a) => a.status === 200)).toBe(true);
    const done = await messageWhen(message, /Approved and executed/);
    expect(await flowsFor(model)).toHaveLength(before + 1);
    const winner = CROWD.find((u) => textOf(done).includes(`<@${u}>`))!;
    expect(winner).toBeDefined();
    // Every other clicker is told who won.
    for (const user of CROWD.filter((u) => u !== winner)) {
      const told = await ephemeralFor(user, /already approved by/);
      expect(textOf(told)).toContain(`<@${winner}>`);
    }
  });

  it('an expired request says so, keeps its buttons off, and a click changes nothing', async () => {
    const model = SEED.models.temperatureAnomaly;
    const before = (await flowsFor(model)).length;
    const { message } = await file(`live stop ${model}`);
    rig.clock.advance(4 * HOUR + 1000);
    try {
      const expired = await messageWhen(message, /Expired/);
      expect(buttonsOf(expired)).toEqual([]);
      expect(await flowsFor(model)).toHaveLength(before);
      const thread = await rig.slack.waitFor(
        () => rig.seen(REQUESTER, APPROVALS, message.ts).find((m) => /expired/.test(m.text)),
        5000,
      );
      expect(thread.text).toContain(`<@${REQUESTER}>`);
    } finally {
      rig.clock.advance(-(4 * HOUR + 1000));
    }
  });

  it('/tsai approvals lists pending requests to whom they concern; /tsai audit is for approvers', async () => {
    const { message } = await file(`live start ${SEED.models.temperatureCommon} reason="for the list"`);
    const id = requestIdOf(message);
    const list = await rig.command('approvals', { user: APPROVER });
    expect(list.ephemeralTo).toBe(APPROVER);
    expect(textOf(list)).toContain(id);
    expect(textOf(list)).toContain('for the list');
    // Someone who neither filed it nor decides it does not see it, and is told why (docs/security.md).
    const outsider = await rig.command('approvals', { user: OUTSIDER });
    expect(outsider.ephemeralTo).toBe(OUTSIDER);
    expect(textOf(outsider)).not.toContain(id);
    expect(textOf(outsider)).toContain("Only the bot's approvers see everyone's requests");

    const refused = await rig.command('audit', { user: OUTSIDER });
    expect(refused.ephemeralTo).toBe(OUTSIDER);
    expect(textOf(refused)).toContain('Only approvers');
    const audit = await rig.command('audit 100', { user: APPROVER });
    expect(audit.ephemeralTo).toBe(APPROVER);
    const text = textOf(audit);
    expect(text).toContain('approved a request');
    expect(text).toContain('started a STARTLIVEMODEL flow');
    expect(text).toContain('rejected a request');
    expect(text).toContain('started a STOPLIVEMODEL flow');
    expect(text).not.toContain('{"');

    const bad = await rig.command('audit lots', { user: APPROVER });
    expect(textOf(bad)).toContain('1 to 100');
  });
});

describe('channel defaults', () => {
  it('/tsai use sets, shows and clears; a command using a default says so', async () => {
    const ws = SEED.workspaces.sandbox;
    const set = await rig.command(`use workspace=${ws} entities=pump-1,pump-2`, { channel: 'C0GENERAL' });
    expect(set.ephemeralTo).toBeUndefined();
    expect(textOf(set)).toContain(ws);
    const shown = await rig.command('use', { channel: 'C0GENERAL', user: OUTSIDER });
    expect(shown.ephemeralTo).toBe(OUTSIDER);
    expect(textOf(shown)).toContain(ws);
    expect(textOf(shown)).toContain('pump-1,pump-2');

    const used = await rig.command('workspace show', { channel: 'C0GENERAL' });
    expect(textOf(used)).toContain(`workspace ${ws} (channel default)`);
    expect(textOf(used)).toContain('Sandbox');

    const bad = await rig.command('use workspace=12', { channel: 'C0GENERAL' });
    expect(bad.ephemeralTo).toBe(REQUESTER);
    expect(textOf(bad)).toContain('not a valid workspace ID');

    const cleared = await rig.command('use clear', { channel: 'C0GENERAL' });
    expect(textOf(cleared)).toContain('cleared');
    const none = await rig.command('use', { channel: 'C0GENERAL' });
    expect(textOf(none)).toContain('no defaults');
    const missing = await rig.command('workspace show', { channel: 'C0GENERAL' });
    expect(textOf(missing)).toContain('needs a workspace (its ID or name)');

    const entries = await rig.bots[0]!.bot.store.listAudit({ operationPrefixes: ['channel.'] });
    expect(entries.map((e) => e.operation)).toEqual(['channel.defaults.clear', 'channel.defaults.set']);
  });

  it('records workspace creation, model moves and flow creations in the audit log', async () => {
    const created = await rig.command('workspace create "Audit me"');
    expect(textOf(created)).toContain('created a workspace');
    await rig.command(`model move ${SEED.models.temperatureAnomaly} to ${SEED.workspaces.sandbox}`);
    const learned = await rig.command(`learn workspace=${SEED.workspaces.sandbox} dataspec=${SEED.dataspec}`);
    const flowId = /`(1\d{18})`/.exec(textOf(learned))?.[1];
    expect(flowId).toBeDefined();
    const entries = await rig.bots[0]!.bot.store.listAudit({
      operationPrefixes: ['workspace.', 'model.', 'flow.ANOMALY'],
    });
    expect(entries.map((e) => e.operation).slice(0, 3)).toEqual([
      'flow.ANOMALYLEARN',
      'model.move',
      'workspace.create',
    ]);
    expect(entries[2]).toMatchObject({ userId: REQUESTER, channelId: OPS, outcome: 'ok' });
    expect(entries[2]!.params).toMatchObject({ name: 'Audit me' });
    expect(entries[0]).toMatchObject({ flowId, outcome: 'ok' });
    expect(entries[1]!.params).toMatchObject({ workspaceId: SEED.workspaces.sandbox });
  });
});

function flowIdIn(message: LocalMessage): string {
  return /\*Flow\* `(\d+)`/.exec(textOf(message))?.[1] ?? '';
}
