import type { ServiceCalls } from '../../../api/index.js';
import type { ModelRecord } from '../../../wire/index.js';
import { ok, soleIdFrom } from '../../grammar/args.js';
import { EXAMPLE_IDS as X } from '../../ids.js';
import { ASSESSMENT, ID_OUTPUT } from '../../kinds/index.js';
import { serviceFailure } from '../../service-errors.js';
import { resourceArg } from './arguments.js';
import { returnedModel } from './catalog-change.js';
import { MODEL_RETURNED, modelReturnedValues, modelSeen, schemasOf, str } from './describe.js';
import { declareOutputs, type OperationEntry } from './entry.js';

const OF = resourceArg(ASSESSMENT, 'assessment', 'The assessment whose common model M[0] is looked up.', {
  channelDefault: true,
  positional: true,
});

export interface ModelCommon {
  kind: 'model-common';
  assessmentId: string;
}

export const modelCommon: OperationEntry<ModelCommon, ModelCommon, never, ModelRecord | null> = {
  parsedKind: 'model-common',
  operationKind: 'model-common',
  command: {
    id: 'model common',
    words: ['model', 'common'],
    summary: 'Look up the common model M[0] of an assessment.',
    examples: [`/tsai model common ${X.assessment}`],
    mutating: false,

    said: [{ phrases: ['common model', 'the m[0] of', 'm0 of'] }],
  },
  args: [OF],
  parse: (args, spec) =>
    ok(
      {
        kind: 'model-common',
        assessmentId: soleIdFrom(args, spec, OF, '`model common` needs an assessment (its ID or name).'),
      },
      spec,
    ),
  role: 'User',
  resolve: (command) => ({ ok: true, operation: command }),
  wire: {
    method: 'GET',
    version: '1.2',
    path: '/models',
    query: { assessment: '{assessment}', isCommonModel: 'true', limit: '1' },
    label: 'model lookup',
    what: 'assessment {assessment}',
    schemas: schemasOf((w) => ({ answer: { firstOf: w.modelRecord, listOf: 'models' } })),
  },
  async execute(req, { send }) {
    try {
      const model = await send({ ids: { assessment: req.assessmentId } });
      if (!model) return { ok: false, message: `Assessment ${req.assessmentId} has no common model (M[0]).` };
      return {
        ok: true,
        kind: 'service',
        visibility: 'ephemeral',
        title: `Common model (M[0]) of assessment ${req.assessmentId}`,
        seen: modelSeen(model),
        facts: [
          { label: 'Model ID', value: model.id, code: true },
          ...(str(model.name) ? [{ label: 'Name', value: str(model.name)!, code: true }] : []),
          ...(str(model.workspace) ? [{ label: 'Workspace', value: str(model.workspace)!, code: true }] : []),
        ],
      };
    } catch (e) {
      return serviceFailure(e, `look up the common model of assessment ${req.assessmentId}`);
    }
  },
  catalog: (req, r) => ({
    add: r
      ? [
          { kind: ASSESSMENT.name, id: req.assessmentId, source: 'service' },
          ...returnedModel(r, 'service', { assessment: req.assessmentId }),
        ]
      : [],
  }),
  // The model named, its workspace, and the assessment it is M[0] of: what a live start or EVAL takes.
  outputs: declareOutputs(
    [
      ...MODEL_RETURNED,
      { name: 'assessment', type: ID_OUTPUT, label: 'Assessment', shown: {}, feeds: 'assessment' },
    ],
    (done) => ({
      ...modelReturnedValues(done),
      ...(done.returned ? { assessment: done.request.assessmentId } : {}),
    }),
  ),
};

/** M[0] of an assessment, `null` when it has none: the lookup the approvals and EVAL make on the way. */
export function findCommonModel(service: ServiceCalls, assessmentId: string): Promise<ModelRecord | null> {
  return service.call(modelCommon.wire, { ids: { assessment: assessmentId } });
}
