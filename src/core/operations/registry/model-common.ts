import { ok, soleIdFrom } from '../../grammar/args.js';
import { EXAMPLE_IDS as X } from '../../ids.js';
import { serviceFailure } from '../../service-errors.js';
import { modelSeen, str } from './describe.js';
import type { OperationEntry } from './entry.js';

export interface ModelCommon {
  kind: 'model-common';
  assessmentId: string;
}

export const modelCommon: OperationEntry<ModelCommon, ModelCommon> = {
  parsedKind: 'model-common',
  operationKind: 'model-common',
  command: {
    id: 'model common',
    words: ['model', 'common'],
    usage: '/tsai model common <assessment_id>',
    summary: 'Look up the common model M[0] of an assessment.',
    examples: [`/tsai model common ${X.assessment}`],
    mutating: false,
  },
  args: [
    {
      key: 'assessment',
      kind: 'id',
      required: true,
      help: 'The assessment whose common model M[0] is looked up.',
      channelDefault: true,
      positional: true,
    },
  ],
  parse: (args, spec) =>
    ok(
      {
        kind: 'model-common',
        assessmentId: soleIdFrom(args, spec, 'assessment', '`model common` needs an assessment ID.'),
      },
      spec,
    ),
  resolve: (command) => ({ ok: true, operation: command }),
  async execute(req, service) {
    try {
      const model = await service.findCommonModel(req.assessmentId);
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
};
