import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED } from '../../standins/emulator/index.js';
import {
  APPROVALS,
  APPROVER,
  GROUP_APPROVER,
  OPS,
  REQUESTER,
  type Rig,
  startRig,
  textOf,
} from '../support/approvals-rig.js';

let rig: Rig;
beforeAll(async () => {
  rig = await startRig({
    env: { TSAI_OPERATORS: `${APPROVER},S0LEADS`, TSAI_ALLOWED_CHANNELS: `${OPS},${APPROVALS}` },
  });
  await rig.startBot();
});
afterAll(async () => {
  await rig?.close();
});

async function clearServiceRequests() {
  await fetch(`${rig.emulator.url}/_emulator/requests`, { method: 'DELETE' });
}

describe('access policy (TSAI_OPERATORS, TSAI_ALLOWED_CHANNELS)', () => {
  it("refuses a non-operator's mutating commands, says whom to ask, audits it, and calls no service", async () => {
    await clearServiceRequests();
    const create = await rig.command('workspace create nope');
    expect(create.ephemeralTo).toBe(REQUESTER);
    expect(textOf(create)).toContain('not an operator');
    expect(textOf(create)).toContain(`<@${APPROVER}>`);
    expect(textOf(create)).toContain('<!subteam^S0LEADS>');
    const live = await rig.command(`live start ${SEED.models.temperatureCommon}`);
    expect(live.ephemeralTo).toBe(REQUESTER);
    expect(textOf(live)).toContain('not an operator');
    expect(rig.requestMessage()).toBeUndefined();
    expect(await rig.serviceRequests()).toEqual([]);

    // Read-only commands stay open.
    const show = await rig.command(`workspace show ${SEED.workspaces.sandbox}`);
    expect(textOf(show)).toContain('Sandbox');

    const refused = await rig.bots[0]!.bot.store.listAudit({ operationPrefixes: ['policy.'] });
    expect(refused.map((e) => [e.userId, e.params.operation, e.outcome, e.error])).toEqual([
      [REQUESTER, 'live', 'refused', 'not-operator'],
      [REQUESTER, 'workspace create', 'refused', 'not-operator'],
    ]);
  });

  it('lets operators given as a user group run mutating commands', async () => {
    const created = await rig.command('workspace create "Dave was here"', { user: GROUP_APPROVER });
    expect(textOf(created)).toContain('created a workspace');
    expect(rig.slack.calls.some((c) => c.method === 'usergroups.users.list')).toBe(true);
  });

  it('refuses every command but help outside the allowed channels', async () => {
    await clearServiceRequests();
    const flow = await rig.command(`workspace show ${SEED.workspaces.sandbox}`, {
      user: APPROVER,
      channel: 'C0ELSEWHERE',
    });
    expect(flow.ephemeralTo).toBe(APPROVER);
    expect(textOf(flow)).toContain('does not act in this channel');
    expect(textOf(flow)).toContain(`<#${OPS}>`);
    const help = await rig.command('help', { user: APPROVER, channel: 'C0ELSEWHERE' });
    expect(textOf(help)).toContain('tsai: commands');
    expect(await rig.serviceRequests()).toEqual([]);
    const [latest] = await rig.bots[0]!.bot.store.listAudit({ operationPrefixes: ['policy.'] });
    expect(latest).toMatchObject({
      userId: APPROVER,
      channelId: 'C0ELSEWHERE',
      error: 'channel-not-allowed',
    });
  });
});
