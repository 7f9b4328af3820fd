import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FlowRecord } from '../../../src/api/index.js';
import { SEED } from '../../../src/standins/emulator/index.js';
import { eventually, type Harness, startHarness } from '../../support/emulator.js';

type Rec = { id: string; [k: string]: unknown };

const inline = {
  name: 'November baseline',
  specs: [
    {
      timeRanges: [{ startTime: '2025-11-01T00:00:00Z', endTime: '2025-11-08T00:00:00Z' }],
      signals: [{ signal: SEED.signals.temperature, name: 'temperature' }],
    },
  ],
};

let h: Harness;
/** Flows go RUNNING at once and never complete by themselves: the test finishes them explicitly. */
beforeAll(async () => {
  h = await startHarness({}, { runningAfterMs: 0, completedAfterMs: 3_600_000 });
});
beforeEach(() => h.reset());
afterAll(() => h.close());

async function status(id: string): Promise<FlowRecord> {
  const got = await h.client.getFlow(id);
  if (!got.supported) throw new Error('the emulator supports getFlow');
  return got.flow;
}

async function finish(id: string): Promise<Rec> {
  await eventually(async () => ((await status(id)).status === 'RUNNING' ? true : undefined));
  const res = await fetch(`${h.emu.url}/_emulator/flows/${id}/finish`, { method: 'POST' });
  expect(res.status).toBe(200);
  return (await status(id)) as Rec;
}

const byId = async (collection: string, id: string) =>
  (await h.state())[collection]!.find((r) => r.id === id);

describe('flow lifecycle and completion effects', () => {
  it('ANOMALYLEARN goes CREATED -> RUNNING -> COMPLETED and creates a model named by the default pattern', async () => {
    const flow = await h.client.anomalyLearn({
      name: 'learn',
      spec: { workspace: SEED.workspaces.pumpStation, dataspec: inline },
    });
    expect(flow.status).toBe('CREATED');
    const done = await finish(flow.id);
    expect(done.status).toBe('COMPLETED');
    const result = done.result as { model: string; dataspec: string };
    expect(result.model).toMatch(/^\d{19}$/);
    expect(result.dataspec).toMatch(/^\d{19}$/);
    const model = await byId('models', result.model);
    expect(model).toMatchObject({
      name: 'Pump station A/anomaly/M[2]',
      workspace: SEED.workspaces.pumpStation,
      type: 'entities.model',
      tenant: SEED.accountId,
      history: [{ flow: flow.id, dataspec: result.dataspec, specs: inline.specs }],
    });
    expect(await byId('dataspecs', result.dataspec)).toMatchObject({
      name: inline.name,
      specs: inline.specs,
    });
  });

  it('ANOMALYLEARN with modelName names the model so; a dataspec reference is reused', async () => {
    const flow = await h.client.anomalyLearn({
      name: 'retrain',
      spec: {
        workspace: SEED.workspaces.sandbox,
        modelName: 'sandbox/retrained',
        dataspec: { id: SEED.dataspec },
      },
    });
    const done = await finish(flow.id);
    const result = done.result as { model: string; dataspec: string };
    expect(result.dataspec).toBe(SEED.dataspec);
    expect(await byId('models', result.model)).toMatchObject({
      name: 'sandbox/retrained',
      workspace: SEED.workspaces.sandbox,
    });
  });

  it('incremental ANOMALYLEARN keeps the model and appends to its history', async () => {
    const before = (await h.state()).models!.length;
    const flow = await h.client.anomalyLearnIncremental({
      name: 'learn more',
      spec: {
        model: SEED.models.temperatureAnomaly,
        workspace: SEED.workspaces.pumpStation,
        dataspec: inline,
      },
    });
    const done = await finish(flow.id);
    expect((done.result as { model: string }).model).toBe(SEED.models.temperatureAnomaly);
    expect((await h.state()).models).toHaveLength(before);
    const model = await byId('models', SEED.models.temperatureAnomaly);
    expect(model?.history).toEqual([expect.objectContaining({ flow: flow.id, specs: inline.specs })]);
  });

  it('ANOMALYEVAL creates an Eval object in the workspace referring to input, output and model', async () => {
    const flow = await h.client.anomalyEval({
      name: 'evaluate',
      spec: {
        model: SEED.models.temperatureAnomaly,
        workspace: SEED.workspaces.pumpStation,
        dataspec: inline,
        outputsignalPrefix: 'pumps/eval1',
      },
    });
    const done = await finish(flow.id);
    const evalId = (done.result as { eval: string }).eval;
    const evalRec = await byId('evals', evalId);
    expect(evalRec).toMatchObject({
      type: 'entities.eval',
      workspace: SEED.workspaces.pumpStation,
      model: SEED.models.temperatureAnomaly,
      flow: flow.id,
      inputSignalset: { dataspec: expect.stringMatching(/^\d{19}$/) },
    });
    const [out] = (evalRec!.outputSignalset as { signals: string[] }).signals;
    expect(await byId('signals', out!)).toMatchObject({ name: 'pumps/eval1/anomaly_score' });
  });

  it('STARTLIVEMODEL and STOPLIVEMODEL change the live state; stopping a model that is not live fails', async () => {
    const stopIdle = await h.client.stopLiveModel({ name: 'stop idle', model: SEED.models.pressureCommon });
    const failed = await finish(stopIdle.id);
    expect(failed.status).toBe('FAILED');
    expect(failed.message).toMatch(/not live/);

    const start = await h.client.startLiveModel({ name: 'start', model: SEED.models.pressureCommon });
    expect((await finish(start.id)).status).toBe('COMPLETED');
    expect((await byId('models', SEED.models.pressureCommon))?.live).toBe(true);

    const stop = await h.client.stopLiveModel({ name: 'stop', model: SEED.models.pressureCommon });
    expect((await finish(stop.id)).status).toBe('COMPLETED');
    expect((await byId('models', SEED.models.pressureCommon))?.live).toBe(false);
  });
});

describe('flows complete by themselves after the configured delays', () => {
  it('an EVAL flow reaches COMPLETED', async () => {
    const quick = await startHarness({}, { runningAfterMs: 5, completedAfterMs: 20 });
    try {
      const flow = await quick.client.createEvalFlow({
        name: 'backfill',
        datastream: SEED.datastream,
        assessment: SEED.assessments.temperature,
        model: SEED.models.temperatureCommon,
        spec: {
          commonModelId: SEED.models.temperatureCommon,
          segments: [
            {
              entities: ['pump-1'],
              timeRange: { startTime: '1732176000000000000', endTime: '1732179600000000000' },
            },
          ],
          forLive: true,
          withEpisodes: true,
        },
      });
      expect(flow.status).toBe('CREATED');
      const done = await eventually(async () => {
        const got = await quick.client.getFlow(flow.id);
        return got.supported && got.flow.status === 'COMPLETED' ? got.flow : undefined;
      });
      expect(Number(done.updateTime)).toBeGreaterThanOrEqual(Number(done.createTime));
    } finally {
      await quick.close();
    }
  });
});
