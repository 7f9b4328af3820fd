import { missingOutcome, ok, outputFrom, text } from '../../grammar/args.js';
import type { DataArg, OutputArg } from '../../grammar/types.js';
import { EXAMPLE_IDS as X } from '../../ids.js';
import { serviceFailure } from '../../service-errors.js';
import type { ResolvedData, ResolvedOutput } from '../requests.js';
import { DESCRIPTION, dataArgs, modelWorkspaceAndData, NAMING } from './arguments.js';
import { dataFacts, described, flowOf, modelRunFacts, outputFacts, toDataspec } from './describe.js';
import type { Argument, OperationEntry } from './entry.js';
import { MAX_RANGES } from './entry.js';
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
  fields: ['prefix'],
  side: { choice: 'outputs', option: 'prefix' },
};

/** ANOMALYEVAL: data scored with an anomaly model, into new output signals or existing ones. */
export const anomalyEval: OperationEntry<ScoreCommand, ScoreRequest> = {
  parsedKind: 'score',
  operationKind: 'score',
  command: {
    id: 'score',
    words: ['score'],
    usage:
      '/tsai score <model_id> workspace=<id> (signals=… range=… [dataspec-name=…] | dataspec=<id>) (prefix=<p> | outputs=<signal[:name],…>)',
    summary: 'Score data with an anomaly model (ANOMALYEVAL), into new output signals or existing ones.',
    examples: [
      `/tsai score ${X.model} workspace=${X.workspace} signals=${X.signal}:temperature range="yesterday" prefix=pump3-scores`,
      `/tsai score ${X.model} workspace=${X.workspace} dataspec=${X.dataspec} outputs=${X.scoreSignal}:anomaly_score`,
    ],
    mutating: true,
  },
  args: [
    {
      key: 'model',
      kind: 'id',
      required: true,
      help: 'The anomaly model to apply.',
      noun: 'anomaly model',
      channelDefault: true,
      positional: true,
      fields: ['model'],
    },
    ...dataArgs("The model's workspace."),
    PREFIX,
    {
      key: 'outputs',
      kind: 'signals',
      required: false,
      help: 'Outputs go to these existing signals, `signal[:output name]`, comma-separated.',
      noun: 'output signal',
      labelNoun: 'output name',
      fields: ['outputs'],
      side: { choice: 'outputs', option: 'map' },
    },
    ...NAMING,
  ],
  form: {
    kind: 'score',
    title: 'Score with anomaly model',
    submit: 'Start scoring',
    fields: [
      'name',
      'description',
      'model',
      'workspace',
      'dataMode',
      'signals',
      'dataspecName',
      'dataspecId',
      'outputMode',
      'prefix',
      'outputs',
    ],
    maxRanges: MAX_RANGES,
  },
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
  flowType: () => 'ANOMALYEVAL',
  async execute(req, service, echo) {
    try {
      const flow = await service.anomalyEval({
        name: req.name,
        ...(req.description ? { description: req.description } : {}),
        spec: {
          model: req.modelId,
          workspace: req.workspaceId,
          dataspec: toDataspec(req.data),
          ...(req.output.kind === 'prefix'
            ? { outputsignalPrefix: req.output.prefix }
            : { outputsignals: req.output.signals.map((s) => ({ signal: s.signal, name: s.name })) }),
        },
      });
      return {
        ok: true,
        kind: 'service',
        visibility: 'channel',
        title: 'started an ANOMALYEVAL flow (scoring)',
        flow: flowOf(flow),
        facts: [
          ...modelRunFacts(req),
          ...dataFacts(req.data, echo),
          ...outputFacts(req.output),
          ...described(req.description),
        ],
      };
    } catch (e) {
      return serviceFailure(e, 'create the ANOMALYEVAL flow', { what: 'flow', name: req.name });
    }
  },
};
