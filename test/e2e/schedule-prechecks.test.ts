// The live pre-checks know what a schedule's own runs did: a live stop a schedule ran and the bot followed
// to its end leaves the model not live, so that schedule's next run sends nothing, though no approval
// request ever recorded the stop.
import { describe, expect, it } from 'vitest';
import { SEED } from '../../standins/emulator/index.js';
import type { LocalMessage } from '../../standins/localslack/index.js';
import { textOf } from '../support/approvals-rig.js';
import { eventually } from '../support/emulator.js';
import { stackForThisSuite } from '../support/fixtures/stack.js';
import type { Harness } from '../support/harness.js';

const LIVE = SEED.models.temperatureCommon;
const OPS = 'C0OPS';
const ALICE = 'U0ALICE';
const BOB = 'U0BOB';
// Friday 27 November 2026, 05:00 UTC.
const NOW = new Date(Date.UTC(2026, 10, 27, 5, 0));

let h: Harness;
stackForThisSuite(
  (x) => {
    h = x;
  },
  {
    now: NOW,
    flowDelays: { runningAfterMs: 100, completedAfterMs: 400 },
    env: { TSAI_APPROVERS: BOB, TSAI_TRACK_FIRST_POLL: '100ms', TSAI_TRACK_MAX_INTERVAL: '300ms' },
  },
);

const runOf = (scheduleId: string, plannedAt: number) =>
  eventually(
    async () =>
      (await h.store.listScheduleRuns({ scheduleIds: [scheduleId] })).find(
        (r) => r.plannedAt === plannedAt && r.state !== 'claimed',
      ),
    60_000,
  );

const stopPosts = async () =>
  (await h.serviceRequests()).filter(
    (r) =>
      r.method === 'POST' && r.path.endsWith('/flows') && /STOPLIVEMODEL/.test(JSON.stringify(r.body ?? '')),
  );

describe('a schedule of live stops, and what its own runs did', () => {
  it('stops the model once; at its next run the model is known not live, and nothing is sent', async () => {
    await h.commandAndReply(`schedule "every day at 08:00 UTC" name="nightly stop" live stop ${LIVE}`);
    const s = await eventually(async () =>
      (await h.store.listSchedules({ channelId: OPS })).find((x) => x.name === 'nightly stop'),
    );
    const card = await h.slack.waitFor(
      () =>
        h.slack
          .messages(OPS)
          .find(
            (m: LocalMessage) =>
              textOf(m).includes(s.id) && JSON.stringify(m.blocks).includes('schedule_approve'),
          ),
      60_000,
      'the schedule card',
    );
    await h.slack.clickButton({
      user: BOB,
      channel: OPS,
      messageTs: card.ts,
      actionId: 'schedule_approve',
      value: s.id,
    });
    await eventually(async () => ((await h.store.getSchedule(s.id))?.status === 'active' ? true : undefined));

    h.clock.set(Date.UTC(2026, 10, 27, 8, 0, 5));
    expect((await runOf(s.id, Date.UTC(2026, 10, 27, 8))).state).toBe('ok');
    await eventually(async () => {
      // The bot follows the flow on the test's clock: let it pass.
      h.clock.advance(200);
      const [flow] = await h.store.listTrackedFlows({ flowTypes: ['STOPLIVEMODEL'] });
      return flow?.endReason === 'ended' && flow.status === 'COMPLETED' ? true : undefined;
    }, 60_000);
    expect(await stopPosts()).toHaveLength(1);
    expect(await h.store.listApprovals()).toEqual([]);

    h.clock.set(Date.UTC(2026, 10, 28, 8, 0, 5));
    const next = await runOf(s.id, Date.UTC(2026, 10, 28, 8));
    expect(next.state).toBe('refused');
    expect(next.detail).toMatch(/is not live/);
    expect(await stopPosts()).toHaveLength(1);
    // What the run asked about, not its owner's rights: it stays active.
    expect((await h.store.getSchedule(s.id))?.status).toBe('active');
    expect(ALICE).toBe(s.ownerId);
  });
});
