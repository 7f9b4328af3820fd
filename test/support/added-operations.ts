import { z } from 'zod';
import { missingOutcome, ok, readArgs, soleIdFrom } from '../../src/core/grammar/args.js';
import type { DataArg } from '../../src/core/grammar/types.js';
import { EXAMPLE_IDS as X } from '../../src/core/ids.js';
import { ID, MODEL, RESOURCE, TEXT, TEXT_OUTPUT, WORKSPACE } from '../../src/core/kinds/index.js';
import { dataArgs, dataOperationArgs, NAMING, pick } from '../../src/core/operations/registry/arguments.js';
import { dataEntries, typed } from '../../src/core/operations/registry/catalog-change.js';
import {
  DATA_FORM,
  dataFacts,
  FLOW_CALL,
  flowOf,
  learnedDeclared,
  learnedValues,
  toDataspec,
} from '../../src/core/operations/registry/describe.js';
import {
  type Argument,
  declareOutputs,
  flowTypeIs,
  MAX_RANGES,
  type OperationEntry,
} from '../../src/core/operations/registry/entry.js';
import { resolveNamedData } from '../../src/core/operations/registry/ranges.js';
import type { ResolvedData } from '../../src/core/operations/requests.js';
import { serviceFailure } from '../../src/core/service-errors.js';
import {
  dataspec,
  type FlowRecord,
  flowBody,
  flowRecord,
  idString,
  modelRecord,
  nameString,
} from '../../src/wire/index.js';

/**
 * Two operations the bot does not ship, for a test that registers them and drives them through the real
 * bot: a mutation (a DELETE of a workspace) and a flow with a form and two more arguments than
 * ANOMALYLEARN (`horizon=`, a text, and `baseline=`, a model picked in the form), each with a form field
 * of its own, that yields a kind of output no shipped operation has (a forecast). No file of src/ names
 * them. A third, a rename of a model, shares its method and path with the shipped move.
 */

export interface WorkspaceDelete {
  kind: 'test-workspace-delete';
  workspaceId: string;
}

export interface ForecastCommand {
  kind: 'test-forecast';
  workspaceId: string;
  data: DataArg;
  horizon: string;
  baselineModelId?: string;
  name?: string;
  description?: string;
}

export interface ForecastRequest {
  kind: 'test-forecast';
  name: string;
  description?: string;
  workspaceId: string;
  data: ResolvedData;
  horizon: string;
  baselineModelId?: string;
}

// The grammar learns their parsed commands as it learns the shipped ones: by declaration merging.
declare module '../../src/core/grammar/types.js' {
  interface ServiceCommands {
    addedInTests: WorkspaceDelete | ForecastCommand | ModelRename;
  }
}

const DELETED: Argument<string> = {
  key: 'workspace',
  kind: ID,
  lookup: { names: WORKSPACE },
  required: true,
  help: 'The workspace to delete.',
  positional: true,
};

export const workspaceDelete: OperationEntry<WorkspaceDelete, WorkspaceDelete, never, unknown> = {
  parsedKind: 'test-workspace-delete',
  operationKind: 'test-workspace-delete',
  command: {
    id: 'workspace delete',
    words: ['workspace', 'delete'],
    summary: 'Delete a workspace and everything in it.',
    examples: [`/tsai workspace delete ${X.workspace}`],
    mutating: true,
  },
  args: [DELETED],
  role: 'Manager',
  parse: (args, spec) =>
    ok(
      {
        kind: 'test-workspace-delete',
        workspaceId: soleIdFrom(args, spec, DELETED, '`workspace delete` needs a workspace ID.'),
      },
      spec,
    ),
  resolve: (command) => ({ ok: true, operation: command }),
  wire: {
    method: 'DELETE',
    version: '1.3',
    path: '/workspace/{workspace}',
    label: 'workspace',
    what: 'workspace {workspace}',
    schemas: async () => ({ answer: { record: z.unknown() } }),
  },
  async execute(req, { send }) {
    try {
      await send({ ids: { workspace: req.workspaceId } });
      return {
        ok: true,
        kind: 'service',
        visibility: 'channel',
        title: 'deleted a workspace',
        facts: [{ label: 'Workspace ID', value: req.workspaceId, code: true }],
      };
    } catch (e) {
      return serviceFailure(e, `delete workspace ${req.workspaceId}`);
    }
  },
  catalog: (req) => ({ add: [], remove: [{ kind: WORKSPACE.name, id: req.workspaceId }] }),
  notFound: (req) => ({ kind: WORKSPACE.name, id: req.workspaceId }),
};

const FORECAST = flowTypeIs('ANOMALYFORECAST');
/** The most characters of a horizon, by command or form. */
const HORIZON_MAX = 12;
export const forecastBody = flowBody(FORECAST.all, {
  name: nameString,
  description: z.string().optional(),
  spec: z.strictObject({
    workspace: idString,
    dataspec,
    horizon: z.string().min(1),
    baseline: idString.optional(),
  }),
});

const FORECAST_ARGS: readonly Argument[] = [
  ...dataArgs('The workspace in which the forecasting model is created.'),
  {
    key: 'horizon',
    kind: TEXT,
    required: true,
    help: 'How far ahead it forecasts, e.g. 6h.',
    maxLength: HORIZON_MAX,
    // Its field is named by the argument (`horizon`), which no file of src/ knows.
    field: {
      label: 'Horizon',
      hint: 'How far ahead it forecasts.',
      placeholder: '6h',
      optional: false,
    },
  },
  {
    key: 'baseline',
    kind: ID,
    lookup: { names: MODEL },
    required: false,
    help: 'A model whose forecasts it starts from.',
    noun: 'baseline model',
    field: pick('baselineModel', 'Baseline model', 'Optional: a model it starts from.', {
      optional: true,
    }),
  },
  ...NAMING,
];

export const forecast: OperationEntry<
  ForecastCommand,
  ForecastRequest,
  z.infer<typeof forecastBody>,
  FlowRecord
> = {
  parsedKind: 'test-forecast',
  operationKind: 'test-forecast',
  command: {
    id: 'forecast',
    words: ['forecast'],
    summary: 'Train a forecasting anomaly model (ANOMALYFORECAST) over a horizon.',
    examples: [
      `/tsai forecast workspace=${X.workspace} signals=${X.signal}:temperature range="last week" horizon=6h`,
    ],
    mutating: true,
    said: [{ phrases: ['forecast', 'predict'] }],
  },
  args: FORECAST_ARGS,
  form: {
    id: 'test-forecast',
    shortcut: true,
    title: 'Forecast',
    submit: 'Start forecasting',
    fields: [{ arg: 'name' }, { arg: 'workspace' }, { arg: 'horizon' }, { arg: 'baseline' }, ...DATA_FORM],
    maxRanges: MAX_RANGES,
  },
  role: 'User',
  parse(args, spec) {
    const { values, data, missing } = dataOperationArgs(args, spec, FORECAST_ARGS);
    if (missing.length > 0 || !data)
      return missingOutcome('test-forecast', spec, missing, args, 'model', undefined);
    const { workspace, horizon, baseline, name, description } = values as Record<string, string>;
    return ok(
      {
        kind: 'test-forecast',
        workspaceId: workspace!,
        data,
        horizon: horizon!,
        baselineModelId: baseline,
        name,
        description,
      },
      spec,
    );
  },
  resolve: resolveNamedData('forecast'),
  wire: {
    ...FLOW_CALL,
    version: '1.3',
    flowType: FORECAST,
    schemas: async () => ({ body: forecastBody, answer: { record: flowRecord } }),
  },
  async execute(req, { send, echo }) {
    try {
      const flow = await send({
        body: {
          name: req.name,
          spec: {
            workspace: req.workspaceId,
            dataspec: toDataspec(req.data),
            horizon: req.horizon,
            ...(req.baselineModelId ? { baseline: req.baselineModelId } : {}),
          },
        },
      });
      return {
        ok: true,
        kind: 'service',
        visibility: 'channel',
        title: 'started an ANOMALYFORECAST flow (forecasting model)',
        flow: flowOf(flow),
        facts: [
          { label: 'Name', value: req.name, code: true },
          { label: 'Horizon', value: req.horizon },
          ...dataFacts(req.data, echo),
        ],
      };
    } catch (e) {
      return serviceFailure(e, 'create the ANOMALYFORECAST flow', { what: 'flow', name: req.name });
    }
  },
  catalog: (req) => ({ add: [typed(WORKSPACE, req.workspaceId), ...dataEntries(req.data)] }),
  // A kind of output no shipped operation has: the forecast the service made, read from its record's
  // `entities.forecast` entry (the client keeps an unknown kind's ID, name and scalar fields), beside the
  // model and dataspec a learn yields. Declared here, it is shown, handed on and offered by every surface.
  outputs: declareOutputs(
    [
      ...learnedDeclared({ created: true, heading: 'Model created' }),
      {
        name: 'forecast',
        type: RESOURCE,
        label: 'Forecast',
        shown: { heading: 'Forecast made' },
        feeds: true,
      },
      { name: 'forecast_horizon', type: TEXT_OUTPUT, label: 'Forecast horizon', shown: {}, feeds: true },
    ],
    (done) => {
      const made = done.results?.others.find((o) => o.type === 'entities.forecast' && o.id);
      const horizon = made?.fields?.horizon;
      return {
        ...learnedValues(done),
        ...(made?.id ? { forecast: { id: made.id, ...(made.name ? { name: made.name } : {}) } } : {}),
        ...(typeof horizon === 'string' ? { forecast_horizon: horizon } : {}),
      };
    },
  ),
};

export interface ModelRename {
  kind: 'test-model-rename';
  modelId: string;
  name: string;
}

/** A rename's body: the same method and path as a move (`PUT /models/{model}`), another field. */
export const renameModelBody = z.strictObject({ name: nameString });

const RENAME_ARGS: readonly Argument[] = [
  {
    key: 'model',
    kind: ID,
    lookup: { names: MODEL },
    required: true,
    help: 'The model to rename.',
    positional: true,
  },
  { key: 'name', kind: TEXT, required: true, help: 'Its new name.', freeText: true },
];

/** A mutation that shares its method and path with a shipped one (`model move`), told apart by its body. */
export const modelRename: OperationEntry<
  ModelRename,
  ModelRename,
  z.infer<typeof renameModelBody>,
  unknown
> = {
  parsedKind: 'test-model-rename',
  operationKind: 'test-model-rename',
  command: {
    id: 'model rename',
    words: ['model', 'rename'],
    summary: 'Give a model another name.',
    examples: [`/tsai model rename ${X.model} name="pump-3 baseline"`],
    mutating: true,
  },
  args: RENAME_ARGS,
  role: 'Manager',
  parse(args, spec) {
    const { values, missing } = readArgs(args, spec, RENAME_ARGS);
    const { model: modelId, name } = values as Record<string, string | undefined>;
    if (missing.length > 0) return missingOutcome('test-model-rename', spec, missing, args, 'model', modelId);
    return ok({ kind: 'test-model-rename', modelId: modelId!, name: name! }, spec);
  },
  resolve: (command) => ({ ok: true, operation: command }),
  wire: {
    method: 'PUT',
    version: '1.3',
    path: '/models/{model}',
    label: 'model rename',
    what: 'model {model}',
    schemas: async () => ({ body: renameModelBody, answer: { record: modelRecord } }),
  },
  async execute(req, { send }) {
    try {
      await send({ ids: { model: req.modelId }, body: { name: req.name } });
      return {
        ok: true,
        kind: 'service',
        visibility: 'channel',
        title: 'renamed a model',
        facts: [
          { label: 'Model', value: req.modelId, code: true },
          { label: 'New name', value: req.name },
        ],
      };
    } catch (e) {
      return serviceFailure(e, `rename model ${req.modelId}`);
    }
  },
  catalog: (req) => ({ add: [typed(MODEL, req.modelId)] }),
  notFound: (req) => ({ kind: MODEL.name, id: req.modelId }),
};

export const ADDED_OPERATIONS = [workspaceDelete, forecast, modelRename] as const;

/** What the bot's setup reads from this module (`BotSetup.operations`), on each of its threads. */
export const operations = ADDED_OPERATIONS;
