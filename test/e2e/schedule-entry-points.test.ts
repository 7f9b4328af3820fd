// The two other ways into a schedule, through the real bot over signed HTTP: a form's "Repeat" field, and
// "Run this every …" under a completed flow. Both end in the one schedule path; nothing runs now.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldActionId, MODAL_ACTION, MODAL_CALLBACK } from '../../src/slack/forms/views/ids.js';
import { decodeMeta } from '../../src/slack/forms/views/metadata.js';
import { REPEAT_FLOW } from '../../src/slack/views/schedule-actions.js';
import { checkBlockKitLimits } from '../../src/wire/block-kit.js';
import { SEED } from '../../standins/emulator/index.js';
import {
  DEFAULT_CHANNELS,
  DEFAULT_USERS,
  type LocalMessage,
  type OpenView,
} from '../../standins/localslack/index.js';
import { type Harness, startHarness } from '../support/harness.js';

const W = SEED.workspaces.pumpStation;
const T = SEED.signals.temperature;
const OPS = 'C0OPS';
const ALICE = 'U0ALICE';
// Friday 27 November 2026, 05:00 in London (UTC+0): Alice's zone.
const NOW = Date.UTC(2026, 10, 27, 5, 0);

// biome-ignore lint/suspicious/noExplicitAny: tests read Block Kit JSON by path
type Block = Record<string, any>;
const seen = (m: LocalMessage | undefined) => (m ? `${m.text}\n${JSON.stringify(m.blocks ?? [])}` : '');

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    now: new Date(NOW),
    flowDelays: { runningAfterMs: 300, completedAfterMs: 1_000 },
    env: { TSAI_TRACK_FIRST_POLL: '100ms', TSAI_TRACK_MAX_INTERVAL: '400ms' },
    users: DEFAULT_USERS,
    channels: DEFAULT_CHANNELS,
  });
});
afterAll(async () => {
  await h?.close();
});

const botMessages = (channel: string) =>
  h.slack.messages(channel).filter((m) => m.user === h.slack.botUserId);
const learnsSent = async () =>
  (await h.serviceRequests()).filter(
    (r) => r.method === 'POST' && (r.body as Block | undefined)?.spec?.dataspec !== undefined,
  );

function topModal(callbackId: string, notId?: string, zoned = true): Promise<OpenView> {
  return h.slack.waitFor(
    (s) => {
      const v = s.topView(ALICE);
      if (!v || v.view.callback_id !== callbackId || v.id === notId) return undefined;
      if (!zoned) return v;
      return decodeMeta(v.view.private_metadata as string)?.timeZone ? v : undefined;
    },
    5_000,
    `modal ${callbackId}`,
  );
}

async function pick(v: OpenView, blockId: string, typed: string, multi = false) {
  const d = await h.slack.sendOptionsRequest({
    user: ALICE,
    viewId: v.id,
    blockId,
    actionId: fieldActionId(blockId),
    value: typed,
  });
  const first = d.options?.[0]?.value;
  if (!first) throw new Error(`nothing offered for ${typed}`);
  return { [blockId]: { [fieldActionId(blockId)]: multi ? [first] : first } };
}
const text = (blockId: string, value: string) => ({ [blockId]: { [fieldActionId(blockId)]: value } });
const range = (key: number, value: string) => ({ [`range_${key}`]: { [MODAL_ACTION.range]: value } });

async function openLearn(): Promise<OpenView> {
  const before = h.slack.topView(ALICE)?.id;
  await h.command('learn', { channel: OPS });
  return topModal(MODAL_CALLBACK.learn, before);
}

/** Sends Alice's learn form with the demo workspace and temperature signal, one range and these fields. */
async function submitLearn(v: OpenView, rangeText: string, fields: Record<string, string>) {
  return h.slack.submitView({
    user: ALICE,
    viewId: v.id,
    values: {
      ...(await pick(v, 'workspace', W)),
      ...(await pick(v, 'signals', `${T}:temperature`, true)),
      ...range(1, rangeText),
      ...Object.assign({}, ...Object.entries(fields).map(([k, x]) => text(k, x))),
    },
  });
}

describe('a form with Repeat', () => {
  it('every form shows the optional Repeat field, within Block Kit limits', async () => {
    for (const [command, callback] of [
      ['learn', MODAL_CALLBACK.learn],
      ['score', MODAL_CALLBACK.score],
      ['eval', MODAL_CALLBACK.eval],
      ['relearn', MODAL_CALLBACK.relearn],
    ] as const) {
      const before = h.slack.topView(ALICE)?.id;
      await h.command(command, { channel: OPS });
      const v = await topModal(callback!, before);
      const repeat = (v.view.blocks as Block[]).find((b) => b.block_id === 'repeat');
      expect(repeat?.optional).toBe(true);
      expect(repeat?.label.text).toBe('Repeat (optional)');
      expect(repeat?.element.placeholder.text).toBe('every weekday at 06:00');
      expect(checkBlockKitLimits(v.view, 'modal')).toEqual([]);
    }
  });

  it('an unreadable "when" is an error under the field with an example; nothing runs', async () => {
    await h.clearServiceRequests();
    const v = await openLearn();
    const d = await submitLearn(v, 'last 8 hours', { repeat: 'whenever it suits' });
    expect(Object.keys(d.errors ?? {})).toEqual(['repeat']);
    expect(d.errors?.repeat).toContain('For example: every weekday at 06:00');
    expect(h.slack.topView(ALICE)?.id).toBe(v.id);

    // A fixed past range with a Repeat: every run would read the same data; said under the range.
    const fixed = await submitLearn(v, 'Nov 1 to Nov 3', { repeat: 'every weekday at 06:00' });
    expect(Object.keys(fixed.errors ?? {})).toEqual(['range_1']);
    expect(fixed.errors?.range_1).toContain('last 8 hours');
    expect(await learnsSent()).toEqual([]);
  });

  it('a valid Repeat makes a schedule of the form’s command, listed by /tsai schedules, and starts nothing now', async () => {
    await h.clearServiceRequests();
    const v = await openLearn();
    const d = await submitLearn(v, 'last 8 hours', { name: 'shiftly', repeat: 'every weekday at 06:00' });
    expect(d.errors ?? {}).toEqual({});
    const schedule = await waitForSchedule((x) => x.command.includes('name=shiftly'));
    expect(schedule).toMatchObject({ status: 'active', ownerId: ALICE, whenText: 'every weekday at 06:00' });
    expect(schedule.command).toMatch(/^learn /);
    expect(schedule.command).toContain('range="last 8 hours"');
    expect(schedule.nextRunAt).toBe(Date.UTC(2026, 10, 27, 6));
    const created = await h.slack.waitFor(
      () =>
        botMessages(OPS).find(
          (m) => /every weekday at 06:00/.test(seen(m)) && /Europe\/London/.test(seen(m)),
        ),
      5_000,
      'the new schedule in the channel',
    );
    expect(seen(created)).toContain(`<!date^${Date.UTC(2026, 10, 27, 6) / 1000}^`);
    const list = await h.commandAndReply('schedules', { channel: OPS });
    expect(seen(list)).toContain('name=shiftly');
    expect(seen(list)).toContain('every weekday at 06:00 (Europe/London)');
    expect(await learnsSent()).toEqual([]);
  });
});

async function waitForSchedule(match: (s: { command: string; name: string }) => boolean) {
  for (let i = 0; i < 500; i++) {
    const found = (await h.store.listSchedules({ channelId: OPS })).find(match);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('no such schedule');
}

describe('Run this every … under a completed flow', () => {
  it('opens a small modal with the flow’s command and makes a schedule of it', async () => {
    await h.clearServiceRequests();
    await h.command(`learn workspace=${W} signals=${T}:temperature range="last 8 hours" name=repeatme`, {
      channel: OPS,
    });
    const reply = await h.slack.waitFor(
      () =>
        h.slack
          .messages(OPS)
          .find((m) => m.user === h.slack.botUserId && m.threadTs && /completed after/.test(m.text)),
      15_000,
      'the completion reply',
    );
    const button = ((reply.blocks ?? []) as Block[])
      .filter((b) => b.type === 'actions')
      .flatMap((b) => b.elements as Block[])
      .find((e) => e.action_id === REPEAT_FLOW.action);
    expect(button?.text.text).toBe('Run this every …');
    const before = h.slack.topView(ALICE)?.id;
    await h.slack.clickButton({
      user: ALICE,
      channel: OPS,
      messageTs: reply.ts,
      actionId: REPEAT_FLOW.action,
    });
    const v = await topModal(REPEAT_FLOW.callback, before, false);
    expect(checkBlockKitLimits(v.view, 'modal')).toEqual([]);
    const blocks = v.view.blocks as Block[];
    const when = blocks.find((b) => b.block_id === REPEAT_FLOW.whenBlock);
    const command = blocks.find((b) => b.block_id === REPEAT_FLOW.commandBlock);
    expect(when?.element.initial_value).toBe('every weekday at 06:00');
    expect(command?.element.initial_value).toContain('name=repeatme');
    expect(command?.element.initial_value).toContain('last 8 hours');

    const bad = await h.slack.submitView({
      user: ALICE,
      viewId: v.id,
      values: {
        [REPEAT_FLOW.whenBlock]: { [REPEAT_FLOW.whenInput]: 'sometimes' },
        [REPEAT_FLOW.commandBlock]: { [REPEAT_FLOW.commandInput]: command?.element.initial_value },
      },
    });
    expect(Object.keys(bad.errors ?? {})).toEqual([REPEAT_FLOW.whenBlock]);
    await h.clearServiceRequests();
    const ok = await h.slack.submitView({
      user: ALICE,
      viewId: v.id,
      values: {
        [REPEAT_FLOW.whenBlock]: { [REPEAT_FLOW.whenInput]: 'every Monday at 7' },
        [REPEAT_FLOW.commandBlock]: { [REPEAT_FLOW.commandInput]: command?.element.initial_value },
      },
    });
    expect(ok.errors ?? {}).toEqual({});
    const schedule = await waitForSchedule((x) => x.command.includes('name=repeatme'));
    expect(schedule).toMatchObject({ status: 'active', ownerId: ALICE, whenText: 'every Monday at 7' });
    expect(schedule.nextRunAt).toBe(Date.UTC(2026, 10, 30, 7));
    expect(await learnsSent()).toEqual([]);
  });

  it('says in the modal that a fixed past range should be relative', async () => {
    await h.command(`learn workspace=${W} signals=${T}:temperature range="Nov 1 to Nov 3" name=fixedone`, {
      channel: OPS,
    });
    const reply = await h.slack.waitFor(
      () =>
        h.slack
          .messages(OPS)
          .find(
            (m) =>
              m.user === h.slack.botUserId &&
              m.threadTs &&
              /completed after/.test(m.text) &&
              h.slack.messages(OPS).some((a) => a.ts === m.threadTs && /fixedone/.test(seen(a))),
          ),
      15_000,
      'the completion reply',
    );
    const before = h.slack.topView(ALICE)?.id;
    await h.slack.clickButton({
      user: ALICE,
      channel: OPS,
      messageTs: reply.ts,
      actionId: REPEAT_FLOW.action,
    });
    const v = await topModal(REPEAT_FLOW.callback, before, false);
    const command = (v.view.blocks as Block[]).find((b) => b.block_id === REPEAT_FLOW.commandBlock);
    expect(command?.hint.text).toMatch(/fixed dates/);
    expect(command?.hint.text).toContain('last 8 hours');
  });
});
