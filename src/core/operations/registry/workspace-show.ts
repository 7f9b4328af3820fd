import type { WorkspaceRecord } from '../../../wire/index.js';
import { ok, soleIdFrom } from '../../grammar/args.js';
import { EXAMPLE_IDS as X } from '../../ids.js';
import { WORKSPACE } from '../../kinds/index.js';
import { serviceFailure } from '../../service-errors.js';
import { resourceArg } from './arguments.js';
import { described, schemasOf, str, workspaceReturned } from './describe.js';
import type { OperationEntry } from './entry.js';

const SHOWN = resourceArg(WORKSPACE, 'workspace', 'The workspace to show.', {
  channelDefault: true,
  positional: true,
});

export interface WorkspaceShow {
  kind: 'workspace-show';
  workspaceId: string;
}

export const workspaceShow: OperationEntry<WorkspaceShow, WorkspaceShow, never, WorkspaceRecord> = {
  parsedKind: 'workspace-show',
  operationKind: 'workspace-show',
  command: {
    id: 'workspace show',
    words: ['workspace', 'show'],
    summary: 'Show a workspace.',
    examples: [`/tsai workspace show ${X.workspace}`],
    mutating: false,

    said: [
      {
        phrases: [
          'show the workspace',
          'describe the workspace',
          'what is in the workspace',
          'about the workspace',
          'show',
        ],
      },
    ],
  },
  args: [SHOWN],
  role: 'User',
  parse: (args, spec) =>
    ok(
      {
        kind: 'workspace-show',
        workspaceId: soleIdFrom(args, spec, SHOWN, '`workspace show` needs a workspace (its ID or name).'),
      },
      spec,
    ),
  resolve: (command) => ({ ok: true, operation: command }),
  wire: {
    method: 'GET',
    version: '1.3',
    path: '/workspace/{workspace}',
    label: 'workspace',
    what: 'workspace {workspace}',
    schemas: schemasOf((w) => ({ answer: { record: w.workspaceRecord } })),
  },
  async execute(req, { send }) {
    try {
      const ws = await send({ ids: { workspace: req.workspaceId } });
      return {
        ok: true,
        kind: 'service',
        visibility: 'ephemeral',
        title: `Workspace ${str(ws.name) ?? ws.id}`,
        seen: { id: ws.id, ...(str(ws.name) ? { name: str(ws.name)! } : {}) },
        facts: [
          { label: 'Workspace ID', value: ws.id, code: true },
          ...(str(ws.name) ? [{ label: 'Name', value: str(ws.name)!, code: true }] : []),
          ...described(str(ws.description)),
          ...(typeof ws.createTime === 'number'
            ? [{ label: 'Created', value: new Date(ws.createTime).toISOString() }]
            : []),
        ],
      };
    } catch (e) {
      return serviceFailure(e, `get workspace ${req.workspaceId}`);
    }
  },
  catalog: (req, r) => ({
    add: [{ kind: WORKSPACE.name, id: r?.id ?? req.workspaceId, name: r?.name, source: 'service' }],
  }),
  notFound: (req) => ({ kind: WORKSPACE.name, id: req.workspaceId }),
  outputs: workspaceReturned,
};
