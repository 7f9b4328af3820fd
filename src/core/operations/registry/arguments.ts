import { type Args, dataFrom, idFrom, tooMany } from '../../grammar/args.js';
import type { CommandSpec } from '../../grammar/commands.js';
import type { Argument } from './entry.js';

/** Arguments several operations take, worded once. */

export const NAME: Argument = {
  key: 'name',
  kind: 'text',
  required: false,
  help: 'The flow name (default: the command, who ran it and when).',
  freeText: true,
  fields: ['name'],
};

export const DESCRIPTION: Argument = {
  key: 'description',
  kind: 'text',
  required: false,
  help: 'A description kept with it at the service.',
  freeText: true,
  maxLength: 2000,
  fields: ['description'],
};

export const SIGNALS: Argument = {
  key: 'signals',
  kind: 'signals',
  required: true,
  help: 'The signals to learn from, `id[:label]`, comma-separated (or `dataspec=`).',
  noun: 'signal',
  fields: ['signals'],
  side: { choice: 'data', option: 'new' },
};

export const RANGE: Argument = {
  key: 'range',
  kind: 'range',
  required: true,
  help: 'The time range of the data, read in your zone; separate several ranges with `;`.',
  freeText: true,
  fields: ['ranges'],
  side: { choice: 'data', option: 'new' },
};

export const DATASPEC_NAME: Argument = {
  key: 'dataspec-name',
  kind: 'text',
  required: false,
  help: 'The name of the new dataspec made of `signals=` and `range=` (default: the flow name).',
  freeText: true,
  fields: ['dataspecName'],
  side: { choice: 'data', option: 'new', detail: true },
};

export const DATASPEC: Argument = {
  key: 'dataspec',
  kind: 'id',
  required: false,
  help: 'An existing dataspec to reuse instead of `signals=` and `range=`.',
  fields: ['dataspecId'],
  side: { choice: 'data', option: 'dataspec' },
};

export function workspaceArg(help: string, channelDefault = true): Argument {
  return {
    key: 'workspace',
    kind: 'id',
    required: true,
    help,
    ...(channelDefault ? { channelDefault } : {}),
    fields: ['workspace'],
  };
}

/** The data of an anomaly flow: a workspace, then signals and ranges (and the new dataspec's name) or a dataspec. */
export function dataArgs(workspaceHelp: string): Argument[] {
  return [workspaceArg(workspaceHelp), SIGNALS, RANGE, DATASPEC_NAME, DATASPEC];
}

/** What an anomaly flow is called at the service: its name and description, after its other arguments. */
export const NAMING: readonly Argument[] = [NAME, DESCRIPTION];

/** The model, its workspace and the data, read in that order by the operations on an existing model. */
export function modelWorkspaceAndData(args: Args, spec: CommandSpec) {
  const modelId = idFrom(args, 'model', 'model', true);
  tooMany(args, 0, spec);
  const missing: string[] = [];
  if (!modelId) missing.push('model');
  const workspaceId = idFrom(args, 'workspace', 'workspace', false);
  if (!workspaceId) missing.push('workspace');
  const data = dataFrom(args, missing);
  return { modelId, workspaceId, data, missing };
}

/** The argument as the command takes it, which its form does not ask for. */
export function commandOnly(arg: Argument): Argument {
  const { fields: _, side: __, ...rest } = arg;
  return rest;
}
