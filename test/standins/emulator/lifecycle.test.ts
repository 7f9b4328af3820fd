import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FlowRecord } from '../../../src/api/index.js';
import { SEED } from '../../../standins/emulator/index.js';
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

type Output = { type: string; id?: string; [k: string]: unknown };
const outputs = (flow: Rec) => flow.outputs as Output[];
const output = (flow: Rec, type: string) => outputs(flow).find((o) => o.type === type)!;

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
    expect(outputs(done)).toEqual([
      {
        type: 'entities.model',
        id: expect.stringMatching(/^\d{19}$/),
        name: 'Pump station A/anomaly/M[2]',
        created: true,
        live: false,
        assessment: SEED.signals.temperature,
      },
      { type: 'entities.dataspec', id: expect.stringMatching(/^\d{19}$/), name: inline.name, created: true },
    ]);
    const modelId = output(done, 'entities.model').id!;
    const dataspecId = output(done, 'entities.dataspec').id!;
    const model = await byId('models', modelId);
    expect(model).toMatchObject({
      name: 'Pump station A/anomaly/M[2]',
      workspace: SEED.workspaces.pumpStation,
      type: 'entities.model',
      tenant: SEED.accountId,
      history: [{ flow: flow.id, dataspec: dataspecId, specs: inline.specs }],
    });
    expect(await byId('dataspecs', dataspecId)).toMatchObject({
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
    expect(output(done, 'entities.dataspec')).toEqual({
      type: 'entities.dataspec',
      id: SEED.dataspec,
      name: 'Baseline October',
      created: false,
    });
    expect(output(done, 'entities.model')).toMatchObject({ name: 'sandbox/retrained', created: true });
    expect(await byId('models', output(done, 'entities.model').id!)).toMatchObject({
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
    expect(output(done, 'entities.model')).toEqual({
      type: 'entities.model',
      id: SEED.models.temperatureAnomaly,
      name: 'Pump station A/anomaly/M[1]',
      created: false,
      live: false,
      assessment: SEED.assessments.temperature,
    });
    expect((await h.state()).models).toHaveLength(before);
    const model = await byId('models', SEED.models.temperatureAnomaly);
    // After the demo data's own entry: the learn that built M[1].
    expect(model?.history).toEqual([
      expect.objectContaining({ flow: SEED.flows.baselineLearn }),
      expect.objectContaining({ flow: flow.id, specs: inline.specs }),
    ]);
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
    const evalOut = output(done, 'entities.eval');
    expect(evalOut).toEqual({
      type: 'entities.eval',
      id: expect.stringMatching(/^\d{19}$/),
      name: 'evaluate',
      outputSignals: [
        {
          signal: expect.stringMatching(/^\d{19}$/),
          name: 'pumps/eval1/anomaly_score',
          output: 'anomaly_score',
          created: true,
        },
      ],
    });
    const evalRec = await byId('evals', evalOut.id!);
    expect(evalRec).toMatchObject({
      type: 'entities.eval',
      workspace: SEED.workspaces.pumpStation,
      model: SEED.models.temperatureAnomaly,
      flow: flow.id,
      inputSignalset: { dataspec: expect.stringMatching(/^\d{19}$/) },
    });
    const [out] = (evalRec!.outputSignalset as { signals: string[] }).signals;
    expect(out).toBe((evalOut.outputSignals as { signal: string }[])[0]!.signal);
    expect(await byId('signals', out!)).toMatchObject({ name: 'pumps/eval1/anomaly_score' });
  });

  it('ANOMALYEVAL onto existing signals reports them as not created', async () => {
    const flow = await h.client.anomalyEval({
      name: 'evaluate into',
      spec: {
        model: SEED.models.temperatureAnomaly,
        workspace: SEED.workspaces.pumpStation,
        dataspec: { id: SEED.dataspec },
        outputsignals: [{ signal: SEED.signals.anomalyScore, name: 'anomaly_score' }],
      },
    });
    const done = await finish(flow.id);
    expect(output(done, 'entities.eval').outputSignals).toEqual([
      { signal: SEED.signals.anomalyScore, name: 'anomaly-score', output: 'anomaly_score', created: false },
    ]);
  });

  it('EVAL reports each backfilled segment', async () => {
    const segments = [
      {
        entities: ['pump-1'],
        timeRange: { startTime: '1732176000000000000', endTime: '1732179600000000000' },
      },
    ];
    const flow = await h.client.createEvalFlow({
      name: 'backfill',
      datastream: SEED.datastream,
      assessment: SEED.assessments.temperature,
      model: SEED.models.temperatureCommon,
      spec: { commonModelId: SEED.models.temperatureCommon, segments, forLive: true, withEpisodes: true },
    });
    const done = await finish(flow.id);
    expect(outputs(done)).toEqual([
      { type: 'segment', model: SEED.models.temperatureCommon, ...segments[0] },
    ]);
  });

  it('STARTLIVEMODEL and STOPLIVEMODEL change the live state; stopping a model that is not live fails', async () => {
    const stopIdle = await h.client.stopLiveModel({ name: 'stop idle', model: SEED.models.pressureCommon });
    const failed = await finish(stopIdle.id);
    expect(failed.status).toBe('FAILED');
    expect(failed.message).toMatch(/not live/);
    expect(failed).not.toHaveProperty('outputs');

    const start = await h.client.startLiveModel({ name: 'start', model: SEED.models.pressureCommon });
    const started = await finish(start.id);
    expect(started.status).toBe('COMPLETED');
    expect(outputs(started)).toEqual([
      expect.objectContaining({ type: 'entities.model', id: SEED.models.pressureCommon, live: true }),
    ]);
    expect((await byId('models', SEED.models.pressureCommon))?.live).toBe(true);

    const stop = await h.client.stopLiveModel({ name: 'stop', model: SEED.models.pressureCommon });
    const stopped = await finish(stop.id);
    expect(stopped.status).toBe('COMPLETED');
    expect(outputs(stopped)).toEqual([
      expect.objectContaining({ type: 'entities.model', id: SEED.models.pressureCommon, live: false }),
    ]);
    expect((await byId('models', SEED.models.pressureCommon))?.live).toBe(false);
  });
});

describe("a learned model's whole life: its signal is its assessment, and the service knows it", () => {
  const learnOn = async (signal: string, name: string) => {
    const flow = await h.client.anomalyLearn({
      name,
      spec: {
        workspace: SEED.workspaces.pumpStation,
        dataspec: { ...inline, specs: [{ ...inline.specs[0]!, signals: [{ signal, name: 'v' }] }] },
      },
    });
    return output(await finish(flow.id), 'entities.model');
  };

  it('the first model learned on a signal is its common model M[0]; the lookup, live start, EVAL and live stop take it', async () => {
    const S = SEED.signals.vibration;
    const model = await learnOn(S, 'vibration baseline');
    // The flow names the model's assessment, so that a client can look up its M[0] and backfill it.
    expect(model).toMatchObject({ created: true, live: false, assessment: S });
    expect(await byId('models', model.id!)).toMatchObject({ assessment: S, isCommonModel: true });
    expect((await h.client.findCommonModel(S))?.id).toBe(model.id);

    const started = await finish((await h.client.startLiveModel({ name: 'go live', model: model.id! })).id);
    expect(started.status).toBe('COMPLETED');
    expect(output(started, 'entities.model')).toMatchObject({ id: model.id, live: true, assessment: S });

    const segments = [
      {
        entities: ['pump-1'],
        timeRange: { startTime: '1732176000000000000', endTime: '1732179600000000000' },
      },
    ];
    const backfill = await h.client.createEvalFlow({
      name: 'backfill the learned model',
      datastream: SEED.datastream,
      assessment: S,
      model: model.id!,
      spec: { commonModelId: model.id!, segments, forLive: true, withEpisodes: true },
    });
    const backfilled = await finish(backfill.id);
    expect(backfilled.status).toBe('COMPLETED');
    expect(outputs(backfilled)).toEqual([{ type: 'segment', model: model.id, ...segments[0] }]);

    const stopped = await finish((await h.client.stopLiveModel({ name: 'stop', model: model.id! })).id);
    expect(stopped.status).toBe('COMPLETED');
    expect((await byId('models', model.id!))?.live).toBe(false);
  });

  it('a second model learned on the same signal is a built model beside that M[0]', async () => {
    const S = SEED.signals.flowRate;
    const first = await learnOn(S, 'first');
    const second = await learnOn(S, 'second');
    expect(await byId('models', second.id!)).toMatchObject({ assessment: S, isCommonModel: false });
    expect((await h.client.findCommonModel(S))?.id).toBe(first.id);
    // EVAL of the built model writes through its assessment's M[0].
    const flow = await h.client.createEvalFlow({
      name: 'backfill the second',
      datastream: SEED.datastream,
      assessment: S,
      model: second.id!,
      spec: {
        commonModelId: first.id!,
        segments: [
          {
            entities: ['pump-2'],
            timeRange: { startTime: '1732176000000000000', endTime: '1732179600000000000' },
          },
        ],
        forLive: true,
        withEpisodes: true,
      },
    });
    expect((await finish(flow.id)).status).toBe('COMPLETED');
  });

  it('a signal nobody learned on is an assessment without models: no M[0], and EVAL names what is missing', async () => {
    expect(await h.client.findCommonModel(SEED.signals.pressure)).toBeNull();
    const refused = await h.raw('POST', `/api/1.2/accounts/${SEED.accountId}/flows`, {
      flowType: 'EVAL',
      name: 'nothing to backfill',
      datastream: SEED.datastream,
      assessment: '1059999999999999999',
      model: SEED.models.temperatureCommon,
      spec: {
        commonModelId: SEED.models.temperatureCommon,
        segments: [{ entities: ['pump-1'], timeRange: { startTime: '1', endTime: '2' } }],
        forLive: true,
        withEpisodes: true,
      },
    });
    expect(refused).toEqual({ status: 404, json: { message: 'assessment 1059999999999999999 not found' } });
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
