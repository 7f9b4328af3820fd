import type { anomalyLearnFields, FlowRecord } from '../../../wire/index.js';
import { missingOutcome, ok } from '../../grammar/args.js';
import type { DataArg } from '../../grammar/types.js';
import { EXAMPLE_IDS as X } from '../../ids.js';
import { WORKSPACE } from '../../kinds/index.js';
import { SERVICE_MODEL_NAMING } from '../../names.js';
import type { ResolvedData } from '../requests.js';
import { dataArgs, dataOperationArgs, MODEL_NAME, NAMING } from './arguments.js';
import { dataEntries, typed } from './catalog-change.js';
import {
  DATA_FORM,
  dataFacts,
  described,
  FLOW_CALL,
  type FlowBodyOf,
  learnedOutputs,
  schemasOf,
  startFlow,
  toDataspec,
} from './describe.js';
import { type Argument, flowTypeIs, MAX_RANGES, type OperationEntry } from './entry.js';
import { resolveNamedData } from './ranges.js';

export interface LearnCommand {
  kind: 'learn';
  workspaceId: string;
  data: DataArg;
  modelName?: string;
  name?: string;
  description?: string;
}

export interface LearnRequest {
  kind: 'learn';
  name: string;
  description?: string;
  workspaceId: string;
  modelName?: string;
  data: ResolvedData;
}

/** ANOMALYLEARN: a new anomaly model, trained on new signals and ranges or on an existing dataspec. */
const FLOW_TYPE = flowTypeIs('ANOMALYLEARN');

const LEARN_ARGS: readonly Argument[] = [
  ...dataArgs('The workspace in which the new model is created.'),
  MODEL_NAME,
  ...NAMING,
];

/** An ANOMALYLEARN body, for a new model or (with `spec.model`) an existing one. */
export type AnomalyLearnBody = FlowBodyOf<'ANOMALYLEARN', typeof anomalyLearnFields>;

/** The call that creates an ANOMALYLEARN flow, whichever model it teaches. */
export const ANOMALYLEARN_CALL = {
  ...FLOW_CALL,
  version: '1.3',
  flowType: FLOW_TYPE,
  schemas: schemasOf((w) => ({
    body: w.flowBody(FLOW_TYPE.all, w.anomalyLearnFields),
    answer: { record: w.flowRecord },
  })),
} as const;

export const anomalyLearn: OperationEntry<LearnCommand, LearnRequest, AnomalyLearnBody, FlowRecord> = {
  parsedKind: 'learn',
  operationKind: 'learn',
  command: {
    id: 'learn',
    words: ['learn'],
    summary: 'Train a new anomaly model (ANOMALYLEARN). Several ranges: separate them with `;`.',
    examples: [
      `/tsai learn workspace=${X.workspace} signals=${X.signal}:temperature,${X.signal2}:pressure range="last week"`,
      `/tsai learn workspace=${X.workspace} dataspec=${X.dataspec} model-name="pump-3 retrain"`,
    ],
    mutating: true,

    said: [
      {
        phrases: [
          'train a model',
          'train a new model',
          'learn a model',
          'build a model',
          'new model',
          'learn',
          'train',
        ],
      },
    ],
  },
  args: LEARN_ARGS,
  form: {
    id: 'learn',
    title: 'Learn an anomaly model',
    submit: 'Start learning',
    fields: [
      { arg: 'name' },
      { arg: 'description' },
      { arg: 'workspace' },
      { arg: 'model-name' },
      ...DATA_FORM,
    ],
    maxRanges: MAX_RANGES,
    shortcut: true,
  },
  role: 'User',
  parse(args, spec) {
    const { values: v, data, missing } = dataOperationArgs(args, spec, LEARN_ARGS);
    if (missing.length > 0 || !data) return missingOutcome('learn', spec, missing, args, 'model', undefined);
    const { workspace, name, description } = v as Record<string, string>;
    const modelName = v['model-name'] as string | undefined;
    return ok({ kind: 'learn', workspaceId: workspace!, data, modelName, name, description }, spec);
  },
  resolve: resolveNamedData('learn'),
  wire: ANOMALYLEARN_CALL,
  execute: (req, { send, echo }) =>
    startFlow(send, req, {
      spec: {
        workspace: req.workspaceId,
        ...(req.modelName ? { modelName: req.modelName } : {}),
        dataspec: toDataspec(req.data),
      },
      title: 'started an ANOMALYLEARN flow (new anomaly model)',
      flowWhat: 'the ANOMALYLEARN flow',
      facts: () => [
        { label: 'Name', value: req.name, code: true },
        { label: 'Workspace', value: req.workspaceId, code: true },
        {
          label: 'Model name',
          value: req.modelName ?? `named by the service: ${SERVICE_MODEL_NAMING}`,
          code: req.modelName !== undefined,
        },
        ...dataFacts(req.data, echo),
        ...described(req.description),
      ],
    }),
  catalog: (req) => ({ add: [typed(WORKSPACE, req.workspaceId), ...dataEntries(req.data)] }),
  outputs: learnedOutputs({ created: true, heading: 'Model created' }),
};
