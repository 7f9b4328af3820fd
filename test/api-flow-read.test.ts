import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServiceClient, type FlowView, readFlow, ServiceError } from '../src/api/index.js';
import { SEED } from '../standins/emulator/index.js';
import { type Harness, startHarness } from './support/emulator.js';
import { named } from './support/service-calls.js';

const S = SEED;
const FLOWS_13 = `/api/1.3/accounts/${S.accountId}/flows`;
const inline = {
  name: 'November baseline',
  specs: [
    {
      timeRanges: [{ startTime: '2025-11-01T00:00:00Z', endTime: '2025-11-08T00:00:00Z' }],
      signals: [{ signal: S.signals.temperature, name: 'temperature' }],
    },
  ],
};

async function failure(p: Promise<unknown>): Promise<ServiceError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ServiceError);
  return e as ServiceError;
}

let h: Harness;
/** Flows never end by themselves: each test ends them through the emulator's control API. */
beforeAll(async () => {
  h = await startHarness(
    { maxAttempts: 2, maxRetryTimeMs: 5_000 },
    { runningAfterMs: 0, completedAfterMs: 3_600_000 },
  );
});
beforeEach(() => h.reset());
afterAll(() => h.close());

async function view(id: string, client = h.client): Promise<FlowView> {
  const got = await client.getFlow(id);
  if (!got.supported) throw new Error('the emulator supports getFlow');
  return got.view;
}

const finish = (id: string, body?: object) => h.control('POST', `flows/${id}/finish`, body);

describe('getFlow reads what the bot shows for each ending', () => {
  it('ANOMALYLEARN: the new model (ID and name) and the stored dataspec', async () => {
    const flow = await h.client.anomalyLearn({
      name: 'learn',
      spec: { workspace: S.workspaces.pumpStation, dataspec: inline },
    });
    expect(await view(flow.id)).toMatchObject({
      status: expect.stringMatching(/^(CREATED|RUNNING)$/),
      phase: 'in-progress',
      ended: false,
      knownStatus: true,
    });
    await finish(flow.id);
    const v = await view(flow.id);
    expect(v).toMatchObject({
      id: flow.id,
      flowType: 'ANOMALYLEARN',
      name: 'learn',
      status: 'COMPLETED',
      phase: 'completed',
      ended: true,
    });
    expect(v.results.models).toEqual([
      {
        id: expect.stringMatching(/^\d{19}$/),
        name: 'Pump station A/anomaly/M[2]',
        created: true,
        live: false,
        // For an anomaly model the assessment is the signal: the first one it learned on.
        assessment: S.signals.temperature,
      },
    ]);
    expect(v.results.dataspecs).toEqual([
      { id: expect.stringMatching(/^\d{19}$/), name: inline.name, created: true },
    ]);
    expect(v.updateTime).toBeGreaterThanOrEqual(v.createTime!);
    expect(String(v.updateTime)).toHaveLength(13);
  });

  it('incremental ANOMALYLEARN: the extended model, not created', async () => {
    const flow = await h.client.anomalyLearnIncremental({
      name: 'more',
      spec: {
        model: S.models.temperatureAnomaly,
        workspace: S.workspaces.pumpStation,
        dataspec: { id: S.dataspec },
      },
    });
    await finish(flow.id);
    const v = await view(flow.id);
    expect(v.results.models).toEqual([
      {
        id: S.models.temperatureAnomaly,
        name: 'Pump station A/anomaly/M[1]',
        created: false,
        live: false,
        assessment: S.assessments.temperature,
      },
    ]);
    expect(v.results.dataspecs).toEqual([{ id: S.dataspec, name: 'Baseline October', created: false }]);
  });

  it('ANOMALYEVAL: the Eval object and the output signals made from the prefix', async () => {
    const flow = await h.client.anomalyEval({
      name: 'score',
      spec: {
        model: S.models.temperatureAnomaly,
        workspace: S.workspaces.pumpStation,
        dataspec: inline,
        outputsignalPrefix: 'pumps/e1',
      },
    });
    await finish(flow.id);
    const v = await view(flow.id);
    expect(v.results.evals).toEqual([
      {
        id: expect.stringMatching(/^\d{19}$/),
        name: 'score',
        outputSignals: [
          {
            id: expect.stringMatching(/^\d{19}$/),
            name: 'pumps/e1/anomaly_score',
            output: 'anomaly_score',
            created: true,
          },
        ],
      },
    ]);
  });

  it('EVAL: the range backfilled, nanoseconds kept as digit strings', async () => {
    const timeRange = { startTime: '1732176000123456789', endTime: '1732179600987654321' };
    const flow = await h.client.createEvalFlow({
      name: 'backfill',
      datastream: S.datastream,
      assessment: S.assessments.temperature,
      model: S.models.temperatureCommon,
      spec: {
        commonModelId: S.models.temperatureCommon,
        segments: [{ entities: ['pump-1', 'pump-2'], timeRange }],
        forLive: true,
        withEpisodes: true,
      },
    });
    await finish(flow.id);
    expect((await view(flow.id)).results.segments).toEqual([
      { model: S.models.temperatureCommon, entities: ['pump-1', 'pump-2'], ...timeRange },
    ]);
  });

  it('STARTLIVEMODEL / STOPLIVEMODEL: the model is now live / stopped', async () => {
    const start = await h.client.startLiveModel({ name: 'on', model: S.models.pressureCommon });
    await finish(start.id);
    expect((await view(start.id)).results.models).toEqual([
      expect.objectContaining({ id: S.models.pressureCommon, live: true }),
    ]);
    const stop = await h.client.stopLiveModel({ name: 'off', model: S.models.pressureCommon });
    await finish(stop.id);
    expect((await view(stop.id)).results.models).toEqual([
      expect.objectContaining({ id: S.models.pressureCommon, live: false }),
    ]);
  });

  it('FAILED with the reason; CANCELLED; an unknown status kept raw and still in progress', async () => {
    const a = await h.client.startLiveModel({ name: 'a', model: S.models.pressureCommon });
    const b = await h.client.startLiveModel({ name: 'b', model: S.models.pressureCommon });
    const c = await h.client.startLiveModel({ name: 'c', model: S.models.pressureCommon });
    await finish(a.id, { status: 'FAILED', message: 'model has no input signals' });
    await finish(b.id, { status: 'CANCELLED' });
    await finish(c.id, { status: 'WAITING_FOR_DATA' });
    expect(await view(a.id)).toMatchObject({
      status: 'FAILED',
      phase: 'failed',
      ended: true,
      message: 'model has no input signals',
      results: { models: [] },
    });
    expect(await view(b.id)).toMatchObject({ status: 'CANCELLED', phase: 'cancelled', ended: true });
    expect(await view(c.id)).toMatchObject({
      status: 'WAITING_FOR_DATA',
      phase: 'in-progress',
      ended: false,
      knownStatus: false,
    });
  });
});

describe('getFlow tells a missing route from a missing flow', () => {
  it('read-back switched off: unsupported, remembered, one request', async () => {
    await h.control('PUT', 'features', { flowReadBack: false });
    const client = named(
      createServiceClient({ baseUrl: h.emu.url, accountId: S.accountId, token: h.emu.token }),
    );
    try {
      const flow = await client.startLiveModel({ name: 'go', model: S.models.pressureCommon });
      expect(await client.getFlow(flow.id)).toEqual({ supported: false });
      expect(await client.getFlow(flow.id)).toEqual({ supported: false });
      const reads = (await h.requests()).filter((r) => r.method === 'GET');
      expect(reads.map((r) => r.path)).toEqual([`${FLOWS_13}/${flow.id}`]);
    } finally {
      await client.close();
    }
  });

  it('an unknown flow on a route that exists is a 404 naming it, and the route stays in use', async () => {
    const e = await failure(h.client.getFlow('1499999999999999999'));
    expect(e).toMatchObject({ kind: 'http', status: 404 });
    expect(e.userMessage).toContain('flow 1499999999999999999');
    const flow = await h.client.startLiveModel({ name: 'go', model: S.models.pressureCommon });
    expect((await h.client.getFlow(flow.id)).supported).toBe(true);
  });

  it.each([
    ['Flow 1400000000000000077 does not exist', 'flow'],
    ['{"message":"entity not found: 1400000000000000077"}', 'flow'],
    ['Cannot GET /api/1.3/accounts/x/flows/1400000000000000077', 'route'],
    ['Not Found', 'route'],
  ])('404 %j means a missing %s', async (body, missing) => {
    const client = named(
      createServiceClient({ baseUrl: h.emu.url, accountId: S.accountId, token: h.emu.token }),
    );
    try {
      await h.fault({ method: 'GET', path: '/flows/', status: 404, body, count: 1 });
      const got = client.getFlow('1400000000000000077');
      if (missing === 'route') expect(await got).toEqual({ supported: false });
      else expect(await failure(got)).toMatchObject({ kind: 'http', status: 404 });
    } finally {
      await client.close();
    }
  });
});

describe('getFlow under unreadable answers', () => {
  it('malformed JSON on a 200 is a bad-response, not retried, and the next read works', async () => {
    const flow = await h.client.startLiveModel({ name: 'go', model: S.models.pressureCommon });
    await h.fault({ method: 'GET', path: '/flows/', corrupt: 'malformed-json', count: 1 });
    const e = await failure(h.client.getFlow(flow.id));
    expect(e).toMatchObject({ kind: 'bad-response', status: 200 });
    expect(e.userMessage).toMatch(/not valid JSON.*nothing was changed/);
    expect((await h.requests()).filter((r) => r.method === 'GET')).toHaveLength(1);
    expect((await view(flow.id)).id).toBe(flow.id);
  });

  it('Retry-After of a 429 is on the error in ms, so a poller can wait that long', async () => {
    await h.fault({ method: 'GET', path: '/flows/', status: 429, retryAfter: 60, count: 1 });
    const e = await failure(h.client.getFlow('1400000000000000001'));
    expect(e).toMatchObject({ kind: 'http', status: 429, retryAfterMs: 60_000, retryAfterSeconds: 60 });
    expect(e.userMessage).toMatch(/try again in about 60 s/);
  });

  it('Retry-After as an HTTP date is converted to ms from now', async () => {
    const at = new Date(Date.now() + 120_000).toUTCString();
    await h.fault({ method: 'GET', path: '/flows/', status: 503, retryAfter: at, count: 1 });
    const e = await failure(h.client.getFlow('1400000000000000001'));
    expect(e.kind).toBe('http');
    expect(e.retryAfterMs).toBeGreaterThan(60_000);
    expect(e.retryAfterMs).toBeLessThanOrEqual(120_000);
  });
});

describe('other record shapes a real service might send', () => {
  const read = async (body: string) => {
    await h.fault({
      method: 'GET',
      path: '/flows/',
      status: 200,
      body,
      contentType: 'application/json',
      count: 1,
    });
    return view('1400000000000000001');
  };

  it('a result object with IDs as big JSON numbers keeps every digit', async () => {
    const v = await read(
      '{"id": 1400000000000000001, "status": "COMPLETED", "result": {"model": 1353853719423311872, "dataspec": {"id": 1353853719423311873, "name": "ds"}, "eval": "1353853719423311874"}}',
    );
    expect(v.id).toBe('1400000000000000001');
    expect(v.results.models).toEqual([{ id: '1353853719423311872' }]);
    expect(v.results.dataspecs).toEqual([{ id: '1353853719423311873', name: 'ds' }]);
    expect(v.results.evals).toEqual([{ id: '1353853719423311874', outputSignals: [] }]);
  });

  it('no status is "unknown"; wrong field types, junk entries and unknown fields never crash', async () => {
    const v = await read(
      '{"id": "1400000000000000001", "name": 7, "flowType": null, "updateTime": "1764000000000", "outputs": [null, 1, "x", {"type": "entities.flow", "id": "9"}, {"type": "Model", "modelId": 5}, {"type": "entities.model"}], "whatever": {"deep": [1]}}',
    );
    expect(v).toMatchObject({
      status: 'unknown',
      phase: 'in-progress',
      knownStatus: false,
      ended: false,
      updateTime: 1764000000000,
    });
    expect(v).not.toHaveProperty('name');
    expect(v.results.models).toEqual([{ id: '5' }]);
    expect(v.results.others).toEqual([{ type: 'entities.flow', id: '9' }]);
  });

  it('an entry of a kind the client does not know keeps every field as sent, lists and objects included', async () => {
    const v = await read(
      `{"id": "1400000000000000001", "status": "COMPLETED", "outputs": [{"type": "entities.forecast", "id": "1490000000000000046", "name": "pump-1 next 6h", "horizon": "6h", "error": 0.12, "final": true, "nested": {"x": 1, "ids": [1353853719423311872]}, "contributors": [{"signal": "1353853719423311876", "score": 0.8}, {"signal": "1353853719423311877", "score": 0.1}], "${'k'.repeat(61)}": "a long key", "note": "${'n'.repeat(300)}"}]}`,
    );
    expect(v.results.others).toEqual([
      {
        type: 'entities.forecast',
        id: '1490000000000000046',
        name: 'pump-1 next 6h',
        fields: {
          horizon: '6h',
          error: 0.12,
          final: true,
          nested: { x: 1, ids: ['1353853719423311872'] },
          contributors: [
            { signal: '1353853719423311876', score: 0.8 },
            { signal: '1353853719423311877', score: 0.1 },
          ],
          ['k'.repeat(61)]: 'a long key',
          note: 'n'.repeat(300),
        },
      },
    ]);
    expect(v.results.refused).toEqual([]);
  });

  it('an unknown entry too large to keep is refused with the reason, its type, ID and name kept; a map key of an unknown kind is an entry too', async () => {
    const big = Array.from({ length: 5000 }, (_, i) => `"s${i}"`).join(',');
    const v = await read(
      `{"id": "1400000000000000001", "status": "COMPLETED", "outputs": [{"type": "entities.ranking", "id": "1490000000000000047", "name": "top", "items": [${big}]}], "result": {"model": "1353853719423311872", "forecast": {"id": "1490000000000000048", "horizon": "6h"}, "score": 0.5}}`,
    );
    expect(v.results.others).toEqual([
      {
        type: 'entities.ranking',
        id: '1490000000000000047',
        name: 'top',
        refused: expect.stringMatching(
          /^its fields are \d+ characters as JSON, more than the 16000 the bot keeps/,
        ),
      },
      { type: 'forecast', id: '1490000000000000048', fields: { horizon: '6h' } },
      { type: 'score', fields: { value: 0.5 } },
    ]);
    expect(v.results.models).toEqual([{ id: '1353853719423311872' }]);
    const many = Array.from({ length: 201 }, (_, i) => `{"type": "entities.thing", "id": "${i}"}`).join(',');
    const w = await read(`{"id": "1", "status": "COMPLETED", "outputs": [${many}]}`);
    expect(w.results.others).toHaveLength(200);
    expect(w.results.refused).toEqual([
      { type: 'results', reason: 'the record lists 201; the bot read the first 200' },
    ]);
  });

  it('a record wrapped under "flow", a reason under "error", a lower-case status', async () => {
    const v = await read(
      '{"flow": {"id": "1400000000000000001", "status": "failed", "error": {"message": "disk full"}}}',
    );
    expect(v).toMatchObject({
      id: '1400000000000000001',
      status: 'failed',
      phase: 'failed',
      message: 'disk full',
    });
  });

  it('a status of an unexpected type is shown as sent', async () => {
    expect(await read('{"id": "1400000000000000001", "status": 3}')).toMatchObject({
      status: '3',
      knownStatus: false,
    });
  });

  it('a reason that echoes the token is redacted', async () => {
    const v = await read(`{"id": "1", "status": "FAILED", "message": "bad header Bearer ${h.emu.token}"}`);
    expect(v.message).toBe('bad header Bearer [redacted]');
  });
});

describe('readFlow on its own', () => {
  it.each([
    [{ status: 3 }, '3', 'in-progress'],
    [{ status: { code: 'X' } }, 'unknown', 'in-progress'],
    [{ status: '  ' }, 'unknown', 'in-progress'],
    [{ status: 'CANCELED' }, 'CANCELED', 'cancelled'],
    [{ status: 'NONE' }, 'NONE', 'in-progress'],
  ])('%j reads as status %j, phase %s', (fields, status, phase) => {
    expect(readFlow({ id: '1', ...fields })).toMatchObject({ status, phase });
  });

  it.each([
    ['outputs as an object map', { outputs: { models: ['1', '2'], dataspecId: '3' } }],
    [
      'results with nested outputs',
      {
        results: {
          outputs: [
            { type: 'entities.model', id: '1' },
            { type: 'model', id: '2' },
          ],
        },
        result: { dataspec: '3' },
      },
    ],
  ])('%s', (_label, fields) => {
    const r = readFlow({ id: 'f', ...fields }).results;
    expect(r.models.map((m) => m.id)).toEqual(['1', '2']);
    expect(r.dataspecs.map((d) => d.id)).toEqual(['3']);
  });

  it('lists a result given in two places once; an Eval names its signals as IDs or objects', () => {
    const r = readFlow({
      id: 'f',
      outputs: [
        { type: 'entities.eval', id: 'e', outputSignalset: { signals: ['s1', { id: 's2', name: 'n' }, {}] } },
      ],
      result: { eval: 'e' },
    }).results;
    expect(r.evals).toEqual([{ id: 'e', outputSignals: [{ id: 's1' }, { id: 's2', name: 'n' }] }]);
  });

  it('a deeply nested or cyclic-looking record still ends', () => {
    let deep: Record<string, unknown> = { model: 'x' };
    for (let i = 0; i < 1000; i++) deep = { result: deep };
    expect(readFlow({ id: 'f', result: deep }).results.models).toEqual([]);
  });
});
