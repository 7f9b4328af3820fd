import type { ModelRecord, MoveModelBody } from '../../../wire/index.js';
import { Bad, idFrom, ok, tooMany } from '../../grammar/args.js';
import { EXAMPLE_IDS as X } from '../../ids.js';
import { MODEL, WORKSPACE } from '../../kinds/index.js';
import { serviceFailure } from '../../service-errors.js';
import { resourceArg } from './arguments.js';
import { returnedModel } from './catalog-change.js';
import { modelReturned, modelSeen, schemasOf, str } from './describe.js';
import type { OperationEntry } from './entry.js';

const MOVED = resourceArg(MODEL, 'model', 'The model to move.', { shape: '<model_id>' });
const TO = resourceArg(WORKSPACE, 'workspace', 'The workspace it moves to.', {
  shape: '[to] <workspace_id>',
});

export interface ModelMove {
  kind: 'model-move';
  modelId: string;
  workspaceId: string;
}

export const modelMove: OperationEntry<ModelMove, ModelMove, MoveModelBody, ModelRecord> = {
  parsedKind: 'model-move',
  operationKind: 'model-move',
  command: {
    id: 'model move',
    words: ['model', 'move'],
    summary: 'Move a model to another workspace.',
    examples: [`/tsai model move ${X.model} to ${X.workspace}`],
    mutating: true,

    said: [{ phrases: ['move the model', 'move a model'] }],
  },
  args: [MOVED, TO],
  role: 'Manager',
  parse(args, spec) {
    const p = args.positionals;
    if (p.length >= 2 && p[1]!.toLowerCase() === 'to' && !args.quotedPositionals[1]) {
      p.splice(1, 1);
      args.quotedPositionals.splice(1, 1);
    }
    const modelId = idFrom(args, MOVED, true);
    const workspaceId = idFrom(args, TO, true);
    tooMany(args, 0, spec);
    if (!modelId || !workspaceId)
      throw new Bad('`model move` needs a model and a destination workspace (their IDs or names).');
    return ok({ kind: 'model-move', modelId, workspaceId }, spec);
  },
  resolve: (command) => ({ ok: true, operation: command }),
  wire: {
    method: 'PUT',
    version: '1.3',
    path: '/models/{model}',
    label: 'model move',
    what: 'model {model} or workspace {workspace}',
    schemas: schemasOf((w) => ({ body: w.moveModelBody, answer: { record: w.modelRecord } })),
  },
  async execute(req, { send }) {
    try {
      const model = await send({ ids: { model: req.modelId }, body: { workspace: req.workspaceId } });
      return {
        ok: true,
        kind: 'service',
        visibility: 'channel',
        title: 'moved a model to another workspace',
        seen: modelSeen(model),
        facts: [
          { label: 'Model', value: model.id, code: true },
          { label: 'Now in workspace', value: str(model.workspace) ?? req.workspaceId, code: true },
        ],
      };
    } catch (e) {
      return serviceFailure(e, `move model ${req.modelId}`);
    }
  },
  catalog: (req, r) => ({
    add: returnedModel(r ?? { id: req.modelId }, 'service', { workspace: req.workspaceId }),
  }),
  outputs: modelReturned,
};
