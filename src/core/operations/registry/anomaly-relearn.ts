import type { FlowRecord } from '../../../wire/index.js';
import { missingOutcome, ok } from '../../grammar/args.js';
import type { DataArg } from '../../grammar/types.js';
import { EXAMPLE_IDS as X } from '../../ids.js';
import { MODEL, WORKSPACE } from '../../kinds/index.js';
import type { ResolvedData } from '../requests.js';
import { ANOMALYLEARN_CALL, type AnomalyLearnBody } from './anomaly-learn.js';
import {
  commandOnly,
  DATASPEC,
  dataArgs,
  dataOperationArgs,
  modelArg,
  NAMING,
  NEW_SIGNALS,
  SIGNALS,
} from './arguments.js';
import { dataEntries, typed } from './catalog-change.js';
import { dataFacts, described, learnedOutputs, modelRunFacts, startFlow, toDataspec } from './describe.js';
import { type Argument, MAX_RANGES, type OperationEntry } from './entry.js';
import { resolveNamedData } from './ranges.js';

export interface RelearnCommand {
  kind: 'relearn';
  modelId: string;
  workspaceId: string;
  data: DataArg;
  name?: string;
  description?: string;
}

export interface RelearnRequest {
  kind: 'relearn';
  name: string;
  description?: string;
  modelId: string;
  workspaceId: string;
  data: ResolvedData;
}

const RELEARN_ARGS: readonly Argument[] = [
  modelArg('The existing anomaly model to teach.', 'Model to train further'),
  // The form takes new data only (so it needs the signals): a dataspec is for the command line.
  ...dataArgs("The model's workspace.").map((a) =>
    a === DATASPEC ? commandOnly(DATASPEC) : a === SIGNALS ? NEW_SIGNALS : a,
  ),
  ...NAMING,
];

/** Incremental ANOMALYLEARN: an existing anomaly model taught new data. */
export const anomalyRelearn: OperationEntry<RelearnCommand, RelearnRequest, AnomalyLearnBody, FlowRecord> = {
  parsedKind: 'relearn',
  operationKind: 'relearn',
  command: {
    id: 'relearn',
    words: ['relearn'],
    summary:
      'Teach an existing anomaly model new data (incremental ANOMALYLEARN); earlier ranges need not be repeated.',
    examples: [
      `/tsai relearn ${X.model} workspace=${X.workspace} signals=${X.signal} range="Nov 20 to Nov 21"`,
    ],
    mutating: true,

    said: [{ phrases: ['relearn', 'retrain', 'train again', 'teach the model', 'update the model'] }],
  },
  args: RELEARN_ARGS,
  form: {
    id: 'relearn',
    title: 'Relearn anomaly model',
    submit: 'Start relearning',
    notes: [
      {
        id: 'relearn_note',
        text: 'Give only the *new* signals and time ranges: the original training ranges need not be repeated.',
      },
    ],
    fields: [
      { arg: 'model' },
      { arg: 'workspace' },
      { arg: 'name' },
      { arg: 'description' },
      { arg: 'signals' },
      { arg: 'range' },
      { arg: 'dataspec-name' },
    ],
    maxRanges: MAX_RANGES,
  },
  role: 'User',
  parse(args, spec) {
    const { values: v, data, missing } = dataOperationArgs(args, spec, RELEARN_ARGS);
    const modelId = v.model as string | undefined;
    if (missing.length > 0 || !data) return missingOutcome('relearn', spec, missing, args, 'model', modelId);
    const { workspace, name, description } = v as Record<string, string>;
    return ok({ kind: 'relearn', modelId: modelId!, workspaceId: workspace!, data, name, description }, spec);
  },
  resolve: resolveNamedData('relearn'),
  // ANOMALYLEARN's call, on an existing model.
  wire: { ...ANOMALYLEARN_CALL, label: 'incremental {flowType} flow' },
  execute: (req, { send, echo }) =>
    startFlow(send, req, {
      spec: { model: req.modelId, workspace: req.workspaceId, dataspec: toDataspec(req.data) },
      title: 'started an incremental ANOMALYLEARN flow (existing model)',
      flowWhat: 'the incremental ANOMALYLEARN flow',
      facts: () => [...modelRunFacts(req), ...dataFacts(req.data, echo), ...described(req.description)],
    }),
  catalog: (req) => ({
    add: [
      typed(WORKSPACE, req.workspaceId),
      // The workspace a request names for a model is a claim; only the service's word links them.
      typed(MODEL, req.modelId),
      ...dataEntries(req.data),
    ],
  }),
  // A relearn teaches a model it did not create, so its flow's workspace is not the model's.
  outputs: learnedOutputs({ created: false, heading: 'Model extended' }),
  next: [{ label: 'Learn more data', needs: ['model'] }],
};
