import { beforeEach, describe, expect, it } from 'vitest';
import {
  fieldActionId,
  MODAL_ACTION,
  MODAL_CALLBACK,
  RANGE_ACTIONS_BLOCK,
  removeRangeActionId,
  SHORTCUT_CALLBACK,
} from '../../src/slack/forms/views/ids.js';
import { decodeMeta } from '../../src/slack/forms/views/metadata.js';
import { describeRange } from '../../src/time/index.js';
import { checkBlockKitLimits } from '../../src/wire/block-kit.js';
import { SEED } from '../../standins/emulator/index.js';
import type { LocalMessage, OpenView } from '../../standins/localslack/index.js';
import { stackForThisSuite } from '../support/fixtures/stack.js';
import { DEFAULT_CHANNEL, DEFAULT_USER, type Harness } from '../support/harness.js';
import { registerSecrets } from '../support/logs.js';

const S = SEED;
const ACC = S.accountId;
const W = S.workspaces.pumpStation;
const T = S.signals.temperature;
const P = S.signals.pressure;
const M = S.models.temperatureAnomaly;
const USER = DEFAULT_USER; // alice, Europe/London (GMT in November)
const CH = DEFAULT_CHANNEL;

// biome-ignore lint/suspicious/noExplicitAny: tests read Block Kit JSON by path
type Block = Record<string, any>;

let h: Harness;
stackForThisSuite((started) => {
  h = started;
});
beforeEach(async () => {
  await h.clearFaults();
  await h.clearServiceRequests();
});

const blocksOf = (v: OpenView) => v.view.blocks as Block[];
const blockOf = (v: OpenView, id: string) => blocksOf(v).find((b) => b.block_id === id);
const initial = (v: OpenView, id: string) => {
  const el = blockOf(v, id)?.element;
  const many = el?.initial_options as { value: string }[] | undefined;
  return (
    el?.initial_value ??
    el?.initial_option?.value ??
    el?.initial_conversation ??
    many?.map((o) => o.value).join('\n')
  );
};
const ns = (iso: string) => BigInt(Date.parse(iso)) * 1_000_000n;
const seen = (m: LocalMessage) => `${m.text}\n${JSON.stringify(m.blocks ?? [])}`;

/** The user's top modal once the bot has updated it after opening (zone known), and not `notId`. */
function modal(callbackId: string, notId?: string): Promise<OpenView> {
  return h.slack.waitFor(
    (s) => {
      const v = s.topView(USER);
      if (!v || v.view.callback_id !== callbackId || v.id === notId) return undefined;
      return decodeMeta(v.view.private_metadata as string)?.timeZone ? v : undefined;
    },
    5000,
    `modal ${callbackId}`,
  );
}

async function openFromCommand(text: string, callbackId: string): Promise<OpenView> {
  const before = h.slack.topView(USER)?.id;
  const delivery = await h.command(text);
  expect(delivery.status).toBe(200);
  return modal(callbackId, before);
}

/** Presses Enter in / clicks an element of the modal and waits for the bot's views.update. */
async function act(v: OpenView, blockId: string, actionId: string, value?: unknown): Promise<void> {
  const hash = v.hash;
  const d = await h.slack.sendViewAction({ user: USER, viewId: v.id, blockId, actionId, value });
  expect(d.status).toBe(200);
  await h.slack.waitFor(
    () => h.slack.topView(USER)?.hash !== hash || undefined,
    5000,
    `update after ${actionId}`,
  );
}

const text = (blockId: string, value: string) => ({ [blockId]: { [fieldActionId(blockId)]: value } });

/**
 * The user types each text into a type-ahead field and picks the first option the bot offers for it (an
 * ID it has not seen is offered as "use ID …", `id:label` in a signal field keeps the label).
 */
async function pickIn(hx: Harness, user: string, v: OpenView, blockId: string, ...typed: string[]) {
  const picked: string[] = [];
  for (const value of typed) {
    const actionId = fieldActionId(blockId);
    const d = await hx.slack.sendOptionsRequest({ user, viewId: v.id, blockId, actionId, value });
    const first = d.options?.[0]?.value;
    if (d.status !== 200 || !first) throw new Error(`the bot offered nothing for "${value}" in ${blockId}`);
    picked.push(first);
  }
  const multi = blockId === 'signals' || blockId === 'outputs';
  return { [blockId]: { [fieldActionId(blockId)]: multi ? picked : picked[0] } };
}
const pick = (v: OpenView, blockId: string, ...typed: string[]) => pickIn(h, USER, v, blockId, ...typed);
const range = (key: number, value: string) => ({ [`range_${key}`]: { [MODAL_ACTION.range]: value } });

/** The next message `user` sees in the channel after `before`. */
function nextMessage(before: Set<string>, channel = CH, user = USER): Promise<LocalMessage> {
  return h.slack.waitFor(
    (s) =>
      s.messages(channel, { user }).find((m) => !before.has(m.ts) && m.user !== user && m.kind !== 'command'),
    5000,
    'a message after the submission',
  );
}
/** Polls a condition the Slack stand-in cannot signal (e.g. a log line); fails after 5 s. */
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 250 && !cond(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(cond()).toBe(true);
}
const tsSet = (channel = CH) => new Set(h.slack.messages(channel, { user: USER }).map((m) => m.ts));

describe('opening the modals', () => {
  it.each([
    [`learn workspace=${W}`, 'learn', { workspace: W, data_mode: 'new' }],
    [`relearn ${M}`, 'relearn', { model: M }],
    [
      `score ${M} workspace=${W} prefix=pump/scores`,
      'score',
      { model: M, workspace: W, prefix: 'pump/scores', output_mode: 'prefix' },
    ],
    [
      `eval ${S.assessments.temperature} range=yesterday`,
      'eval',
      { assessment: S.assessments.temperature, range_1: 'yesterday' },
    ],
  ] as const)('/tsai %s opens the %s modal prefilled with what was given', async (cmd, kind, expected) => {
    const v = await openFromCommand(cmd, MODAL_CALLBACK[kind]);
    for (const [blockId, value] of Object.entries(expected)) expect(initial(v, blockId), blockId).toBe(value);
    const meta = decodeMeta(v.view.private_metadata as string)!;
    expect(meta).toMatchObject({
      kind,
      channel: CH,
      origin: 'command',
      timeZone: 'Europe/London',
      userName: 'alice',
    });
    expect(blockOf(v, 'channel')).toBeUndefined();
    // Opened at once, then updated (zone, default name) guarded by the hash views.open returned.
    const opened = h.slack.calls.find(
      (c) => c.method === 'views.open' && c.response.view && (c.response.view as Block).id === v.id,
    );
    const update = h.slack.calls.find((c) => c.method === 'views.update' && c.args.view_id === v.id);
    expect(update?.args.hash).toBe((opened!.response.view as Block).hash);
    expect(await h.askedOfService()).toEqual([]);
    // Nothing was posted: the modal is the answer.
    expect(
      h.slack.messages(CH, { user: USER }).filter((m) => m.kind !== 'command' && m.user !== USER),
    ).toEqual([]);
  });

  it('an EVAL prefilled with a range shows how it was understood', async () => {
    const v = await openFromCommand(`eval ${S.assessments.temperature} range=yesterday`, MODAL_CALLBACK.eval);
    const expected = describeRange(
      { startNs: ns('2026-11-21T00:00:00Z'), endNs: ns('2026-11-22T00:00:00Z') },
      'Europe/London',
    );
    expect(blockOf(v, 'range_1')?.hint.text).toBe(`✅ ${expected}`);
    expect(blockOf(v, 'overwrite_warning')?.text.text).toMatch(/already evaluated is overwritten/);
  });

  it.each(Object.entries(SHORTCUT_CALLBACK))(
    'the %s shortcut opens its modal and asks for the channel',
    async (kind, callbackId) => {
      const before = h.slack.topView(USER)?.id;
      const d = await h.slack.sendShortcut({ user: USER, callbackId });
      expect(d.status).toBe(200);
      const v = await modal(MODAL_CALLBACK[kind as keyof typeof MODAL_CALLBACK], before);
      expect(blockOf(v, 'channel')?.element.type).toBe('conversations_select');
      expect(decodeMeta(v.view.private_metadata as string)).toMatchObject({
        kind,
        origin: 'shortcut',
        channel: undefined,
      });
    },
  );
});

describe('time-range preview', () => {
  it('updates in place on Enter, adds and removes ranges, and keeps every typed value', async () => {
    const v = await openFromCommand('learn', MODAL_CALLBACK.learn);
    const signals = await pick(v, 'signals', T);
    h.slack.typeIntoView({
      user: USER,
      viewId: v.id,
      blockId: 'signals',
      actionId: fieldActionId('signals'),
      value: signals.signals!.signals_value,
    });

    await act(v, 'range_1', MODAL_ACTION.range, 'yesterday 9am to 5pm');
    let top = h.slack.topView(USER)!;
    const yesterday = describeRange(
      { startNs: ns('2026-11-21T09:00:00Z'), endNs: ns('2026-11-21T17:00:00Z') },
      'Europe/London',
    );
    expect(blockOf(top, 'range_1')?.hint.text).toBe(`✅ ${yesterday}`);
    expect(yesterday).toBe('Sat 21 Nov 09:00 – 17:00 GMT');

    await act(top, RANGE_ACTIONS_BLOCK, MODAL_ACTION.addRange);
    top = h.slack.topView(USER)!;
    expect(blockOf(top, 'range_2')).toBeDefined();
    await act(top, 'range_2', MODAL_ACTION.range, 'the day the pump broke');
    top = h.slack.topView(USER)!;
    expect(blockOf(top, 'range_2')?.hint.text).toMatch(/^⚠️ .+/);
    expect(blockOf(top, 'range_1')?.hint.text).toBe(`✅ ${yesterday}`);

    await act(top, RANGE_ACTIONS_BLOCK, removeRangeActionId(1));
    top = h.slack.topView(USER)!;
    expect(blockOf(top, 'range_1')).toBeUndefined();
    expect(initial(top, 'range_2')).toBe('the day the pump broke');
    expect(blockOf(top, 'range_2')?.label.text).toBe('Time range');
    expect(initial(top, 'signals')).toBe(T);
    // The removed key is never reused: the next range is range_3.
    await act(top, RANGE_ACTIONS_BLOCK, MODAL_ACTION.addRange);
    expect(blockOf(h.slack.topView(USER)!, 'range_3')).toBeDefined();
    expect(await h.askedOfService()).toEqual([]);
  });

  it("reads the channel's shifts as a command does: previewed, then sent exactly", async () => {
    await h.commandAndReply('use shifts=06:00,14:00,22:00');
    try {
      const v = await openFromCommand(`learn workspace=${W}`, MODAL_CALLBACK.learn);
      // Sunday 10:00 in London: the 06:00 shift is going on, the one over is Saturday's 22:00 shift.
      await act(v, 'range_1', MODAL_ACTION.range, 'last shift');
      const top = h.slack.topView(USER)!;
      expect(blockOf(top, 'range_1')?.hint.text).toBe(
        '✅ Sat 21 Nov 22:00 – Sun 22 Nov 06:00 GMT [22:00 shift = 22:00–06:00]',
      );
      const values = { ...(await pick(top, 'signals', T)), ...range(1, 'last shift') };
      const before = tsSet();
      const d = await h.slack.submitView({ user: USER, viewId: top.id, values });
      expect(d.errors).toBeUndefined();
      await nextMessage(before);
      // What the bot asked: the reads of flows it follows from earlier tests may come at any moment.
      const body = (await h.askedOfService()).at(-1)?.body as {
        spec: { dataspec: { specs: { timeRanges: unknown }[] } };
      };
      expect(body.spec.dataspec.specs[0]!.timeRanges).toEqual([
        { startTime: '2026-11-21T22:00:00Z', endTime: '2026-11-22T06:00:00Z' },
      ]);
    } finally {
      await h.commandAndReply('use clear');
    }
  });
});

describe('submission', () => {
  it('several bad fields: every error at once, and nothing reaches the service', async () => {
    const v = await openFromCommand('learn', MODAL_CALLBACK.learn);
    await act(v, RANGE_ACTIONS_BLOCK, MODAL_ACTION.addRange);
    // Only what the bot offers can be picked: text that is neither a name it knows nor an ID gets nothing.
    const nothing = await h.slack.sendOptionsRequest({
      user: USER,
      viewId: v.id,
      blockId: 'workspace',
      actionId: fieldActionId('workspace'),
      value: 'W123',
    });
    expect(nothing.options).toEqual([]);
    const d = await h.slack.submitView({
      user: USER,
      viewId: v.id,
      values: {
        ...(await pick(v, 'workspace', W)),
        ...(await pick(v, 'signals', P)),
        ...(await pick(v, 'dataspec_id', S.dataspec)),
        ...range(1, 'Nov 1 to Nov 3'),
        ...range(2, 'Nov 2 9am to 5pm'),
      },
    });
    expect(d.delivered).toBe(true);
    expect(Object.keys(d.errors ?? {}).sort()).toEqual(['dataspec_id', 'range_2']);
    expect(d.errors?.dataspec_id).toMatch(/clear this field, or choose "Reuse"/);
    expect(d.errors?.range_2).toMatch(/overlaps time range 1/);
    expect(h.slack.topView(USER)?.id).toBe(v.id);

    const s = await openFromCommand(`score ${M} workspace=${W}`, MODAL_CALLBACK.score);
    const ds = await h.slack.submitView({
      user: USER,
      viewId: s.id,
      values: {
        ...range(1, 'tomorrow'),
        ...text('prefix', 'p'),
        ...(await pick(s, 'outputs', `${T}:anomaly_score`)),
      },
    });
    // Scoring reads data, so a range not yet over is refused as for EVAL.
    expect(Object.keys(ds.errors ?? {}).sort()).toEqual([
      'output_mode',
      'outputs',
      'prefix',
      'range_1',
      'signals',
    ]);
    expect(ds.errors?.range_1).toMatch(/ends in the future/);

    const e = await openFromCommand(`eval ${S.assessments.temperature}`, MODAL_CALLBACK.eval);
    const de = await h.slack.submitView({
      user: USER,
      viewId: e.id,
      values: {
        ...(await pick(e, 'datastream', S.datastream)),
        ...(await pick(e, 'model', M)),
        ...text('entities', 'pump-1'),
        ...range(1, 'tomorrow 9am to 5pm'),
      },
    });
    expect(Object.keys(de.errors ?? {}).sort()).toEqual(['range_1']);
    expect(de.errors?.range_1).toMatch(/future/);
    expect(await h.askedOfService()).toEqual([]);
  });

  it('a valid Learn form creates exactly the right flow and posts the command-path message in the channel', async () => {
    const v = await openFromCommand(`learn workspace=${W}`, MODAL_CALLBACK.learn);
    await act(v, RANGE_ACTIONS_BLOCK, MODAL_ACTION.addRange);
    const before = tsSet();
    const d = await h.slack.submitView({
      user: USER,
      viewId: v.id,
      values: {
        ...text('name', 'Pump A baseline'),
        ...text('description', 'Normal operation, November'),
        ...text('model_name', 'pump A model'),
        ...(await pick(v, 'signals', `${T}:temperature`, P)),
        ...range(1, 'yesterday 9am to 5pm'),
        ...range(2, 'Nov 1 to Nov 3'),
        ...text('dataspec_name', 'november baseline'),
      },
    });
    expect(d.errors).toBeUndefined();
    expect(h.slack.topView(USER)).toBeUndefined();
    const reply = await nextMessage(before);
    const requests = await h.askedOfService();
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([`POST /api/1.3/accounts/${ACC}/flows`]);
    expect(requests[0]!.body).toEqual({
      flowType: 'ANOMALYLEARN',
      name: 'Pump A baseline',
      description: 'Normal operation, November',
      spec: {
        workspace: W,
        modelName: 'pump A model',
        dataspec: {
          name: 'november baseline',
          specs: [
            {
              timeRanges: [
                { startTime: '2026-11-01T00:00:00Z', endTime: '2026-11-04T00:00:00Z' },
                { startTime: '2026-11-21T09:00:00Z', endTime: '2026-11-21T17:00:00Z' },
              ],
              signals: [
                { signal: T, name: 'temperature' },
                { signal: P, name: P },
              ],
            },
          ],
        },
      },
    });
    expect(reply.ephemeralTo).toBeUndefined();
    const s = seen(reply);
    expect(s).toContain('<@U0ALICE> started an ANOMALYLEARN flow');
    expect(s).toMatch(/\*Flow ID\*\\n`14\d{17}`/);
    expect(s).toContain('CREATED');
    expect(s).toContain('Sat 21 Nov 09:00 – 17:00 GMT');
    expect(s).toContain(`Run by <@U0ALICE>: \`/tsai learn workspace=${W}`);
  });

  it('valid Relearn and Score forms create exactly the right flows', async () => {
    const r = await openFromCommand(`relearn ${M} workspace=${W}`, MODAL_CALLBACK.relearn);
    let before = tsSet();
    await h.slack.submitView({
      user: USER,
      viewId: r.id,
      values: {
        ...(await pick(r, 'signals', `${P}:pressure`)),
        ...range(1, '2026-11-15 06:00 to 2026-11-15 18:00'),
      },
    });
    await nextMessage(before);
    let requests = await h.askedOfService();
    expect(requests.map((q) => `${q.method} ${q.path}`)).toEqual([`POST /api/1.3/accounts/${ACC}/flows`]);
    const name = 'relearn by @alice 2026-11-22 10:00Z';
    expect(requests[0]!.body).toEqual({
      flowType: 'ANOMALYLEARN',
      name,
      spec: {
        model: M,
        workspace: W,
        dataspec: {
          name,
          specs: [
            {
              timeRanges: [{ startTime: '2026-11-15T06:00:00Z', endTime: '2026-11-15T18:00:00Z' }],
              signals: [{ signal: P, name: 'pressure' }],
            },
          ],
        },
      },
    });

    await h.clearServiceRequests();
    const sc = await openFromCommand(
      `score ${M} workspace=${W} dataspec=${S.dataspec}`,
      MODAL_CALLBACK.score,
    );
    before = tsSet();
    await h.slack.submitView({
      user: USER,
      viewId: sc.id,
      values: { ...text('name', 'pump scores'), ...text('prefix', 'pump-a/scores') },
    });
    const reply = await nextMessage(before);
    requests = await h.askedOfService();
    expect(requests.map((q) => `${q.method} ${q.path}`)).toEqual([`POST /api/1.3/accounts/${ACC}/flows`]);
    expect(requests[0]!.body).toEqual({
      flowType: 'ANOMALYEVAL',
      name: 'pump scores',
      spec: { model: M, workspace: W, dataspec: { id: S.dataspec }, outputsignalPrefix: 'pump-a/scores' },
    });
    expect(seen(reply)).toContain('started an ANOMALYEVAL flow');
  });

  it('EVAL from the shortcut: M[0] looked up on submit, exact flow body, posted in the chosen channel', async () => {
    const before = h.slack.topView(USER)?.id;
    await h.slack.sendShortcut({ user: USER, callbackId: SHORTCUT_CALLBACK.eval });
    const v = await modal(MODAL_CALLBACK.eval, before);
    const seenBefore = tsSet('C0GENERAL');
    const d = await h.slack.submitView({
      user: USER,
      viewId: v.id,
      values: {
        channel: { [fieldActionId('channel')]: 'C0GENERAL' },
        ...(await pick(v, 'assessment', S.assessments.temperature)),
        ...(await pick(v, 'datastream', S.datastream)),
        ...(await pick(v, 'model', M)),
        ...text('entities', 'pump-1\npump-2'),
        ...range(1, 'Nov 20 6am to Nov 20 18:00'),
      },
    });
    expect(d.errors).toBeUndefined();
    const reply = await nextMessage(seenBefore, 'C0GENERAL');
    const requests = await h.askedOfService();
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /api/1.2/accounts/${ACC}/models`,
      `POST /api/1.2/accounts/${ACC}/flows`,
    ]);
    expect(requests[1]!.body).toEqual({
      flowType: 'EVAL',
      name: 'eval by @alice 2026-11-22 10:00Z',
      datastream: S.datastream,
      assessment: S.assessments.temperature,
      model: M,
      spec: {
        commonModelId: S.models.temperatureCommon,
        segments: [
          {
            entities: ['pump-1', 'pump-2'],
            timeRange: {
              startTime: ns('2026-11-20T06:00:00Z').toString(),
              endTime: ns('2026-11-20T18:00:00Z').toString(),
            },
          },
        ],
        forLive: true,
        withEpisodes: true,
      },
    });
    expect(seen(reply)).toContain('<@U0ALICE> started an EVAL flow');
  });

  it('a service rejection offers "Reopen with my inputs", which restores every typed value', async () => {
    const v = await openFromCommand(`score ${M}`, MODAL_CALLBACK.score);
    await act(v, RANGE_ACTIONS_BLOCK, MODAL_ACTION.addRange);
    const typed = {
      ...text('name', 'night scoring'),
      ...text('description', 'pumps 1-2\nsecond line'),
      ...(await pick(v, 'workspace', W)),
      ...(await pick(v, 'signals', `${T}:temperature`, `${P}:pressure`)),
      ...range(1, 'Nov 10 to Nov 12'),
      ...range(2, 'yesterday 9am to 5pm'),
      ...text('dataspec_name', 'nightly'),
      output_mode: { [fieldActionId('output_mode')]: 'map' },
      // The model's output schema is `anomaly_score`: the service rejects this mapping.
      ...(await pick(v, 'outputs', `${S.signals.anomalyScore}:wrong_name`)),
    };
    const before = tsSet();
    const d = await h.slack.submitView({ user: USER, viewId: v.id, values: typed });
    expect(d.errors).toBeUndefined();
    const note = await nextMessage(before);
    expect(note.ephemeralTo).toBe(USER);
    expect(seen(note)).toMatch(/output schema/);
    const requests = await h.askedOfService();
    expect(requests).toHaveLength(1);
    expect(requests[0]!.body).toMatchObject({
      flowType: 'ANOMALYEVAL',
      spec: { outputsignals: [{ signal: S.signals.anomalyScore, name: 'wrong_name' }] },
    });

    const click = await h.slack.clickButton({
      user: USER,
      channel: CH,
      messageTs: note.ts,
      actionId: MODAL_ACTION.reopen,
    });
    expect(click.status).toBe(200);
    const reopened = await modal(MODAL_CALLBACK.score, v.id);
    expect(decodeMeta(reopened.view.private_metadata as string)).toMatchObject({
      origin: 'reopen',
      channel: CH,
      ranges: [1, 2],
    });
    const expected: Record<string, string> = {
      name: 'night scoring',
      description: 'pumps 1-2\nsecond line',
      model: M,
      workspace: W,
      data_mode: 'new',
      signals: `${T}:temperature\n${P}:pressure`,
      range_1: 'Nov 10 to Nov 12',
      range_2: 'yesterday 9am to 5pm',
      dataspec_name: 'nightly',
      output_mode: 'map',
      outputs: `${S.signals.anomalyScore}:wrong_name`,
    };
    for (const [blockId, value] of Object.entries(expected))
      expect(initial(reopened, blockId), blockId).toBe(value);
    expect(blockOf(reopened, 'range_1')?.hint.text).toMatch(/^✅ Tue 10 Nov 00:00 – Fri 13 Nov 00:00/);

    // Fixed and resubmitted, it goes through.
    const beforeFix = tsSet();
    const ok = await h.slack.submitView({
      user: USER,
      viewId: reopened.id,
      values: await pick(reopened, 'outputs', `${S.signals.anomalyScore}:anomaly_score`),
    });
    expect(ok.errors).toBeUndefined();
    const posted = await nextMessage(beforeFix);
    expect(seen(posted)).toContain('started an ANOMALYEVAL flow');
  });

  it('a token typed into a form that fails is masked in "Reopen with my inputs" too: never kept in Slack', async () => {
    const secret = 'xoxp-5d4c3b2a19080706f5e4d3c2b1a09f8e';
    registerSecrets(secret);
    const v = await openFromCommand(`score ${M} workspace=${W} dataspec=${S.dataspec}`, MODAL_CALLBACK.score);
    const before = tsSet();
    await h.slack.submitView({
      user: USER,
      viewId: v.id,
      values: {
        ...text('description', `pasted ${secret}`),
        ...(await pick(v, 'outputs', `${S.signals.anomalyScore}:nope`)),
      },
    });
    const note = await nextMessage(before);
    expect(seen(note)).toMatch(/output schema/);
    expect(seen(note)).not.toContain(secret);
    await h.slack.clickButton({ user: USER, channel: CH, messageTs: note.ts, actionId: MODAL_ACTION.reopen });
    const reopened = await modal(MODAL_CALLBACK.score, v.id);
    expect(initial(reopened, 'description')).toBe('pasted [a token-like value, not shown]');
  });

  it('a token typed into a command that opens its form is not carried into the form', async () => {
    const secret = 'xoxp-0a1b2c3d4e5f60718293a4b5c6d7e8f9';
    registerSecrets(secret);
    const v = await openFromCommand(`score ${M} name="pasted ${secret}"`, MODAL_CALLBACK.score);
    expect(initial(v, 'name')).toBe('pasted [a token-like value, not shown]');
    expect(JSON.stringify(v.view)).not.toContain(secret);
  });

  it("another user cannot reopen someone else's inputs", async () => {
    const v = await openFromCommand(`score ${M} workspace=${W} dataspec=${S.dataspec}`, MODAL_CALLBACK.score);
    const before = tsSet();
    await h.slack.submitView({
      user: USER,
      viewId: v.id,
      values: await pick(v, 'outputs', `${S.signals.anomalyScore}:nope`),
    });
    const note = await nextMessage(before);
    const button = (note.blocks as Block[])
      .flatMap((b) => b.elements ?? [])
      .find((e: Block) => e.action_id === MODAL_ACTION.reopen);
    expect(button?.value).toMatch(/^v1:/);
    // The message is ephemeral to alice; bob replays its button value with a valid trigger of his own.
    const bobBefore = h.slack.topView('U0BOB')?.id;
    const trigger = h.slack.state.issueTrigger('U0BOB');
    const d = await h.slack.signedPost(
      '/slack/events',
      new URLSearchParams({
        payload: JSON.stringify({
          type: 'block_actions',
          user: { id: 'U0BOB', username: 'bob', team_id: h.slack.teamId },
          team: { id: h.slack.teamId },
          api_app_id: h.slack.appId,
          trigger_id: trigger,
          container: { type: 'message', channel_id: CH, message_ts: note.ts, is_ephemeral: true },
          channel: { id: CH },
          actions: [
            { type: 'button', action_id: MODAL_ACTION.reopen, block_id: 'modal_reopen', value: button.value },
          ],
        }),
      }).toString(),
    );
    expect(d.status).toBe(200);
    await until(() => h.logs.some((l) => l.includes('reopen refused') && l.includes('U0BOB')));
    expect(h.slack.topView('U0BOB')?.id).toBe(bobBefore);
    expect(h.slack.calls.filter((c) => c.method === 'views.open' && c.args.trigger_id === trigger)).toEqual(
      [],
    );
  });
});

describe('malformed payloads', () => {
  it('a submission or range action with unreadable private_metadata is ignored, never sent on', async () => {
    const post = (payload: unknown) =>
      h.slack.signedPost(
        '/slack/events',
        new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
      );
    const user = { id: USER, username: 'alice', team_id: h.slack.teamId };
    const view = {
      id: 'V0FORGED',
      hash: 'h',
      callback_id: MODAL_CALLBACK.learn,
      private_metadata: '{not json',
      state: { values: { workspace: { workspace_value: { type: 'plain_text_input', value: W } } } },
    };
    const submitted = await post({ type: 'view_submission', user, team: { id: h.slack.teamId }, view });
    expect(submitted.status).toBe(200);
    const acted = await post({
      type: 'block_actions',
      user,
      team: { id: h.slack.teamId },
      container: { type: 'view', view_id: view.id },
      view,
      actions: [
        { type: 'button', action_id: MODAL_ACTION.addRange, block_id: RANGE_ACTIONS_BLOCK, value: 'add' },
      ],
    });
    expect(acted.status).toBe(200);
    await until(() => h.logs.some((l) => l.includes('without readable private_metadata')));
    expect(h.slack.calls.filter((c) => c.args.view_id === view.id)).toEqual([]);
    expect(await h.askedOfService()).toEqual([]);
  });
});

describe('large forms', () => {
  it('inputs too long for a button value are kept in the durable store and still restored', async () => {
    const v = await openFromCommand(`score ${M} workspace=${W}`, MODAL_CALLBACK.score);
    // 70 labelled signals plus a long description: more than the 2000 characters a button value holds.
    const typed = Array.from(
      { length: 70 },
      (_, i) => `10500000000000${String(10000 + i)}:sensor number ${i}`,
    );
    const signals = typed.join('\n');
    const description = 'd'.repeat(1500);
    const before = tsSet();
    const d = await h.slack.submitView({
      user: USER,
      viewId: v.id,
      values: {
        ...(await pick(v, 'signals', ...typed)),
        ...text('description', description),
        ...range(1, 'Nov 10 to Nov 12'),
        ...text('prefix', 'bad prefix with spaces'),
      },
    });
    // A bad prefix is caught before anything is sent.
    expect(d.errors).toEqual({ prefix: expect.any(String) });
    const ok = await h.slack.submitView({
      user: USER,
      viewId: v.id,
      values: {
        ...text('prefix', ''),
        ...(await pick(v, 'outputs', `${S.signals.anomalyScore}:not_in_schema`)),
      },
    });
    expect(ok.errors).toBeUndefined();
    const note = await nextMessage(before);
    const button = (note.blocks as Block[])
      .flatMap((b) => b.elements ?? [])
      .find((e: Block) => e.action_id === MODAL_ACTION.reopen);
    expect(button?.value).toMatch(/^draft:[0-9a-f-]{36}$/);
    const stored = await h.store.getState<{ draft: string }>(
      `modal-draft:${button.value.slice('draft:'.length)}`,
    );
    expect(stored?.draft).toContain('sensor number 69');

    await h.slack.clickButton({ user: USER, channel: CH, messageTs: note.ts, actionId: MODAL_ACTION.reopen });
    const reopened = await modal(MODAL_CALLBACK.score, v.id);
    expect(initial(reopened, 'signals')).toBe(signals);
    expect(initial(reopened, 'description')).toBe(description);
    expect(initial(reopened, 'outputs')).toBe(`${S.signals.anomalyScore}:not_in_schema`);
    expect(initial(reopened, 'range_1')).toBe('Nov 10 to Nov 12');
  });
});

describe('Block Kit limits', () => {
  it('every view and message the tests above produced is within limits', () => {
    const views = h.slack.calls.filter((c) => c.method === 'views.open' || c.method === 'views.update');
    expect(views.length).toBeGreaterThan(10);
    for (const c of views)
      expect(checkBlockKitLimits(c.args.view, 'modal'), JSON.stringify(c.args.view).slice(0, 200)).toEqual(
        [],
      );
    const posts = h.slack.calls.filter((c) => c.method.startsWith('chat.'));
    for (const c of posts) expect(checkBlockKitLimits({ blocks: c.args.blocks }, 'message')).toEqual([]);
    for (const r of h.slack.responses) expect(checkBlockKitLimits(r.body, 'message')).toEqual([]);
  });
});

describe('access policy and audit apply to form submissions (from a global shortcut too)', () => {
  let hh: Harness;
  stackForThisSuite(
    (started) => {
      hh = started;
    },
    { env: { TSAI_OPERATORS: USER } },
  );

  async function submitLearnFromShortcut(user: string) {
    const before = hh.slack.topView(user)?.id;
    await hh.slack.sendShortcut({ user, callbackId: SHORTCUT_CALLBACK.learn });
    const v = await hh.slack.waitFor(
      (s) => {
        const top = s.topView(user);
        return top && top.id !== before && decodeMeta(top.view.private_metadata as string)?.timeZone
          ? top
          : undefined;
      },
      5000,
      'learn modal',
    );
    const seenBefore = new Set(hh.slack.messages(CH, { user }).map((m) => m.ts));
    const d = await hh.slack.submitView({
      user,
      viewId: v.id,
      values: {
        channel: { [fieldActionId('channel')]: CH },
        ...(await pickIn(hh, user, v, 'workspace', W)),
        ...(await pickIn(hh, user, v, 'signals', T)),
        ...range(1, '2026-11-20 to 2026-11-21'),
      },
    });
    expect(d.errors).toBeUndefined();
    return hh.slack.waitFor(
      (s) => s.messages(CH, { user }).find((m) => !seenBefore.has(m.ts) && m.user !== user),
      5000,
      'reply',
    );
  }

  it('a refused user gets the reason privately, with their inputs kept, and nothing reaches the service', async () => {
    await hh.clearServiceRequests();
    const note = await submitLearnFromShortcut('U0CAROL');
    expect(note.ephemeralTo).toBe('U0CAROL');
    expect(seen(note)).toContain('You are not an operator');
    expect(seen(note)).toContain(MODAL_ACTION.reopen);
    expect(await hh.askedOfService()).toEqual([]);
    expect((await hh.store.listAudit()).map((e) => [e.operation, e.userId])).toEqual([
      ['policy.refused', 'U0CAROL'],
    ]);
  });

  it('a created flow is recorded with the equivalent command, user and channel', async () => {
    const reply = await submitLearnFromShortcut(USER);
    expect(seen(reply)).toContain('started an ANOMALYLEARN flow');
    const [entry] = await hh.store.listAudit({ operationPrefixes: ['flow.'] });
    expect(entry).toMatchObject({
      userId: USER,
      channelId: CH,
      operation: 'flow.ANOMALYLEARN',
      outcome: 'ok',
      flowId: expect.stringMatching(/^14\d{17}$/),
      params: { kind: 'learn', workspaceId: W },
    });
  });
});
