import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED } from '../../standins/emulator/index.js';
import {
  APPROVALS,
  APPROVER,
  buttonsOf,
  type Rig,
  requestIdOf,
  startRig,
  textOf,
} from '../support/approvals-rig.js';

let rig: Rig;
beforeAll(async () => {
  // A long sweep interval: whatever expires here is expired by the start-up recovery, not a sweep.
  rig = await startRig({ sweepIntervalMs: 600_000 });
});
afterAll(async () => {
  await rig?.close();
});

function current(ts: string) {
  return rig.slack.messages(APPROVALS).find((m) => m.ts === ts);
}

describe('approvals survive a bot restart (same SQLite file)', () => {
  it('a request filed before a restart can be approved after it', async () => {
    const first = await rig.startBot();
    await rig.command(`live start ${SEED.models.temperatureCommon} reason="before restart"`);
    const message = await rig.slack.waitFor(() => rig.requestMessage(), 5000);
    await rig.stopBot(first);

    await rig.startBot();
    await rig.click(APPROVER, message, 'approve');
    const done = await rig.slack.waitFor(() => {
      const m = current(message.ts);
      return m && /Approved and executed/.test(textOf(m)) ? m : undefined;
    }, 5000);
    expect(buttonsOf(done)).toEqual([]);
    expect((await rig.liveFlows()).filter((f) => f.model === SEED.models.temperatureCommon)).toHaveLength(1);
  });

  it('a request that expired while the bot was down is shown expired after the restart', async () => {
    await rig.command(`live stop ${SEED.models.pressureCommon}`);
    const message = await rig.slack.waitFor(() => {
      const m = rig.requestMessage();
      return m && /Waiting for approval/.test(textOf(m)) ? m : undefined;
    }, 5000);
    const id = requestIdOf(message);
    await rig.stopBot(rig.bots[0]!);
    rig.clock.advance(5 * 3_600_000);
    expect(textOf(current(message.ts))).toContain('Waiting for approval'); // nobody updated it meanwhile

    const bot = await rig.startBot();
    const expired = await rig.slack.waitFor(() => {
      const m = current(message.ts);
      return m && /Expired/.test(textOf(m)) ? m : undefined;
    }, 5000);
    expect(buttonsOf(expired)).toEqual([]);
    expect((await bot.bot.store.getApproval(id))?.status).toBe('expired');
    expect((await rig.liveFlows()).filter((f) => f.model === SEED.models.pressureCommon)).toEqual([]);
    const audit = await bot.bot.store.listAudit({ operationPrefixes: ['approval.expire'] });
    expect(audit.map((e) => [e.requestId, e.userId])).toEqual([[id, 'system']]);
  });

  it('a click on a request past its expiry (before any sweep) only says so, and the message shows it', async () => {
    const bot = rig.bots[0]!;
    await rig.command(`live start ${SEED.models.temperatureAnomaly}`);
    const message = await rig.slack.waitFor(() => {
      const m = rig.requestMessage();
      return m && /Waiting for approval/.test(textOf(m)) ? m : undefined;
    }, 5000);
    rig.clock.advance(4 * 3_600_000);
    await rig.click('U0CAROL', message, 'reject');
    await rig.slack.waitFor(
      () =>
        rig.seen('U0CAROL', APPROVALS).find((m) => m.ephemeralTo === 'U0CAROL' && /expired/.test(textOf(m))),
      5000,
    );
    expect(rig.slack.topView('U0CAROL')).toBeUndefined();
    const expired = await rig.slack.waitFor(() => {
      const m = current(message.ts);
      return m && /Expired/.test(textOf(m)) ? m : undefined;
    }, 5000);
    expect(buttonsOf(expired)).toEqual([]);
    expect((await bot.bot.store.getApproval(requestIdOf(message)))?.status).toBe('expired');
    expect((await rig.liveFlows()).filter((f) => f.model === SEED.models.temperatureAnomaly)).toEqual([]);
  });

  it('an execution cut off by a crash is shown as outcome unknown after the restart, with no Retry', async () => {
    await rig.command(`live stop ${SEED.models.temperatureCommon} reason=crash`);
    const message = await rig.slack.waitFor(() => {
      const m = rig.requestMessage();
      return m && /Waiting for approval/.test(textOf(m)) && /crash/.test(textOf(m)) ? m : undefined;
    }, 5000);
    const id = requestIdOf(message);
    const bot = rig.bots[0]!;
    // The approval was claimed in the store, then the process died before the flow call returned.
    const claimed = await bot.bot.store.decideApproval({
      id,
      decision: 'approve',
      by: APPROVER,
      at: rig.clock.now().getTime(),
    });
    expect(claimed.ok).toBe(true);
    await rig.stopBot(bot);
    rig.clock.advance(6 * 60_000);

    await rig.startBot();
    const unknown = await rig.slack.waitFor(() => {
      const m = current(message.ts);
      return m && /outcome unknown/.test(textOf(m)) ? m : undefined;
    }, 5000);
    expect(buttonsOf(unknown)).toEqual([]);
    expect(textOf(unknown)).toContain(`<@${APPROVER}>`);
  });

  it('/tsai approvals leaves out a request past its expiry and updates its message', async () => {
    await rig.command(`live start ${SEED.models.pressureCommon} reason=listing`);
    const message = await rig.slack.waitFor(() => {
      const m = rig.requestMessage();
      return m && /Waiting for approval/.test(textOf(m)) && /listing/.test(textOf(m)) ? m : undefined;
    }, 5000);
    const id = requestIdOf(message);
    const listed = await rig.command('approvals');
    expect(textOf(listed)).toContain(id);
    rig.clock.advance(4 * 3_600_000);
    const after = await rig.command('approvals');
    expect(textOf(after)).not.toContain(id);
    const expired = await rig.slack.waitFor(() => {
      const m = current(message.ts);
      return m && /Expired/.test(textOf(m)) ? m : undefined;
    }, 5000);
    expect(buttonsOf(expired)).toEqual([]);
  });

  it('an Approve click past the expiry (before any sweep) expires it: nothing runs, the requester is told', async () => {
    const model = SEED.models.temperatureAnomaly;
    const before = (await rig.liveFlows()).filter((f) => f.model === model).length;
    await rig.command(`live start ${model} reason=late`);
    const message = await rig.slack.waitFor(() => {
      const m = rig.requestMessage();
      return m && /Waiting for approval/.test(textOf(m)) && /late/.test(textOf(m)) ? m : undefined;
    }, 5000);
    rig.clock.advance(4 * 3_600_000);
    await rig.click(APPROVER, message, 'approve');
    await rig.slack.waitFor(
      () =>
        rig.seen(APPROVER, APPROVALS).find((m) => m.ephemeralTo === APPROVER && /expired at/.test(textOf(m))),
      5000,
    );
    await rig.slack.waitFor(() => {
      const m = current(message.ts);
      return m && /Expired/.test(textOf(m)) ? m : undefined;
    }, 5000);
    await rig.slack.waitFor(
      () => rig.seen('U0ALICE', APPROVALS, message.ts).find((m) => /expired/.test(m.text)),
      5000,
    );
    expect((await rig.liveFlows()).filter((f) => f.model === model)).toHaveLength(before);
  });
});
