import { Bad, idFrom, ok, tooMany } from '../../grammar/args.js';
import { EXAMPLE_IDS as X } from '../../ids.js';
import { serviceFailure } from '../../service-errors.js';
import { modelSeen, str } from './describe.js';
import type { OperationEntry } from './entry.js';

export interface ModelMove {
  kind: 'model-move';
  modelId: string;
  workspaceId: string;
}

export const modelMove: OperationEntry<ModelMove, ModelMove> = {
  parsedKind: 'model-move',
  operationKind: 'model-move',
  command: {
    id: 'model move',
    words: ['model', 'move'],
    usage: '/tsai model move <model_id> [to] <workspace_id>',
    summary: 'Move a model to another workspace.',
    examples: [`/tsai model move ${X.model} to ${X.workspace}`],
    mutating: true,
  },
  args: [
    { key: 'model', kind: 'id', required: true, help: 'The model to move.' },
    { key: 'workspace', kind: 'id', required: true, help: 'The workspace it moves to.' },
  ],
  parse(args, spec) {
    const p = args.positionals;
    if (p.length >= 2 && p[1]!.toLowerCase() === 'to' && !args.quotedPositionals[1]) {
      p.splice(1, 1);
      args.quotedPositionals.splice(1, 1);
    }
    const modelId = idFrom(args, 'model', 'model', true);
    const workspaceId = idFrom(args, 'workspace', 'workspace', true);
    tooMany(args, 0, spec);
    if (!modelId || !workspaceId)
      throw new Bad('`model move` needs a model ID and a destination workspace ID.');
    return ok({ kind: 'model-move', modelId, workspaceId }, spec);
  },
  resolve: (command) => ({ ok: true, operation: command }),
  async execute(req, service) {
    try {
      const model = await service.moveModel(req.modelId, req.workspaceId);
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
};
