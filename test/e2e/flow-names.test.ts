import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED } from '../../standins/emulator/index.js';
import { DEFAULT_CHANNELS, DEFAULT_USERS, type LocalMessage } from '../../standins/localslack/index.js';
import { emulatorControl } from '../support/emulator.js';
import { type Harness, startHarness } from '../support/harness.js';
import { waitUntil } from '../support/patience.js';

/**
 * The names of the flows the bot creates carry the display names Slack gives people (users.info), never
 * a Slack user ID, and a neutral word when Slack cannot say: through the real bot, the local Slack and
 * the emulator, which records the names it was sent.
 */
const ALICE = 'U0ALICE';
const BOB = 'U0BOB';
const CAROL = 'U0CAROL';
const OPS = 'C0OPS';

let h: Harness;
let control: ReturnType<typeof emulatorControl>;
beforeAll(async () => {
  h = await startHarness({
    env: { TSAI_APPROVERS: `${BOB},${CAROL}` },
    users: DEFAULT_USERS,
    channels: DEFAULT_CHANNELS,
  });
  control = emulatorControl(h.emulator.url);
});
afterAll(async () => {
  await h?.close();
});

const seen = (m: LocalMessage) => `${m.text}\n${JSON.stringify(m.blocks ?? [])}`;

async function flowNames(flowType: string): Promise<string[]> {
  const state = (await control('GET', 'state')) as { flows: { flowType: string; name: string }[] };
  return state.flows.filter((f) => f.flowType === flowType).map((f) => f.name);
}

/** Alice asks for `live <what>`; `approver` approves it on its card; the name of the flow it created. */
async function approvedLiveFlowName(what: string, tag: string, approver: string): Promise<string> {
  const before = new Set(await flowNames(what.startsWith('start') ? 'STARTLIVEMODEL' : 'STOPLIVEMODEL'));
  await h.command(`live ${what} reason=${tag}`, { user: ALICE, channel: OPS });
  const card = await h.slack.waitFor(
    () =>
      h.slack
        .messages(OPS)
        .find(
          (m) =>
            m.user === h.slack.botUserId && seen(m).includes(tag) && seen(m).includes('approval_approve'),
        ),
    5_000,
    `the request card ${tag}`,
  );
  await h.slack.clickButton({
    user: approver,
    channel: OPS,
    messageTs: card.ts,
    actionId: 'approval_approve',
  });
  const flowType = what.startsWith('start') ? 'STARTLIVEMODEL' : 'STOPLIVEMODEL';
  return waitUntil(
    async () => {
      const created = (await flowNames(flowType)).find((n) => !before.has(n));
      if (!created) throw new Error(`no ${flowType} flow for ${tag} yet`);
      return created;
    },
    { timeout: 8_000, interval: 100 },
  );
}

describe('flow names', () => {
  it("a command's flow is named for the display name of the person who asked", async () => {
    await h.command(
      `learn workspace=${SEED.workspaces.pumpStation} signals=${SEED.signals.temperature}:temperature range="2026-11-20 to 2026-11-21"`,
      { user: ALICE, channel: OPS },
    );
    const names = await waitUntil(
      async () => {
        const all = await flowNames('ANOMALYLEARN');
        expect(all).toContain('learn by @alice 2026-11-22 10:00Z');
        return all;
      },
      { timeout: 8_000, interval: 100 },
    );
    expect(names.join('\n')).not.toContain(ALICE);
  });

  it("an approved live start is named for the approver's display name, not their ID", async () => {
    const name = await approvedLiveFlowName(`start ${SEED.models.pressureCommon}`, 'named-by-bob', BOB);
    expect(name).toBe(
      `live start ${SEED.models.pressureCommon} requested by @alice, approved by @bob 2026-11-22 10:00Z`,
    );
  });

  it('when Slack cannot say who approved, a neutral word stands in, never the ID', async () => {
    // Slack failing to answer, not Slack saying the account is gone: an approver Slack no longer knows
    // may not approve at all (the gate's identity check), so that case names nobody.
    h.slack.injectFault({ method: 'users.info', user: CAROL, error: 'internal_error', times: 'always' });
    try {
      const name = await approvedLiveFlowName(
        `stop ${SEED.models.temperatureCommon}`,
        'named-by-nobody',
        CAROL,
      );
      expect(name).toBe(
        `live stop ${SEED.models.temperatureCommon} requested by @alice, approved by someone 2026-11-22 10:00Z`,
      );
      expect(name).not.toContain(CAROL);
    } finally {
      h.slack.clearFaults();
    }
  });
});
