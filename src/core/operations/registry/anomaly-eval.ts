import type { anomalyEvalFields, FlowRecord } from '../../../wire/index.js';
import { missingOutcome, ok } from '../../grammar/args.js';
import type { DataArg, OutputArg } from '../../grammar/types.js';
import { EXAMPLE_IDS as X } from '../../ids.js';
import {
  EVAL,
  ID_OUTPUT,
  MODEL,
  RESOURCE,
  RESOURCES,
  SIGNAL,
  TEXT_OUTPUT,
  WORKSPACE,
} from '../../kinds/index.js';
import type { ResolvedData, ResolvedOutput } from '../requests.js';
import {
  dataArgs,
  dataOperationArgs,
  modelArg,
  NAME,
  NAMING,
  nameField,
  OUTPUTS,
  outputFrom,
  PREFIX,
} from './arguments.js';
import { dataEntries, typed } from './catalog-change.js';
import {
  DATA_FORM,
  dataFacts,
  described,
  FLOW_CALL,
  type FlowBodyOf,
  modelRunFacts,
  outputFacts,
  schemasOf,
  startFlow,
  toDataspec,
  usedBy,
  usedOutputs,
  WORKSPACE_OUTPUT,
  workspaceOf,
} from './describe.js';
import { type Argument, declareOutputs, flowTypeIs, MAX_RANGES, type OperationEntry } from './entry.js';
import { resolveNamedData } from './ranges.js';

export interface ScoreCommand {
  kind: 'score';
  modelId: string;
  workspaceId: string;
  data: DataArg;
  output: OutputArg;
  name?: string;
  description?: string;
}

export interface ScoreRequest {
  kind: 'score';
  name: string;
  description?: string;
  modelId: string;
  workspaceId: string;
  data: ResolvedData;
  output: ResolvedOutput;
}

/** ANOMALYEVAL: data scored with an anomaly model, into new output signals or existing ones. */
const FLOW_TYPE = flowTypeIs('ANOMALYEVAL');

const SCORE_ARGS: readonly Argument[] = [
  modelArg('The anomaly model to apply.', 'Anomaly model', 'anomaly model'),
  ...dataArgs("The model's workspace."),
  PREFIX,
  OUTPUTS,
  // A scoring's name is its Eval object's.
  ...NAMING.map((a) => (a === NAME ? { ...NAME, field: nameField('Evaluation name') } : a)),
];

export const anomalyEval: OperationEntry<
  ScoreCommand,
  ScoreRequest,
  FlowBodyOf<'ANOMALYEVAL', typeof anomalyEvalFields>,
  FlowRecord
> = {
  parsedKind: 'score',
  operationKind: 'score',
  command: {
    id: 'score',
    words: ['score'],
    summary: 'Score data with an anomaly model (ANOMALYEVAL), into new output signals or existing ones.',
    examples: [
      `/tsai score ${X.model} workspace=${X.workspace} signals=${X.signal}:temperature range="yesterday" prefix=pump3-scores`,
      `/tsai score ${X.model} workspace=${X.workspace} dataspec=${X.dataspec} outputs=${X.scoreSignal}:anomaly_score`,
    ],
    mutating: true,

    // `run the model` is also a backfill's: a sentence that says only that is asked about, never guessed.
    said: [{ phrases: ['score', 'evaluate', 'check with the model', 'run the model', 'apply the model'] }],
  },
  args: SCORE_ARGS,
  form: {
    id: 'score',
    title: 'Score with anomaly model',
    submit: 'Start scoring',
    fields: [
      { arg: 'name' },
      { arg: 'description' },
      { arg: 'model' },
      { arg: 'workspace' },
      ...DATA_FORM,
      { header: 'Outputs', id: 'outputs_header' },
      { choice: 'outputs' },
      { arg: 'prefix' },
      { arg: 'outputs' },
    ],
    maxRanges: MAX_RANGES,
    shortcut: true,
  },
  role: 'User',
  parse(args, spec) {
    const { values: v, data, missing } = dataOperationArgs(args, spec, SCORE_ARGS);
    const output = outputFrom(args, missing);
    const modelId = v.model as string | undefined;
    if (missing.length > 0 || !data || !output)
      return missingOutcome('score', spec, missing, args, 'model', modelId);
    const { workspace, name, description } = v as Record<string, string>;
    return ok(
      { kind: 'score', modelId: modelId!, workspaceId: workspace!, data, output, name, description },
      spec,
    );
  },
  resolve: resolveNamedData('score'),
  wire: {
    ...FLOW_CALL,
    version: '1.3',
    flowType: FLOW_TYPE,
    schemas: schemasOf((w) => ({
      body: w.flowBody(FLOW_TYPE.all, w.anomalyEvalFields),
      answer: { record: w.flowRecord },
    })),
  },
  execute: (req, { send, echo }) =>
    startFlow(send, req, {
      spec: {
        model: req.modelId,
        workspace: req.workspaceId,
        dataspec: toDataspec(req.data),
        ...(req.output.kind === 'prefix'
          ? { outputsignalPrefix: req.output.prefix }
          : { outputsignals: req.output.signals.map((s) => ({ signal: s.signal, name: s.name })) }),
      },
      title: 'started an ANOMALYEVAL flow (scoring)',
      flowWhat: 'the ANOMALYEVAL flow',
      facts: () => [
        ...modelRunFacts(req),
        ...dataFacts(req.data, echo),
        ...outputFacts(req.output),
        ...described(req.description),
      ],
    }),
  catalog: (req) => ({
    add: [
      typed(WORKSPACE, req.workspaceId),
      // The workspace a request names for a model is a claim; only the service's word links them.
      typed(MODEL, req.modelId),
      ...dataEntries(req.data),
      ...(req.output.kind === 'signals' ? req.output.signals.map((s) => typed(SIGNAL, s.signal)) : []),
    ],
  }),
  // The Eval object and where its output went: the signals the service names, else the prefix asked for.
  outputs: declareOutputs(
    [
      {
        name: 'eval',
        type: RESOURCE,
        label: 'Eval object',
        shown: {},
        feeds: true,
        catalog: { kind: EVAL, links: { model: 'model', workspace: 'workspace' } },
      },
      { name: 'output_signals', type: RESOURCES, label: 'Output signals', shown: {}, feeds: true },
      { name: 'output_prefix', type: TEXT_OUTPUT, label: 'Output signal prefix', shown: {}, feeds: true },
      { name: 'model', type: ID_OUTPUT, label: 'Model', shown: 'hidden', feeds: true },
      WORKSPACE_OUTPUT,
      ...usedOutputs(true),
    ],
    ({ results, request }) => {
      const ev = results?.evals[0];
      const signals = ev?.outputSignals.length ? ev.outputSignals : (results?.signals ?? []);
      const prefix = request.output && 'prefix' in request.output ? request.output.prefix : undefined;
      const workspace = workspaceOf(request);
      return {
        ...(ev ? { eval: { id: ev.id, ...(ev.name ? { name: ev.name } : {}) } } : {}),
        ...(signals.length
          ? { output_signals: signals.map((x) => ({ id: x.id, ...(x.name ? { name: x.name } : {}) })) }
          : typeof prefix === 'string'
            ? { output_prefix: prefix }
            : {}),
        ...(typeof request.modelId === 'string' ? { model: request.modelId } : {}),
        ...(workspace ? { workspace } : {}),
        ...usedBy(results),
      };
    },
  ),
  next: [{ label: 'Score with this model', primary: true, needs: ['model'] }],
};
