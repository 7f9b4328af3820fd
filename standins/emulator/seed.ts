// Fixed demo data: the same IDs on every start and after every reset, so docs, tests and the sandbox can name them.

export const SEED = {
  accountId: '1010000000000000001',
  token: 'tsai-emulator-token',
  /** The principal every record is created and updated by. */
  principalId: '1020000000000000001',
  workspaces: { pumpStation: '1030000000000000001', sandbox: '1030000000000000002' },
  datastream: '1040000000000000001',
  entities: ['pump-1', 'pump-2', 'compressor-1'],
  signals: {
    temperature: '1050000000000000001',
    pressure: '1050000000000000002',
    vibration: '1050000000000000003',
    flowRate: '1050000000000000004',
    anomalyScore: '1050000000000000005',
  },
  assessments: {
    /** Has a common model M[0] that is live, and a built anomaly model M[1]. */
    temperature: '1060000000000000001',
    /** Has a common model M[0] that is not live. */
    pressure: '1060000000000000002',
    /** Has no models at all: findCommonModel returns null. */
    vibration: '1060000000000000003',
  },
  models: {
    temperatureCommon: '1070000000000000001',
    temperatureAnomaly: '1070000000000000002',
    pressureCommon: '1070000000000000003',
  },
  dataspec: '1080000000000000001',
  /** A finished flow, so that `/tsai flow <id>` has one to show from the first start: the learn that built M[1]. */
  flows: { baselineLearn: '1090000000000000001' },
  /** Output schema of every anomaly model: `outputsignals` must map exactly these names. */
  anomalyOutputSchema: ['anomaly_score'],
} as const;

/** First ID handed out to records created at run time (19 digits, above 2^53). */
export const FIRST_RUNTIME_ID = 1_400_000_000_000_000_001n;

export type Rec = { id: string; type: string; [field: string]: unknown };

export interface SeedRecords {
  workspaces: Rec[];
  datastreams: Rec[];
  signals: Rec[];
  assessments: Rec[];
  models: Rec[];
  dataspecs: Rec[];
  flows: Rec[];
}

export function seedRecords(): SeedRecords {
  const S = SEED;
  return {
    workspaces: [
      {
        id: S.workspaces.pumpStation,
        type: 'entities.workspace',
        name: 'Pump station A',
        description: 'Demo asset',
      },
      {
        id: S.workspaces.sandbox,
        type: 'entities.workspace',
        name: 'Sandbox',
        description: 'Try things here',
      },
    ],
    datastreams: [
      { id: S.datastream, type: 'entities.datastream', name: 'Plant sensors', entities: [...S.entities] },
    ],
    signals: [
      signal(S.signals.temperature, 'temperature', '°C'),
      signal(S.signals.pressure, 'pressure', 'bar'),
      signal(S.signals.vibration, 'vibration', 'mm/s'),
      signal(S.signals.flowRate, 'flow-rate', 'm³/h'),
      signal(S.signals.anomalyScore, 'anomaly-score', ''),
    ],
    assessments: [
      assessment(S.assessments.temperature, 'Temperature anomaly', S.signals.temperature),
      assessment(S.assessments.pressure, 'Pressure anomaly', S.signals.pressure),
      assessment(S.assessments.vibration, 'Vibration anomaly', S.signals.vibration),
    ],
    models: [
      model(S.models.temperatureCommon, 'Pump station A/anomaly/M[0]', S.assessments.temperature, 0, true),
      {
        ...model(
          S.models.temperatureAnomaly,
          'Pump station A/anomaly/M[1]',
          S.assessments.temperature,
          1,
          false,
        ),
        history: [{ flow: S.flows.baselineLearn, dataspec: S.dataspec, specs: baselineSpecs() }],
      },
      model(
        S.models.pressureCommon,
        'Pump station A/anomaly/M[0] (pressure)',
        S.assessments.pressure,
        0,
        false,
      ),
    ],
    dataspecs: [
      {
        id: S.dataspec,
        type: 'entities.dataspec',
        name: 'Baseline October',
        specs: baselineSpecs(),
      },
    ],
    flows: [
      {
        id: S.flows.baselineLearn,
        type: 'entities.flow',
        flowType: 'ANOMALYLEARN',
        name: 'Baseline October learn',
        spec: { workspace: S.workspaces.pumpStation, dataspec: { id: S.dataspec } },
        status: 'COMPLETED',
        outputs: [
          {
            type: 'entities.model',
            id: S.models.temperatureAnomaly,
            name: 'Pump station A/anomaly/M[1]',
            created: true,
            live: false,
            assessment: S.assessments.temperature,
          },
          { type: 'entities.dataspec', id: S.dataspec, name: 'Baseline October', created: false },
        ],
      },
    ],
  };
}

function baselineSpecs() {
  return [
    {
      timeRanges: [{ startTime: '2025-10-01T00:00:00Z', endTime: '2025-10-15T00:00:00Z' }],
      signals: [{ signal: SEED.signals.temperature, name: 'temperature' }],
    },
  ];
}

function signal(id: string, name: string, unit: string): Rec {
  return { id, type: 'entities.signal', name, unit, datastream: SEED.datastream };
}

function assessment(id: string, name: string, baseSignal: string): Rec {
  return {
    id,
    type: 'entities.assessment',
    name,
    kind: 'anomaly',
    datastream: SEED.datastream,
    signal: baseSignal,
  };
}

function model(id: string, name: string, assessmentId: string, index: number, live: boolean): Rec {
  return {
    id,
    type: 'entities.model',
    name,
    modelType: 'anomaly',
    workspace: SEED.workspaces.pumpStation,
    assessment: assessmentId,
    isCommonModel: index === 0,
    index,
    live,
    outputSchema: [...SEED.anomalyOutputSchema],
    history: [],
  };
}
