import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED } from '../../standins/emulator/index.js';
import { DEFAULT_CHANNELS, DEFAULT_USERS, type LocalMessage } from '../../standins/localslack/index.js';
import { emulatorControl } from '../support/emulator.js';
import { type Harness, startHarness } from '../support/harness.js';
import { waitUntil } from '../support/patience.js';

/**
 * A failed flow's reason, as the service gave it, wherever the bot shows that flow: the thread notice at
 * its end, `/tsai flows`, `/tsai flow <id>` and the Home tab. Through the real bot (startAll, worker),
 * the local Slack with real signatures and the emulator failing the flow with a reason.
 */
const ALICE = 'U0ALICE';
const OPS = 'C0OPS';
const REASON = 'not enough baseline data on pump-1';

let h: Harness;
let control: ReturnType<typeof emulatorControl>;
beforeAll(async () => {
  h = await startHarness({
    flowDelays: { runningAfterMs: 200, completedAfterMs: 800 },
    env: { TSAI_TRACK_FIRST_POLL: '100ms', TSAI_TRACK_MAX_INTERVAL: '300ms' },
    users: DEFAULT_USERS,
    channels: DEFAULT_CHANNELS,
  });
  control = emulatorControl(h.emulator.url);
});
afterAll(async () => {
  await h?.close();
});

const seen = (m: LocalMessage | undefined) => (m ? `${m.text}\n${JSON.stringify(m.blocks ?? [])}` : '');

/** Every text of a view, joined: what the person reads. */
function textsOf(x: unknown, out: string[] = []): string[] {
  if (Array.isArray(x)) for (const y of x) textsOf(y, out);
  else if (x && typeof x === 'object') {
    const o = x as Record<string, unknown>;
    if (typeof o.text === 'string') out.push(o.text);
    for (const v of Object.values(o)) textsOf(v, out);
  }
  return out;
}

/** A learn in #ops that the emulator fails with `message`; its flow ID once the bot has told its end. */
async function failedLearn(name: string, message: string): Promise<{ flowId: string; notice: LocalMessage }> {
  await control('POST', 'flow-rules', {
    flowType: 'ANOMALYLEARN',
    name: `^${name}$`,
    count: 1,
    status: 'FAILED',
    message,
  });
  await h.command(
    `learn workspace=${SEED.workspaces.pumpStation} signals=${SEED.signals.temperature}:temperature range="2026-11-20 to 2026-11-21" name=${name}`,
    { channel: OPS },
  );
  const announced = await h.slack.waitFor(
    () =>
      h.slack
        .messages(OPS)
        .find((m) => m.user === h.slack.botUserId && !m.threadTs && seen(m).includes(name)),
    5_000,
    `the announcement of ${name}`,
  );
  const flowId = /flow (\d{19})/.exec(announced.text)?.[1] ?? '';
  expect(flowId).not.toBe('');
  const notice = await h.slack.waitFor(
    () => h.slack.messages(OPS, { threadTs: announced.ts }).find((m) => m.threadTs === announced.ts),
    10_000,
    'the end notice in the thread',
  );
  // The tracker writes a round's outcome to the store once Slack has been told.
  await waitUntil(
    async () =>
      expect(
        (await h.store.getTrackedFlow({ teamId: 'T0LOCAL', flowId: flowId }))?.notifiedAt ?? null,
      ).not.toBeNull(),
    { timeout: 5_000 },
  );
  return { flowId, notice };
}

describe("a failed flow's reason is shown wherever the flow is", () => {
  let flowId: string;
  beforeAll(async () => {
    const failed = await failedLearn('fails-with-reason', REASON);
    flowId = failed.flowId;
    expect(seen(failed.notice)).toContain(REASON);
  });

  it('in the thread notice at its end, with what to do next', async () => {
    const notice = h.slack.messages(OPS).find((m) => m.threadTs && seen(m).includes(flowId));
    expect(seen(notice)).toContain(`The service said:* ${REASON}`);
    expect(seen(notice)).toContain('Reopen with my inputs');
  });

  it('in /tsai flows', async () => {
    const list = await h.commandAndReply('flows 5', { channel: OPS });
    const line = seen(list);
    expect(line).toContain(flowId);
    expect(line).toMatch(new RegExp(`\\*FAILED\\* after [^"]*The service said: ${REASON}`));
  });

  it('in /tsai flow <id>: as followed, and in what the service says now', async () => {
    const one = seen(await h.commandAndReply(`flow ${flowId}`, { channel: OPS }));
    expect(one).toMatch(new RegExp(`\\*FAILED\\* after [^"]*The service said: ${REASON}`));
    expect(one).toContain('The service says now:');
    expect(one).toContain(`*The service said*\\n${REASON}`);
    // No ISO timestamp reaches the person: the update time is a Slack date.
    expect(one).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
  });

  it('in the Home tab', async () => {
    const before = h.slack.state.home.get(ALICE)?.hash;
    expect((await h.slack.openHome({ user: ALICE })).status).toBe(200);
    const home = await h.slack.waitFor(
      () => {
        const v = h.slack.state.home.get(ALICE);
        return v && v.hash !== before && textsOf(v.view.blocks).some((t) => t.includes(flowId))
          ? v
          : undefined;
      },
      8_000,
      "Alice's Home with the failed flow",
    );
    const text = textsOf(home.view.blocks).find((t) => t.includes(flowId)) ?? '';
    expect(text).toContain('*FAILED*');
    expect(text).toContain(`The service said: ${REASON}`);
  });

  it('escaped, so a reason cannot ping a channel', async () => {
    const { flowId: other } = await failedLearn('fails-with-mention', 'baseline <2 days for <!here>');
    const list = seen(await h.commandAndReply('flows 5', { channel: OPS }));
    expect(list).toContain(other);
    expect(list).toContain('The service said: baseline &lt;2 days for &lt;!here&gt;');
    expect(list).not.toContain('<!here>');
  });
});
