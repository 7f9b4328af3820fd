import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLOW_ACTION } from '../../src/slack/flows/views.js';
import { fieldActionId, MODAL_ACTION, MODAL_CALLBACK } from '../../src/slack/forms/views/ids.js';
import { decodeMeta } from '../../src/slack/forms/views/metadata.js';
import { SEED } from '../../standins/emulator/index.js';
import type { LocalMessage, OpenView } from '../../standins/localslack/index.js';
import { APPROVALS, APPROVER, OPS, REQUESTER, type Rig, startRig } from '../support/approvals-rig.js';
import { emulatorControl } from '../support/emulator.js';
import { manifestFunctionsOnDisk } from '../support/manifest-functions.js';

/**
 * A model's whole life, as the service reference describes it, through the real bot over signed HTTP
 * against the emulator's demo data: learn a model, take it live (approved), backfill what it would have
 * said over past days (EVAL), stop it. From commands, from the buttons each end notice offers, and as a
 * Workflow Builder workflow of the bot's steps. Each journey learns on a signal of its own: for an
 * anomaly model the assessment is the signal, and the model learned is that assessment's M[0].
 */

const W = SEED.workspaces.pumpStation;
const D = SEED.datastream;
const LEARN_RANGE = '2026-11-01 to 2026-11-08';
const BACKFILL_RANGE = '2026-11-20 09:00 to 17:00';

const FUNCTIONS = manifestFunctionsOnDisk();

let rig: Rig;
let control: ReturnType<typeof emulatorControl>;
beforeAll(async () => {
  rig = await startRig({
    flowDelays: { runningAfterMs: 200, completedAfterMs: 800 },
    env: { TSAI_TRACK_FIRST_POLL: '100ms', TSAI_TRACK_MAX_INTERVAL: '300ms' },
    backends: { functions: FUNCTIONS },
  });
  await rig.startBot();
  control = emulatorControl(rig.emulator.url);
});
afterAll(async () => {
  if (process.env.SHOW_LOGS) console.log(rig.logs.filter((l) => /"level":(40|50)/.test(l)).join('\n'));
  await rig?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: tests read Block Kit JSON by path
type Block = Record<string, any>;
const seen = (m: LocalMessage | undefined) => (m ? `${m.text}\n${JSON.stringify(m.blocks ?? [])}` : '');
const buttonsOf = (m: LocalMessage) =>
  ((m.blocks ?? []) as Block[])
    .filter((b) => b.type === 'actions')
    .flatMap((b) => (b.elements as Block[]).map((e) => e.action_id as string));
const bot = () => rig.slack.botUserId;

/** The bot's reply in a thread that tells a flow's end (`completed after`), once it comes. */
function endNotice(channel: string, threadTs: string, what: string): Promise<LocalMessage> {
  return rig.slack.waitFor(
    () =>
      rig.slack
        .messages(channel, { threadTs })
        .find((m) => m.user === bot() && m.threadTs === threadTs && /completed after/.test(m.text)),
    20_000,
    `the end notice of ${what}`,
  );
}

/** The bot's announcement in #ops of the flow named `name`. */
function announcement(name: string): Promise<LocalMessage> {
  return rig.slack.waitFor(
    () => rig.slack.messages(OPS).find((m) => m.user === bot() && !m.threadTs && seen(m).includes(name)),
    20_000,
    `the announcement of ${name}`,
  );
}

/** The approval request whose card names `reason`, approved by the approver; its card. */
async function approve(reason: string): Promise<LocalMessage> {
  const card = await rig.slack.waitFor(
    () =>
      rig.slack
        .messages(APPROVALS)
        .find(
          (m) => m.user === bot() && !m.threadTs && seen(m).includes(reason) && seen(m).includes('Approve'),
        ),
    20_000,
    `the request "${reason}"`,
  );
  await rig.click(APPROVER, card, 'approve');
  return card;
}

async function model(
  id: string,
): Promise<{ id: string; live?: boolean; assessment?: string; isCommonModel?: boolean }> {
  const state = (await control('GET', 'state')) as { models: { id: string }[] };
  return state.models.find((m) => m.id === id)!;
}

/** The EVAL flows the service accepted. */
async function evalPosts() {
  return (await rig.serviceRequests())
    .filter((r) => r.method === 'POST' && r.path.endsWith('/flows') && (r.status ?? 0) < 300)
    .map(
      (r) =>
        r.body as { flowType: string; assessment?: string; model?: string; spec: { commonModelId?: string } },
    )
    .filter((b) => b.flowType === 'EVAL');
}

/** Learns a model on `signal` from a command; its end notice and the model it created. */
async function learn(signal: string, name: string) {
  await rig.command(`learn workspace=${W} signals=${signal}:vibration range="${LEARN_RANGE}" name=${name}`);
  const ann = await announcement(name);
  const notice = await endNotice(OPS, ann.ts, name);
  const flowId = /flow (\d{19})/.exec(ann.text)![1]!;
  const state = (await control('GET', 'state')) as {
    flows: { id: string; outputs?: { type: string; id: string }[] }[];
  };
  const modelId = state.flows
    .find((f) => f.id === flowId)!
    .outputs!.find((o) => o.type === 'entities.model')!.id;
  return { notice, modelId };
}

async function modal(callbackId: string, notId?: string): Promise<OpenView> {
  return rig.slack.waitFor(
    (s) => {
      const v = s.topView(REQUESTER);
      if (!v || v.view.callback_id !== callbackId || v.id === notId) return undefined;
      return decodeMeta(v.view.private_metadata as string)?.timeZone ? v : undefined;
    },
    10_000,
    `the ${callbackId} form`,
  );
}

const initial = (v: OpenView, blockId: string) => {
  const el = (v.view.blocks as Block[]).find((b) => b.block_id === blockId)?.element;
  return el?.initial_value ?? el?.initial_option?.value;
};

describe("a model's whole life: learn, take it live, backfill, stop", () => {
  it('from commands: the learned model is its signal’s M[0], taken live, backfilled with EVAL and stopped', async () => {
    const S = SEED.signals.vibration;
    const { notice, modelId } = await learn(S, 'life-by-command');
    // The end notice names the model's assessment, and offers what its state allows: not a backfill yet.
    expect(seen(notice)).toContain(modelId);
    expect(seen(notice)).toContain('Assessment (its signal)');
    expect(buttonsOf(notice)).toContain(FLOW_ACTION['live-start']);
    expect(buttonsOf(notice)).not.toContain(FLOW_ACTION.eval);

    // The service knows the model's assessment: its common-model lookup names the model.
    expect(seen(await rig.command(`model common ${S}`))).toContain(modelId);

    await rig.command(`live start ${modelId} reason="life by command: go live"`);
    const startCard = await approve('life by command: go live');
    const live = await endNotice(APPROVALS, startCard.ts, 'the live start');
    expect(seen(live)).toContain('running');
    expect(buttonsOf(live)).toEqual(expect.arrayContaining([FLOW_ACTION.eval, FLOW_ACTION['live-stop']]));
    expect((await model(modelId)).live).toBe(true);

    await rig.command(
      `eval ${S} model=${modelId} datastream=${D} entities=pump-1 range="${BACKFILL_RANGE}" name=life-backfill`,
    );
    const backfill = await announcement('life-backfill');
    expect(seen(await endNotice(OPS, backfill.ts, 'the backfill'))).toContain('Backfilled');
    expect(await evalPosts()).toContainEqual(
      expect.objectContaining({
        assessment: S,
        model: modelId,
        spec: expect.objectContaining({ commonModelId: modelId }),
      }),
    );

    await rig.command(`live stop ${modelId} reason="life by command: stop"`);
    const stopCard = await approve('life by command: stop');
    expect(seen(await endNotice(APPROVALS, stopCard.ts, 'the live stop'))).toContain('stopped');
    expect((await model(modelId)).live).toBe(false);
  });

  it('from the buttons each end notice offers: Take it live, Backfill its output (its form filled in), Stop it', async () => {
    const S = SEED.signals.flowRate;
    const { notice, modelId } = await learn(S, 'life-by-buttons');

    await rig.slack.clickButton({
      user: REQUESTER,
      channel: OPS,
      messageTs: notice.ts,
      actionId: FLOW_ACTION['live-start']!,
    });
    // The button files the live start as the command would: the approvers decide it.
    const startCard = await approve(`asks to start live model \`${modelId}\``);
    const live = await endNotice(APPROVALS, startCard.ts, 'the live start');

    const shown = rig.slack.topView(REQUESTER)?.id;
    await rig.slack.clickButton({
      user: REQUESTER,
      channel: APPROVALS,
      messageTs: live.ts,
      actionId: FLOW_ACTION.eval!,
    });
    const form = await modal(MODAL_CALLBACK.eval, shown);
    expect(initial(form, 'assessment')).toBe(S);
    expect(initial(form, 'model')).toBe(modelId);
    const datastream = await rig.slack.sendOptionsRequest({
      user: REQUESTER,
      viewId: form.id,
      blockId: 'datastream',
      actionId: fieldActionId('datastream'),
      value: D,
    });
    const sent = await rig.slack.submitView({
      user: REQUESTER,
      viewId: form.id,
      values: {
        datastream: { [fieldActionId('datastream')]: datastream.options![0]!.value },
        entities: { [fieldActionId('entities')]: 'pump-2' },
        range_1: { [MODAL_ACTION.range]: BACKFILL_RANGE },
        name: { [fieldActionId('name')]: 'life-backfill-form' },
      },
    });
    expect(sent.errors).toBeUndefined();
    const backfill = await rig.slack.waitFor(
      () =>
        [OPS, APPROVALS]
          .flatMap((c) => rig.slack.messages(c))
          .find((m) => m.user === bot() && !m.threadTs && seen(m).includes('life-backfill-form')),
      20_000,
      'the backfill announcement',
    );
    await endNotice(backfill.channel, backfill.ts, 'the backfill');
    expect(await evalPosts()).toContainEqual(
      expect.objectContaining({
        assessment: S,
        model: modelId,
        spec: expect.objectContaining({ commonModelId: modelId }),
      }),
    );

    await rig.slack.clickButton({
      user: REQUESTER,
      channel: APPROVALS,
      messageTs: live.ts,
      actionId: FLOW_ACTION['live-stop']!,
    });
    const stopCard = await rig.slack.waitFor(
      () =>
        rig.slack
          .messages(APPROVALS)
          .find(
            (m) =>
              m.user === bot() && !m.threadTs && seen(m).includes(`asks to stop live model \`${modelId}\``),
          ),
      20_000,
      'the live stop request',
    );
    await rig.click(APPROVER, stopCard, 'approve');
    await endNotice(APPROVALS, stopCard.ts, 'the live stop');
    expect((await model(modelId)).live).toBe(false);
  });

  it('as a workflow of steps: learn, live start (approved), EVAL and live stop (approved), each taking the learn’s outputs', async () => {
    const S = SEED.signals.temperature;
    const run = await rig.slack.runWorkflow({
      user: REQUESTER,
      workflow: {
        name: 'A model’s life',
        steps: [
          {
            callbackId: 'tsai_learn',
            inputs: {
              workspace: W,
              signals: `${S}:temperature`,
              range: LEARN_RANGE,
              name: 'life-wf-learn',
              channel: OPS,
            },
          },
          {
            callbackId: 'tsai_live_start',
            inputs: { model: { fromStep: 0, output: 'model_id' }, reason: 'life workflow: go live' },
          },
          {
            callbackId: 'tsai_eval',
            inputs: {
              assessment: { fromStep: 0, output: 'assessment_id' },
              model: { fromStep: 0, output: 'model_id' },
              datastream: D,
              entities: 'pump-1,compressor-1',
              range: BACKFILL_RANGE,
              name: 'life-wf-backfill',
            },
          },
          {
            callbackId: 'tsai_live_stop',
            inputs: { model: { fromStep: 0, output: 'model_id' }, reason: 'life workflow: stop' },
          },
        ],
      },
    });
    await approve('life workflow: go live');
    await approve('life workflow: stop');
    const done = await rig.slack.waitFor(
      (s) => (s.workflow(run.id)?.state !== 'running' ? s.workflow(run.id) : undefined),
      60_000,
      'the workflow run to end',
    );
    expect(done.error).toBeUndefined();
    expect(done.state).toBe('completed');
    const [learned, started, backfilled, stopped] = done.executions.map((id) => rig.slack.execution(id)!);
    const modelId = String(learned!.outputs!.model_id);
    expect(learned!.outputs).toMatchObject({ status: 'COMPLETED', assessment_id: S, live: false });
    expect(started!.outputs).toMatchObject({ status: 'COMPLETED', model_id: modelId, live: true });
    expect(backfilled!.inputs).toMatchObject({ assessment: S, model: modelId });
    expect(backfilled!.outputs).toMatchObject({ status: 'COMPLETED', model_id: modelId, assessment_id: S });
    expect(String(backfilled!.outputs!.backfilled)).toContain('UTC');
    expect(stopped!.outputs).toMatchObject({ status: 'COMPLETED', model_id: modelId, live: false });
    expect(await model(modelId)).toMatchObject({ live: false, assessment: S, isCommonModel: true });
    expect(await evalPosts()).toContainEqual(
      expect.objectContaining({
        assessment: S,
        model: modelId,
        spec: expect.objectContaining({ commonModelId: modelId }),
      }),
    );
  });
});
