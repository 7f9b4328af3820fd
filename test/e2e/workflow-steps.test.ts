import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REJECT_REASON_ACTION, REJECT_REASON_BLOCK } from '../../src/slack/approvals/card.js';
import { SEED } from '../../standins/emulator/index.js';
import type { FunctionExecution, LocalSlack } from '../../standins/localslack/index.js';
import {
  APPROVALS,
  APPROVER,
  OPS,
  REQUESTER,
  type Rig,
  requestIdOf,
  startRig,
} from '../support/approvals-rig.js';
import { emulatorControl, eventually } from '../support/emulator.js';
import { manifestFunctionsOnDisk } from '../support/manifest-functions.js';

const W = SEED.workspaces.pumpStation;
const T = SEED.signals.temperature;
const RANGE = '2026-11-20 to 2026-11-21';

/** The local Slack offers exactly the steps manifest.yml declares, and checks outputs against them. */
const FUNCTIONS = manifestFunctionsOnDisk();

// The local Slack's clock, for execution tokens: the test moves it, never waits for it.
let slackOffset = 0;
let rig: Rig;
let control: ReturnType<typeof emulatorControl>;

beforeAll(async () => {
  rig = await startRig({
    flowDelays: { runningAfterMs: 200, completedAfterMs: 800 },
    env: { TSAI_TRACK_FIRST_POLL: '100ms', TSAI_TRACK_MAX_INTERVAL: '300ms' },
    backends: { slackNow: () => Date.now() + slackOffset, functions: FUNCTIONS },
  });
  await rig.startBot();
  control = emulatorControl(rig.emulator.url);
});
afterAll(async () => {
  if (process.env.SHOW_LOGS) console.log(rig.logs.filter((l) => /"level":(40|50)|step/.test(l)).join('\n'));
  await rig?.close();
});
beforeEach(async () => {
  await control('DELETE', 'flow-rules');
});

const slack = (): LocalSlack => rig.slack;

/** Waits until the step has ended (completed or failed) in Slack. */
function ended(id: string, label: string): Promise<FunctionExecution> {
  return slack().waitFor(
    (s) => {
      const ex = s.execution(id);
      return ex && ex.state !== 'running' ? ex : undefined;
    },
    20_000,
    label,
  );
}

/** The completions Slack received for an execution, accepted or not. */
const completions = (id: string) =>
  slack().calls.filter(
    (c) => c.method.startsWith('functions.complete') && c.args.function_execution_id === id,
  );

/** Flow-creating POSTs the emulator received whose body names `name`. */
async function flowPosts(name: string) {
  return (await rig.serviceRequests()).filter(
    (r) => r.method === 'POST' && r.path.endsWith('/flows') && JSON.stringify(r.body).includes(name),
  );
}

async function waitingStep(id: string) {
  const store = (await import('../../src/store/index.js')).openStore;
  const s = await store(rig.databaseUrl);
  try {
    return await eventually(async () => {
      const row = await s.getStepExecution(id);
      return row?.state === 'waiting' ? row : undefined;
    });
  } finally {
    await s.close();
  }
}

/** A learn step named `name`, whose flow the service ends as `rule` says (RUNNING: until the test ends it). */
async function learnStep(name: string, rule: { status: string; message?: string }) {
  await control('POST', 'flow-rules', { flowType: 'ANOMALYLEARN', name: `^${name}$`, count: 1, ...rule });
  return slack().runFunction({
    callbackId: 'tsai_learn',
    user: REQUESTER,
    inputs: { workspace: W, signals: T, range: RANGE, name },
  });
}

describe('Workflow Builder steps through the real bot', () => {
  it('runs learn then score, the score taking the learned model and the learn’s dataspec', async () => {
    const run = await slack().runWorkflow({
      user: REQUESTER,
      workflow: {
        name: 'Nightly pump model',
        steps: [
          {
            callbackId: 'tsai_learn',
            inputs: {
              workspace: W,
              signals: `${T}:temperature`,
              range: RANGE,
              name: 'wf-learn',
              channel: OPS,
            },
          },
          {
            callbackId: 'tsai_score',
            inputs: {
              model: { fromStep: 0, output: 'model_id' },
              workspace: { fromStep: 0, output: 'workspace_id' },
              dataspec: { fromStep: 0, output: 'dataspec_id' },
              prefix: 'wf-scores',
              name: 'wf-score',
            },
          },
        ],
      },
    });
    const done = await slack().waitFor(
      (s) => (s.workflow(run.id)?.state !== 'running' ? s.workflow(run.id) : undefined),
      30_000,
      'the workflow run to end',
    );
    expect(done.error).toBeUndefined();
    expect(done.state).toBe('completed');
    const [learn, score] = done.executions.map((id) => slack().execution(id)!);
    expect(learn!.outputs).toMatchObject({ status: 'COMPLETED', workspace_id: W });
    expect(learn!.outputs!.model_id).toMatch(/^\d{19}$/);
    expect(learn!.outputs!.dataspec_id).toMatch(/^\d{19}$/);
    // The second step's inputs are the first step's outputs, and they reached the service.
    expect(score!.inputs).toMatchObject({
      model: learn!.outputs!.model_id,
      dataspec: learn!.outputs!.dataspec_id,
      workspace: W,
    });
    expect(score!.outputs).toMatchObject({ status: 'COMPLETED', workspace_id: W });
    expect(score!.outputs!.eval_id).toMatch(/^\d{19}$/);
    const [scorePost] = await flowPosts('wf-score');
    expect(JSON.stringify(scorePost!.body)).toContain(String(learn!.outputs!.model_id));
    expect(JSON.stringify(scorePost!.body)).toContain(String(learn!.outputs!.dataspec_id));
    // The audit line says a workflow asked, and which run and step.
    const store = await (await import('../../src/store/index.js')).openStore(rig.databaseUrl);
    try {
      const lines = await store.listAudit({ limit: 50 });
      const learned = lines.find(
        (l) => l.operation === 'flow.ANOMALYLEARN' && JSON.stringify(l.params).includes('wf-learn'),
      );
      expect(learned?.params).toMatchObject({
        via: 'workflow-step',
        workflow: { step: 'tsai_learn', workflowExecutionId: run.id, functionExecutionId: learn!.id },
      });
      expect(learned?.userId).toBe(REQUESTER);
    } finally {
      await store.close();
    }
    // Each step was completed once, with the bot's own token.
    for (const ex of [learn!, score!]) expect(completions(ex.id)).toHaveLength(1);
  });

  it('fails a step whose flow failed, with the service’s reason', async () => {
    const ex = await learnStep('wf-fails', {
      status: 'FAILED',
      message: 'signal 1050000000000000001 has no data in the range',
    });
    const end = await ended(ex.id, 'the failed step');
    expect(end.state).toBe('failed');
    expect(end.error).toMatch(
      /ANOMALYLEARN flow \d{19} ended FAILED: signal 1050000000000000001 has no data in the range\./,
    );
  });

  it('fails a live start step when its request is rejected', async () => {
    const ex = await slack().runFunction({
      callbackId: 'tsai_live_start',
      user: REQUESTER,
      inputs: { model: SEED.models.temperatureAnomaly, reason: 'from the night shift workflow' },
    });
    const card = await slack().waitFor(
      (s) => {
        const e = s.execution(ex.id);
        if (e?.state === 'failed') throw new Error(`the step failed: ${e.error}`);
        return rig.requestMessage();
      },
      10_000,
      'the approval request',
    );
    expect(JSON.stringify(card.blocks)).toContain('from the night shift workflow');
    await rig.click(APPROVER, card, 'reject');
    const view = await slack().waitFor(() => slack().topView(APPROVER), 5_000, 'the reject form');
    await slack().submitView({
      user: APPROVER,
      viewId: view.id,
      values: { [REJECT_REASON_BLOCK]: { [REJECT_REASON_ACTION]: 'not during the shift change' } },
    });
    const end = await ended(ex.id, 'the rejected step');
    expect(end.state).toBe('failed');
    expect(end.error).toBe(
      `The request to start live model ${SEED.models.temperatureAnomaly} was rejected: not during the shift change.`,
    );
    expect(await rig.liveFlows()).toEqual([]);
    expect(slack().messages(APPROVALS).length).toBeGreaterThan(0);
  });

  it('completes a live start step once it is approved and its flow has ended', async () => {
    const ex = await slack().runFunction({
      callbackId: 'tsai_live_start',
      user: REQUESTER,
      inputs: { model: SEED.models.temperatureCommon, reason: 'workflow go-live' },
    });
    const card = await slack().waitFor(
      () =>
        slack()
          .messages(APPROVALS)
          .find((m) => JSON.stringify(m.blocks ?? []).includes('workflow go-live')),
      10_000,
      'the approval request',
    );
    expect(slack().execution(ex.id)?.state).toBe('running');
    await rig.click(APPROVER, card, 'approve');
    const end = await ended(ex.id, 'the approved step');
    expect(end.state).toBe('completed');
    expect(end.outputs).toMatchObject({
      status: 'COMPLETED',
      model_id: SEED.models.temperatureCommon,
      live: true,
    });
    expect(end.outputs!.request_id).toBe(requestIdOf(card));
    expect(await rig.liveFlows()).toEqual([
      expect.objectContaining({ flowType: 'STARTLIVEMODEL', model: SEED.models.temperatureCommon }),
    ]);
  });

  it('completes a step whose flow ends after its execution token expired', async () => {
    const ex = await learnStep('wf-long', { status: 'RUNNING' });
    const row = await waitingStep(ex.id);
    // Sixteen minutes later by Slack's clock: the execution's own token is refused.
    slackOffset += 16 * 60_000;
    const probe = await fetch(`${slack().apiUrl}auth.test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ex.token}` },
    });
    expect(await probe.json()).toEqual({ ok: false, error: 'token_expired' });
    await control('POST', `flows/${row.flowId}/finish`, {});
    const end = await ended(ex.id, 'the long step');
    expect(end.state).toBe('completed');
    expect(end.outputs).toMatchObject({ flow_id: row.flowId, status: 'COMPLETED' });
  });

  it('completes a waiting step once across a restart of the bot', async () => {
    const ex = await learnStep('wf-restart', { status: 'RUNNING' });
    const row = await waitingStep(ex.id);
    await rig.stopBot(rig.bots[0]!);
    await control('POST', `flows/${row.flowId}/finish`, {});
    await rig.startBot();
    const end = await ended(ex.id, 'the step after the restart');
    expect(end.state).toBe('completed');
    expect(completions(ex.id)).toHaveLength(1);
  });

  it('reads a natural time range in the zone of the person who runs the workflow', async () => {
    // Carol is in New York: "yesterday 9am to 5pm" on Sun 22 Nov at 10:00 UTC is Sat 21 Nov, 14:00–22:00 UTC.
    const ex = await slack().runFunction({
      callbackId: 'tsai_learn',
      user: 'U0CAROL',
      inputs: { workspace: W, signals: T, range: 'yesterday 9am to 5pm', name: 'wf-zone' },
    });
    await slack().waitFor(
      () =>
        slack().calls.some(
          (c) => c.method === 'chat.postMessage' && JSON.stringify(c.args).includes('wf-zone'),
        )
          ? true
          : undefined,
      10_000,
      'the step announced',
    );
    const [post] = await flowPosts('wf-zone');
    const body = post!.body as { spec: { dataspec: { specs: { timeRanges: unknown }[] } } };
    expect(body.spec.dataspec.specs[0]!.timeRanges).toEqual([
      { startTime: '2026-11-21T14:00:00Z', endTime: '2026-11-21T22:00:00Z' },
    ]);
    expect(slack().execution(ex.id)?.state).not.toBe('failed');
  });

  it('fails a step with a bad input at once, with the sentence a command gets; nothing reaches the service', async () => {
    const ex = await slack().runFunction({
      callbackId: 'tsai_learn',
      user: REQUESTER,
      inputs: { workspace: W, signals: T, range: 'the day after the pumps were fixed', name: 'wf-bad' },
    });
    const end = await ended(ex.id, 'the bad step');
    expect(end.state).toBe('failed');
    expect(end.error).toMatch(/^range= could not be read: /);
    expect(end.error).toContain('For example:');
    expect(await flowPosts('wf-bad')).toEqual([]);
  });
});

describe('a step where everyone must act as themselves', () => {
  let own: Rig;
  beforeAll(async () => {
    own = await startRig({ env: { TSAI_REQUIRE_USER_TOKEN: 'true' }, backends: { functions: FUNCTIONS } });
    await own.startBot();
  });
  afterAll(async () => {
    await own?.close();
  });

  it('fails with the sentence that tells the person to connect; nothing reaches the service', async () => {
    const ex = await own.slack.runFunction({
      callbackId: 'tsai_learn',
      user: REQUESTER,
      inputs: { workspace: W, signals: T, range: RANGE, name: 'wf-unconnected' },
    });
    const end = await own.slack.waitFor(
      (s) => (s.execution(ex.id)?.state === 'failed' ? s.execution(ex.id) : undefined),
      10_000,
      'the step refused for want of a connection',
    );
    expect(end?.error).toContain('you have not connected it yet');
    expect(end?.error).toContain('type /tsai connect in Slack, then run the workflow again');
    const posts = (await own.serviceRequests()).filter((r) => r.method === 'POST');
    expect(posts).toEqual([]);
  });
});
