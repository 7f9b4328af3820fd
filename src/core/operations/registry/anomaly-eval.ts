import type { anomalyEvalFields, FlowRecord } from '../../../wire/index.js';
import { dataEntries, typed } from '../../catalog/upserts.js';
import { missingOutcome, ok, outputFrom, text } from '../../grammar/args.js';
import type { DataArg, OutputArg } from '../../grammar/types.js';
import { EXAMPLE_IDS as X } from '../../ids.js';
import type { ResolvedData, ResolvedOutput } from '../requests.js';
import {
  DESCRIPTION,
  dataArgs,
  ID_EXAMPLE,
  modelArg,
  modelWorkspaceAndData,
  NAME,
  NAMING,
  nameField,
  pick,
} from './arguments.js';
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

const PREFIX: Argument = {
  key: 'prefix',
  kind: 'word',
  required: false,
  help: 'Outputs go to new signals named `<prefix>/<output name>` (or `outputs=`).',
  noun: 'prefix for the new output signals',
  example: 'pump-7/anomaly',
  maxLength: 100,
  shape: 'prefix=<p>',
  field: {
    name: 'prefix',
    kind: { input: 'text' },
    label: 'Output prefix',
    hint: 'New output signals are named prefix/<output name>. Only with "New signals with a prefix".',
    placeholder: 'pump-7/anomaly',
    optional: true,
  },
  side: { choice: 'outputs', option: 'prefix' },
};

/** ANOMALYEVAL: data scored with an anomaly model, into new output signals or existing ones. */
const FLOW_TYPE = flowTypeIs('ANOMALYEVAL');

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
  },
  args: [
    modelArg('The anomaly model to apply.', 'Anomaly model', 'anomaly model'),
    ...dataArgs("The model's workspace."),
    PREFIX,
    {
      key: 'outputs',
      kind: 'signals',
      required: false,
      help: 'Outputs go to these existing signals, `signal[:output name]`, comma-separated.',
      noun: 'output signal',
      labelNoun: 'output name',
      shape: 'outputs=<signal[:name],…>',
      field: pick(
        'outputs',
        'signal',
        'Map outputs to existing signals',
        `Only with "Map to existing signals": the signals the outputs go to, matching the model's output schema. Type id:output name to name an output, e.g. ${ID_EXAMPLE}:anomaly_score.`,
        { optional: true, multi: true },
      ),
      side: { choice: 'outputs', option: 'map' },
    },
    // A scoring's name is its Eval object's.
    ...NAMING.map((a) => (a === NAME ? { ...NAME, field: nameField('Evaluation name') } : a)),
  ],
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
    const { modelId, workspaceId, data, missing } = modelWorkspaceAndData(args, spec);
    const output = outputFrom(args, missing, PREFIX.maxLength!);
    const name = text(args, 'name');
    const description = text(args, 'description', DESCRIPTION.maxLength);
    if (!modelId || !workspaceId || !data || !output) {
      return missingOutcome('score', spec, missing, args, 'model', modelId);
    }
    return ok({ kind: 'score', modelId, workspaceId, data, output, name, description }, spec);
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
      typed('workspace', req.workspaceId),
      // The workspace a request names for a model is a claim; only the service's word links them.
      typed('model', req.modelId),
      ...dataEntries(req.data),
      ...(req.output.kind === 'signals' ? req.output.signals.map((s) => typed('signal', s.signal)) : []),
    ],
  }),
  // The Eval object and where its output went: the signals the service names, else the prefix asked for.
  outputs: declareOutputs(
    [
      {
        name: 'eval',
        type: 'resource',
        label: 'Eval object',
        shown: {},
        feeds: true,
        catalog: { kind: 'eval', links: { model: 'model', workspace: 'workspace' } },
      },
      { name: 'output_signals', type: 'resources', label: 'Output signals', shown: {}, feeds: true },
      { name: 'output_prefix', type: 'text', label: 'Output signal prefix', shown: {}, feeds: true },
      { name: 'model', type: 'id', label: 'Model', shown: 'hidden', feeds: true },
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
