import { dataFrom, idFrom, missingOutcome, ok, text, tooMany } from '../../grammar/args.js';
import type { DataArg } from '../../grammar/types.js';
import { EXAMPLE_IDS as X } from '../../ids.js';
import { SERVICE_MODEL_NAMING } from '../../names.js';
import { serviceFailure } from '../../service-errors.js';
import type { ResolvedData } from '../requests.js';
import { DESCRIPTION, dataArgs, NAMING } from './arguments.js';
import { dataFacts, described, flowOf, toDataspec } from './describe.js';
import type { OperationEntry } from './entry.js';
import { MAX_RANGES } from './entry.js';
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
export const anomalyLearn: OperationEntry<LearnCommand, LearnRequest> = {
  parsedKind: 'learn',
  operationKind: 'learn',
  command: {
    id: 'learn',
    words: ['learn'],
    usage:
      '/tsai learn workspace=<id> signals=<id[:label],…> range=<time range;…> [dataspec-name=…] [model-name=…] [name=…] [description=…]  or  /tsai learn workspace=<id> dataspec=<id> …',
    summary: 'Train a new anomaly model (ANOMALYLEARN). Several ranges: separate them with `;`.',
    examples: [
      `/tsai learn workspace=${X.workspace} signals=${X.signal}:temperature,${X.signal2}:pressure range="last week"`,
      `/tsai learn workspace=${X.workspace} dataspec=${X.dataspec} model-name="pump-3 retrain"`,
    ],
    mutating: true,
  },
  args: [
    ...dataArgs('The workspace in which the new model is created.'),
    {
      key: 'model-name',
      kind: 'text',
      required: false,
      help: "The new model's name (default: the service's).",
      freeText: true,
      fields: ['modelName'],
    },
    ...NAMING,
  ],
  form: {
    kind: 'learn',
    title: 'Learn an anomaly model',
    submit: 'Start learning',
    fields: [
      'name',
      'description',
      'workspace',
      'modelName',
      'dataMode',
      'signals',
      'dataspecName',
      'dataspecId',
    ],
    maxRanges: MAX_RANGES,
  },
  parse(args, spec) {
    tooMany(args, 0, spec);
    const missing: string[] = [];
    const workspaceId = idFrom(args, 'workspace', 'workspace', false);
    if (!workspaceId) missing.push('workspace');
    const data = dataFrom(args, missing);
    const name = text(args, 'name');
    const description = text(args, 'description', DESCRIPTION.maxLength);
    const modelName = text(args, 'model-name');
    if (!workspaceId || !data) return missingOutcome('learn', spec, missing, args, 'model', undefined);
    return ok({ kind: 'learn', workspaceId, data, modelName, name, description }, spec);
  },
  resolve: resolveNamedData('learn'),
  flowType: () => 'ANOMALYLEARN',
  async execute(req, service, echo) {
    try {
      const flow = await service.anomalyLearn({
        name: req.name,
        ...(req.description ? { description: req.description } : {}),
        spec: {
          workspace: req.workspaceId,
          ...(req.modelName ? { modelName: req.modelName } : {}),
          dataspec: toDataspec(req.data),
        },
      });
      return {
        ok: true,
        kind: 'service',
        visibility: 'channel',
        title: 'started an ANOMALYLEARN flow (new anomaly model)',
        flow: flowOf(flow),
        facts: [
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
      };
    } catch (e) {
      return serviceFailure(e, 'create the ANOMALYLEARN flow', { what: 'flow', name: req.name });
    }
  },
};
