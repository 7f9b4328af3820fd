import type { CreateWorkspaceBody, WorkspaceRecord } from '../../../wire/index.js';
import { Bad, MAX_TEXT, ok, text } from '../../grammar/args.js';
import { TEXT, WORKSPACE } from '../../kinds/index.js';
import { serviceFailure } from '../../service-errors.js';
import { described, schemasOf, str, workspaceReturned } from './describe.js';
import type { OperationEntry } from './entry.js';

export interface WorkspaceCreate {
  kind: 'workspace-create';
  name: string;
  description?: string;
}

export const workspaceCreate: OperationEntry<
  WorkspaceCreate,
  WorkspaceCreate,
  CreateWorkspaceBody,
  WorkspaceRecord
> = {
  parsedKind: 'workspace-create',
  operationKind: 'workspace-create',
  command: {
    id: 'workspace create',
    words: ['workspace', 'create'],
    summary: 'Create a workspace.',
    examples: ['/tsai workspace create "Pump station 3" description="Trials for the new pumps"'],
    mutating: true,

    said: [{ phrases: ['create a workspace', 'make a workspace', 'add a workspace', 'new workspace'] }],
  },
  args: [
    {
      key: 'name',
      kind: TEXT,
      required: true,
      help: 'The workspace name.',
      freeText: true,
      said: ['called', 'named'],
      shape: '<name>',
    },
    {
      key: 'description',
      aliases: ['desc'],
      kind: TEXT,
      required: false,
      help: 'What it is for.',
      freeText: true,
    },
  ],
  role: 'User',
  parse(args, spec) {
    const positional = args.positionals.join(' ').trim();
    if (positional && args.options.name !== undefined)
      throw new Bad('The workspace name is given twice; give it once.');
    const name = positional || text(args, 'name');
    if (!name) throw new Bad('`workspace create` needs a name.');
    if ([...name].length > MAX_TEXT) throw new Bad(`The name is too long (at most ${MAX_TEXT} characters).`);
    return ok({ kind: 'workspace-create', name, description: text(args, 'description') }, spec);
  },
  resolve: (command) => ({ ok: true, operation: command }),
  wire: {
    method: 'POST',
    version: '1.3',
    path: '/workspace',
    label: 'workspace',
    what: 'the account',
    schemas: schemasOf((w) => ({ body: w.createWorkspaceBody, answer: { record: w.workspaceRecord } })),
  },
  async execute(req, { send }) {
    try {
      const ws = await send({
        body: { name: req.name, ...(req.description ? { description: req.description } : {}) },
      });
      return {
        ok: true,
        kind: 'service',
        visibility: 'channel',
        title: 'created a workspace',
        seen: { id: ws.id, ...(str(ws.name) ? { name: str(ws.name)! } : {}) },
        facts: [
          { label: 'Workspace ID', value: ws.id, code: true },
          { label: 'Name', value: str(ws.name) ?? req.name, code: true },
          ...described(str(ws.description) ?? req.description),
        ],
      };
    } catch (e) {
      return serviceFailure(e, 'create the workspace', { what: 'workspace', name: req.name });
    }
  },
  catalog: (req, r) => ({
    add: r ? [{ kind: WORKSPACE.name, id: r.id, name: r.name ?? req.name, source: 'service' }] : [],
  }),
  outputs: workspaceReturned,
};
