import { missingOutcome, ok, text } from '../../grammar/args.js';
import type { DataArg } from '../../grammar/types.js';
import { EXAMPLE_IDS as X } from '../../ids.js';
import { serviceFailure } from '../../service-errors.js';
import type { ResolvedData } from '../requests.js';
import { commandOnly, DATASPEC, DESCRIPTION, dataArgs, modelWorkspaceAndData, NAMING } from './arguments.js';
import { dataFacts, described, flowOf, modelRunFacts, toDataspec } from './describe.js';
import type { OperationEntry } from './entry.js';
import { MAX_RANGES } from './entry.js';
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

/** Incremental ANOMALYLEARN: an existing anomaly model taught new data. */
export const anomalyRelearn: OperationEntry<RelearnCommand, RelearnRequest> = {
  parsedKind: 'relearn',
  operationKind: 'relearn',
  command: {
    id: 'relearn',
    words: ['relearn'],
    usage:
      '/tsai relearn <model_id> workspace=<id> (signals=<id[:label],…> range=<time range;…> [dataspec-name=…] | dataspec=<id>)',
    summary:
      'Teach an existing anomaly model new data (incremental ANOMALYLEARN); earlier ranges need not be repeated.',
    examples: [
      `/tsai relearn ${X.model} workspace=${X.workspace} signals=${X.signal} range="Nov 20 to Nov 21"`,
    ],
    mutating: true,
  },
  args: [
    {
      key: 'model',
      kind: 'id',
      required: true,
      help: 'The existing anomaly model to teach.',
      channelDefault: true,
      positional: true,
      fields: ['model'],
    },
    // The form takes new data only: a dataspec is for the command line.
    ...dataArgs("The model's workspace.").map((a) => (a === DATASPEC ? commandOnly(DATASPEC) : a)),
    ...NAMING,
  ],
  form: {
    kind: 'relearn',
    title: 'Relearn anomaly model',
    submit: 'Start relearning',
    fields: ['name', 'description', 'model', 'workspace', 'signals', 'dataspecName'],
    maxRanges: MAX_RANGES,
  },
  parse(args, spec) {
    const { modelId, workspaceId, data, missing } = modelWorkspaceAndData(args, spec);
    const name = text(args, 'name');
    const description = text(args, 'description', DESCRIPTION.maxLength);
    if (!modelId || !workspaceId || !data)
      return missingOutcome('relearn', spec, missing, args, 'model', modelId);
    return ok({ kind: 'relearn', modelId, workspaceId, data, name, description }, spec);
  },
  resolve: resolveNamedData('relearn'),
  flowType: () => 'ANOMALYLEARN',
  async execute(req, service, echo) {
    try {
      const flow = await service.anomalyLearnIncremental({
        name: req.name,
        ...(req.description ? { description: req.description } : {}),
        spec: { model: req.modelId, workspace: req.workspaceId, dataspec: toDataspec(req.data) },
      });
      return {
        ok: true,
        kind: 'service',
        visibility: 'channel',
        title: 'started an incremental ANOMALYLEARN flow (existing model)',
        flow: flowOf(flow),
        facts: [...modelRunFacts(req), ...dataFacts(req.data, echo), ...described(req.description)],
      };
    } catch (e) {
      return serviceFailure(e, 'create the incremental ANOMALYLEARN flow', { what: 'flow', name: req.name });
    }
  },
};
