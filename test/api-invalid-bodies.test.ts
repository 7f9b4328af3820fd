// biome-ignore-all lint/suspicious/noExplicitAny: this file builds deliberately malformed bodies
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SEED } from '../standins/emulator/index.js';
import { type Harness, startHarness } from './support/emulator.js';
import type { NamedClient } from './support/service-calls.js';

type Body = Record<string, unknown> & { flowType: string; spec?: Record<string, unknown> };

const evalBody = (): Body => ({
  flowType: 'EVAL',
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
const liveBody = (flowType = 'STARTLIVEMODEL'): Body => ({
  flowType,
  name: 'go live',
  spec: { model: SEED.models.pressureCommon },
});
const inline = () => ({
  name: 'ds',
  specs: [
    {
      timeRanges: [{ startTime: '2025-11-01T00:00:00Z', endTime: '2025-11-02T00:00:00Z' }],
      signals: [{ signal: SEED.signals.temperature, name: 'temperature' }],
    },
  ],
});
const learnBody = (): Body => ({
  flowType: 'ANOMALYLEARN',
  name: 'learn',
  spec: { workspace: SEED.workspaces.pumpStation, dataspec: inline() },
});
const evalAnomalyBody = (): Body => ({
  flowType: 'ANOMALYEVAL',
  name: 'evaluate',
  spec: {
    model: SEED.models.temperatureAnomaly,
    workspace: SEED.workspaces.pumpStation,
    dataspec: { id: SEED.dataspec },
    outputsignalPrefix: 'pumps/eval',
  },
});

function edit(make: () => Body, change: (b: Body & { spec: Record<string, any> }) => void): Body {
  const b = make() as Body & { spec: Record<string, any> };
  change(b);
  return b;
}

/** [label, body, the field the error must name] */
const CASES: [string, Body, string][] = [
  [
    'EVAL time as ISO',
    edit(evalBody, (b) => {
      b.spec.segments[0].timeRange.startTime = '2025-11-21T00:00:00Z';
    }),
    'spec.segments[0].timeRange.startTime',
  ],
  [
    'EVAL time as number',
    edit(evalBody, (b) => {
      b.spec.segments[0].timeRange.endTime = 1732179600000000000;
    }),
    'spec.segments[0].timeRange.endTime',
  ],
  [
    'EVAL time with a fraction',
    edit(evalBody, (b) => {
      b.spec.segments[0].timeRange.startTime = '1732176000.5';
    }),
    'spec.segments[0].timeRange.startTime',
  ],
  [
    'EVAL start after end',
    edit(evalBody, (b) => {
      b.spec.segments[0].timeRange.startTime = '1732179600000000001';
    }),
    'spec.segments[0].timeRange.startTime',
  ],
  [
    'EVAL no segments',
    edit(evalBody, (b) => {
      b.spec.segments = [];
    }),
    'spec.segments',
  ],
  [
    'EVAL no entities',
    edit(evalBody, (b) => {
      b.spec.segments[0].entities = [];
    }),
    'spec.segments[0].entities',
  ],
  [
    'EVAL missing commonModelId',
    edit(evalBody, (b) => {
      delete b.spec.commonModelId;
    }),
    'spec.commonModelId',
  ],
  [
    'EVAL forLive as string',
    edit(evalBody, (b) => {
      b.spec.forLive = 'true';
    }),
    'spec.forLive',
  ],
  [
    'EVAL missing datastream',
    edit(evalBody, (b) => {
      delete b.datastream;
    }),
    'datastream',
  ],
  [
    'EVAL blank name',
    edit(evalBody, (b) => {
      b.name = '  ';
    }),
    'name',
  ],
  [
    'START missing model',
    edit(
      () => liveBody(),
      (b) => {
        delete b.spec.model;
      },
    ),
    'spec.model',
  ],
  [
    'STOP model ID with a slash',
    edit(
      () => liveBody('STOPLIVEMODEL'),
      (b) => {
        b.spec.model = 'a/b';
      },
    ),
    'spec.model',
  ],
  [
    'START missing name',
    edit(
      () => liveBody(),
      (b) => {
        delete b.name;
      },
    ),
    'name',
  ],
  [
    'LEARN empty dataspec',
    edit(learnBody, (b) => {
      b.spec.dataspec = {};
    }),
    'spec.dataspec.name',
  ],
  [
    'LEARN no specs',
    edit(learnBody, (b) => {
      b.spec.dataspec.specs = [];
    }),
    'spec.dataspec.specs',
  ],
  [
    'LEARN no time ranges',
    edit(learnBody, (b) => {
      b.spec.dataspec.specs[0].timeRanges = [];
    }),
    'spec.dataspec.specs[0].timeRanges',
  ],
  [
    'LEARN no signals',
    edit(learnBody, (b) => {
      b.spec.dataspec.specs[0].signals = [];
    }),
    'spec.dataspec.specs[0].signals',
  ],
  [
    'LEARN time not UTC ISO',
    edit(learnBody, (b) => {
      b.spec.dataspec.specs[0].timeRanges[0].startTime = '2025-11-01 00:00';
    }),
    'spec.dataspec.specs[0].timeRanges[0].startTime',
  ],
  [
    'LEARN 10 fraction digits',
    edit(learnBody, (b) => {
      b.spec.dataspec.specs[0].timeRanges[0].startTime = '2025-11-01T00:00:00.1234567890Z';
    }),
    'spec.dataspec.specs[0].timeRanges[0].startTime',
  ],
  [
    'LEARN impossible date',
    edit(learnBody, (b) => {
      b.spec.dataspec.specs[0].timeRanges[0].endTime = '2025-02-30T00:00:00Z';
    }),
    'spec.dataspec.specs[0].timeRanges[0].endTime',
  ],
  [
    'LEARN missing workspace',
    edit(learnBody, (b) => {
      delete b.spec.workspace;
    }),
    'spec.workspace',
  ],
  [
    'LEARN reference with extra fields',
    edit(learnBody, (b) => {
      b.spec.dataspec = { id: SEED.dataspec, name: 'x' };
    }),
    'spec.dataspec.id',
  ],
  [
    'LEARN incremental with modelName',
    edit(learnBody, (b) => {
      b.spec.model = SEED.models.temperatureAnomaly;
      b.spec.modelName = 'x';
    }),
    'spec.modelName',
  ],
  [
    'EVAL(anomaly) neither prefix nor signals',
    edit(evalAnomalyBody, (b) => {
      delete b.spec.outputsignalPrefix;
    }),
    'spec.outputsignalPrefix',
  ],
  [
    'EVAL(anomaly) both prefix and signals',
    edit(evalAnomalyBody, (b) => {
      b.spec.outputsignals = [{ signal: SEED.signals.anomalyScore, name: 'anomaly_score' }];
    }),
    'spec.outputsignalPrefix',
  ],
  [
    'EVAL(anomaly) empty outputsignals',
    edit(evalAnomalyBody, (b) => {
      delete b.spec.outputsignalPrefix;
      b.spec.outputsignals = [];
    }),
    'spec.outputsignals',
  ],
  [
    'EVAL(anomaly) missing model',
    edit(evalAnomalyBody, (b) => {
      delete b.spec.model;
    }),
    'spec.model',
  ],
  [
    'EVAL(anomaly) unknown field',
    edit(evalAnomalyBody, (b) => {
      b.spec.outputSignalPrefix = 'typo';
    }),
    'outputSignalPrefix',
  ],
];

const VERSION: Record<string, string> = {
  EVAL: '1.2',
  STARTLIVEMODEL: '1.2',
  STOPLIVEMODEL: '1.2',
  ANOMALYLEARN: '1.3',
  ANOMALYEVAL: '1.3',
};

function sendWithClient(client: NamedClient, body: Body): Promise<unknown> {
  const { flowType, ...input } = body as Record<string, any>;
  switch (flowType) {
    case 'EVAL':
      return client.createEvalFlow(input as any);
    case 'STARTLIVEMODEL':
      return client.startLiveModel({ name: input.name, model: input.spec?.model });
    case 'STOPLIVEMODEL':
      return client.stopLiveModel({ name: input.name, model: input.spec?.model });
    case 'ANOMALYLEARN':
      return input.spec?.model
        ? client.anomalyLearnIncremental(input as any)
        : client.anomalyLearn(input as any);
    default:
      return client.anomalyEval(input as any);
  }
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
beforeEach(() => h.reset());
afterAll(() => h.close());

describe('invalid flow bodies', () => {
  it('the valid base bodies are accepted by both the client and the emulator', async () => {
    for (const make of [evalBody, () => liveBody(), learnBody, evalAnomalyBody]) {
      await expect(sendWithClient(h.client, make())).resolves.toMatchObject({ status: 'CREATED' });
      const b = make();
      const raw = await h.raw('POST', `/api/${VERSION[b.flowType]}/accounts/${SEED.accountId}/flows`, b);
      expect(raw.status).toBe(201);
    }
  });

  it.each(CASES)(
    '%s: the client refuses it before sending, naming the field',
    async (_label, body, field) => {
      const err = await sendWithClient(h.client, body).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toMatchObject({ kind: 'invalid-request' });
      expect((err as Error).message).toContain(field);
      expect(await h.requests()).toHaveLength(0);
    },
  );

  it.each(CASES)(
    '%s: the emulator answers 400 naming the field when sent raw',
    async (_label, body, field) => {
      const res = await h.raw(
        'POST',
        `/api/${VERSION[body.flowType]}/accounts/${SEED.accountId}/flows`,
        body,
      );
      expect(res.status).toBe(400);
      expect((res.json as { message: string }).message).toContain(field);
      expect((await h.state()).flows).toHaveLength(0);
    },
  );

  it('the emulator refuses a flow type at the other version', async () => {
    const res = await h.raw('POST', `/api/1.3/accounts/${SEED.accountId}/flows`, evalBody());
    expect(res).toMatchObject({ status: 400, json: { message: expect.stringContaining('flowType') } });
  });

  it('the emulator names unknown referenced IDs with 404', async () => {
    const missing = '1399999999999999999';
    const checks: [Body, string][] = [
      [
        edit(learnBody, (b) => {
          b.spec.workspace = missing;
        }),
        `workspace ${missing}`,
      ],
      [
        edit(evalAnomalyBody, (b) => {
          b.spec.model = missing;
        }),
        `model ${missing}`,
      ],
      [
        edit(evalBody, (b) => {
          b.assessment = missing;
        }),
        `assessment ${missing}`,
      ],
      [
        edit(evalAnomalyBody, (b) => {
          b.spec.dataspec = { id: missing };
        }),
        `dataspec ${missing}`,
      ],
    ];
    for (const [body, named] of checks) {
      const res = await h.raw(
        'POST',
        `/api/${VERSION[body.flowType]}/accounts/${SEED.accountId}/flows`,
        body,
      );
      expect(res).toMatchObject({ status: 404, json: { message: expect.stringContaining(named) } });
    }
  });

  it('createWorkspace and moveModel bodies are validated on both sides', async () => {
    await expect(h.client.createWorkspace({ name: '' })).rejects.toMatchObject({ kind: 'invalid-request' });
    await expect(h.client.moveModel(SEED.models.temperatureAnomaly, 'has space')).rejects.toMatchObject({
      kind: 'invalid-request',
    });
    expect(await h.requests()).toHaveLength(0);
    const ws = await h.raw('POST', `/api/1.3/accounts/${SEED.accountId}/workspace`, {
      description: 'no name',
    });
    expect(ws).toMatchObject({ status: 400, json: { message: expect.stringContaining('name') } });
    const mv = await h.raw(
      'PUT',
      `/api/1.3/accounts/${SEED.accountId}/models/${SEED.models.temperatureAnomaly}`,
      {},
    );
    expect(mv).toMatchObject({ status: 400, json: { message: expect.stringContaining('workspace') } });
  });
});
