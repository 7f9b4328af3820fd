import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { SEED } from '../standins/emulator/index.js';
import { type Harness, startHarness } from './support/emulator.js';

const A = SEED.accountId;
let h: Harness;
beforeEach(async () => {
  h ??= await startHarness();
  await h.reset();
});
afterAll(() => h?.close());

async function onlyRequest() {
  const reqs = await h.requests();
  expect(reqs).toHaveLength(1);
  const r = reqs[0]!;
  expect(r.contentType === null || r.contentType === 'application/json').toBe(true);
  return r;
}

const inlineDataspec = {
  name: 'Baseline November',
  specs: [
    {
      timeRanges: [{ startTime: '2025-11-01T00:00:00Z', endTime: '2025-11-08T00:00:00.123456789Z' }],
      signals: [
        { signal: SEED.signals.temperature, name: 'temperature' },
        { signal: SEED.signals.pressure, name: 'pressure' },
      ],
    },
  ],
};

describe('client round trips against the emulator', () => {
  it('creates a workspace at 1.3 with exactly {name, description}', async () => {
    const ws = await h.client.createWorkspace({ name: 'Compressor B', description: 'second asset' });
    const r = await onlyRequest();
    expect(r).toMatchObject({ method: 'POST', path: `/api/1.3/accounts/${A}/workspace`, query: {} });
    expect(r.body).toStrictEqual({ name: 'Compressor B', description: 'second asset' });
    expect(ws.id).toMatch(/^\d{19}$/);
    expect(ws).toMatchObject({ name: 'Compressor B', type: 'entities.workspace', tenant: A });
    expect(typeof ws.createTime).toBe('number');
    expect(await h.client.getWorkspace(ws.id)).toMatchObject({ id: ws.id, name: 'Compressor B' });
  });

  it('gets a workspace at 1.3 with no body', async () => {
    const ws = await h.client.getWorkspace(SEED.workspaces.pumpStation);
    const r = await onlyRequest();
    expect(r).toMatchObject({
      method: 'GET',
      path: `/api/1.3/accounts/${A}/workspace/${SEED.workspaces.pumpStation}`,
    });
    expect(r.body).toBeUndefined();
    expect(ws).toMatchObject({ id: SEED.workspaces.pumpStation, name: 'Pump station A' });
  });

  it('moves a model with PUT at 1.3 and body {workspace}', async () => {
    const m = await h.client.moveModel(SEED.models.temperatureAnomaly, SEED.workspaces.sandbox);
    const r = await onlyRequest();
    expect(r).toMatchObject({
      method: 'PUT',
      path: `/api/1.3/accounts/${A}/models/${SEED.models.temperatureAnomaly}`,
    });
    expect(r.body).toStrictEqual({ workspace: SEED.workspaces.sandbox });
    expect(m).toMatchObject({ id: SEED.models.temperatureAnomaly, workspace: SEED.workspaces.sandbox });
  });

  it('finds the common model M[0] at 1.2 with the documented query, or null when none', async () => {
    const m = await h.client.findCommonModel(SEED.assessments.temperature);
    const r = await onlyRequest();
    expect(r).toMatchObject({
      method: 'GET',
      path: `/api/1.2/accounts/${A}/models`,
      query: { assessment: SEED.assessments.temperature, isCommonModel: 'true', limit: '1' },
    });
    expect(m?.id).toBe(SEED.models.temperatureCommon);
    expect(await h.client.findCommonModel(SEED.assessments.vibration)).toBeNull();
  });

  it('creates an EVAL flow at 1.2 and gets back the full record with the added spec fields', async () => {
    const input = {
      name: 'Backfill night shift',
      datastream: SEED.datastream,
      assessment: SEED.assessments.temperature,
      model: SEED.models.temperatureCommon,
      spec: {
        commonModelId: SEED.models.temperatureCommon,
        segments: [
          {
            entities: ['pump-1', 'pump-2'],
            timeRange: { startTime: '1732176000123456789', endTime: '1732204800987654321' },
          },
        ],
        forLive: true,
        withEpisodes: true,
      },
    };
    const flow = await h.client.createEvalFlow(input);
    const r = await onlyRequest();
    expect(r).toMatchObject({ method: 'POST', path: `/api/1.2/accounts/${A}/flows` });
    expect(r.body).toStrictEqual({ flowType: 'EVAL', ...input });
    expect(flow).toMatchObject({
      type: 'entities.flow',
      flowType: 'EVAL',
      status: 'CREATED',
      name: input.name,
      datastream: input.datastream,
      assessment: input.assessment,
      model: input.model,
      createdBy: SEED.principalId,
      updatedBy: SEED.principalId,
      archived: false,
    });
    for (const f of ['createTime', 'updateTime']) {
      // Epoch milliseconds: 13 digits for any date between 2001 and 2286 (seconds would be 10, ns 19).
      expect(Number.isInteger(flow[f])).toBe(true);
      expect(String(flow[f])).toHaveLength(13);
    }
    expect(Array.isArray(flow.links)).toBe(true);
    const spec = flow.spec as Record<string, unknown>;
    expect(spec).toMatchObject({ ...input.spec, model: input.model });
    expect(typeof spec.isBatch).toBe('boolean');
    expect(typeof spec.datastreamStats).toBe('object');
    expect(Number.isInteger(spec.assessmentRate)).toBe(true);
    expect(typeof spec.config).toBe('object');
    expect(Array.isArray(spec.inputList)).toBe(true);
    expect(typeof spec.forEpisode).toBe('boolean');
    expect(typeof spec.tolerateNoData).toBe('boolean');
  });

  it('starts and stops a live model at 1.2 with {flowType, name, spec.model}', async () => {
    await h.client.startLiveModel({ name: 'go live', model: SEED.models.pressureCommon });
    await h.client.stopLiveModel({ name: 'stop', model: SEED.models.temperatureCommon });
    const reqs = await h.requests();
    expect(reqs.map((r) => [r.method, r.path])).toEqual([
      ['POST', `/api/1.2/accounts/${A}/flows`],
      ['POST', `/api/1.2/accounts/${A}/flows`],
    ]);
    expect(reqs[0]!.body).toStrictEqual({
      flowType: 'STARTLIVEMODEL',
      name: 'go live',
      spec: { model: SEED.models.pressureCommon },
    });
    expect(reqs[1]!.body).toStrictEqual({
      flowType: 'STOPLIVEMODEL',
      name: 'stop',
      spec: { model: SEED.models.temperatureCommon },
    });
  });

  it('sends ANOMALYLEARN (new model) at 1.3', async () => {
    const input = {
      name: 'learn baseline',
      description: 'first training',
      spec: { workspace: SEED.workspaces.pumpStation, modelName: 'pumps/custom', dataspec: inlineDataspec },
    };
    const flow = await h.client.anomalyLearn(input);
    const r = await onlyRequest();
    expect(r).toMatchObject({ method: 'POST', path: `/api/1.3/accounts/${A}/flows` });
    expect(r.body).toStrictEqual({ flowType: 'ANOMALYLEARN', ...input });
    expect(flow).toMatchObject({ flowType: 'ANOMALYLEARN', status: 'CREATED' });
  });

  it('sends incremental ANOMALYLEARN with spec.model at 1.3', async () => {
    const input = {
      name: 'learn more',
      spec: {
        model: SEED.models.temperatureAnomaly,
        workspace: SEED.workspaces.pumpStation,
        dataspec: { id: SEED.dataspec },
      },
    };
    await h.client.anomalyLearnIncremental(input);
    expect((await onlyRequest()).body).toStrictEqual({ flowType: 'ANOMALYLEARN', ...input });
  });

  it('sends ANOMALYEVAL with a prefix, and with output signals, at 1.3', async () => {
    const withPrefix = {
      name: 'eval week',
      spec: {
        model: SEED.models.temperatureAnomaly,
        workspace: SEED.workspaces.pumpStation,
        dataspec: inlineDataspec,
        outputsignalPrefix: 'pumps/eval1',
      },
    };
    const withSignals = {
      name: 'eval mapped',
      description: 'into existing signals',
      spec: {
        model: SEED.models.temperatureAnomaly,
        workspace: SEED.workspaces.pumpStation,
        dataspec: { id: SEED.dataspec },
        outputsignals: [{ signal: SEED.signals.anomalyScore, name: 'anomaly_score' }],
      },
    };
    await h.client.anomalyEval(withPrefix);
    await h.client.anomalyEval(withSignals);
    const reqs = await h.requests();
    expect(reqs.map((r) => r.path)).toEqual([`/api/1.3/accounts/${A}/flows`, `/api/1.3/accounts/${A}/flows`]);
    expect(reqs[0]!.body).toStrictEqual({ flowType: 'ANOMALYEVAL', ...withPrefix });
    expect(reqs[1]!.body).toStrictEqual({ flowType: 'ANOMALYEVAL', ...withSignals });
  });

  it('reads a flow back through the 1.3 extension, and reports an unknown flow as a 404 naming it', async () => {
    const flow = await h.client.startLiveModel({ name: 'go', model: SEED.models.pressureCommon });
    const got = await h.client.getFlow(flow.id);
    expect(got).toEqual({
      supported: true,
      flow: expect.objectContaining({ id: flow.id, flowType: 'STARTLIVEMODEL' }),
      view: expect.objectContaining({ id: flow.id, flowType: 'STARTLIVEMODEL', knownStatus: true }),
    });
    const reqs = await h.requests();
    expect(reqs[1]).toMatchObject({ method: 'GET', path: `/api/1.3/accounts/${A}/flows/${flow.id}` });
    await expect(h.client.getFlow('1499999999999999999')).rejects.toMatchObject({
      kind: 'http',
      status: 404,
    });
  });

  it('keeps a 19-digit ID and nanosecond timestamps exact through a round trip', async () => {
    const start = '1732176000123456789';
    const end = '1732176000123456799';
    const flow = await h.client.createEvalFlow({
      name: 'precision',
      datastream: SEED.datastream,
      assessment: SEED.assessments.temperature,
      model: SEED.models.temperatureCommon,
      spec: {
        commonModelId: SEED.models.temperatureCommon,
        segments: [{ entities: ['pump-1'], timeRange: { startTime: start, endTime: end } }],
        forLive: true,
        withEpisodes: true,
      },
    });
    expect(flow.id).toMatch(/^\d{19}$/);
    expect(BigInt(flow.id) > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
    const got = await h.client.getFlow(flow.id);
    if (!got.supported) throw new Error('getFlow should be supported by the emulator');
    expect(got.flow.id).toBe(flow.id);
    const seg = (got.flow.spec as { segments: { timeRange: { startTime: string; endTime: string } }[] })
      .segments[0]!;
    expect(seg.timeRange).toEqual({ startTime: start, endTime: end });
    const sent = (await h.requests())[0]!.body as { spec: { segments: { timeRange: unknown }[] } };
    expect(sent.spec.segments[0]!.timeRange).toEqual({ startTime: start, endTime: end });
  });

  it('serves concurrent calls over the pooled connection with distinct IDs', async () => {
    const made = await Promise.all(
      Array.from({ length: 20 }, (_, i) => h.client.createWorkspace({ name: `parallel ${i}` })),
    );
    expect(new Set(made.map((w) => w.id)).size).toBe(20);
    expect((await h.requests()).filter((r) => r.method === 'POST')).toHaveLength(20);
  });
});
