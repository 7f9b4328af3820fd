import { type Args, dataFrom, idFrom, tooMany } from '../../grammar/args.js';
import type { CommandSpec } from '../../grammar/spec.js';
import { SERVICE_MODEL_NAMING } from '../../names.js';
import type { Argument, FieldSpec } from './entry.js';

/** Arguments several operations take, worded once. */

/** The options say the rest: this channel's default first, and "use ID …" for an ID the bot has not seen. */
export const PICK_HINT = "Type a name or an ID; this channel's default comes first.";
const PICK = 'Type a name or an ID';
export const ID_EXAMPLE = '1353853719423311872';

/** A type-ahead select of the catalog's resources: its label and hint, one or several. */
export function pick(
  name: string,
  catalog: Extract<FieldSpec['kind'], { input: 'select' }>['catalog'],
  label: string,
  hint: string,
  o: { optional?: boolean; multi?: true } = {},
): FieldSpec {
  return {
    name,
    kind: { input: 'select', catalog, ...(o.multi ? { multi: o.multi } : {}) },
    label,
    hint,
    placeholder: PICK,
    optional: o.optional ?? false,
  };
}

/** The flow name, shown empty with the default it gets as its placeholder. */
export function nameField(label = 'Flow name'): FieldSpec {
  return {
    name: 'name',
    kind: { input: 'text' },
    label,
    hint: 'Leave empty to use the default shown.',
    placeholder: DEFAULT_NAME_PLACEHOLDER,
    optional: true,
  };
}

/** The placeholder that stands for the default name a flow gets when its name is left empty. */
export const DEFAULT_NAME_PLACEHOLDER = '{default name}';

export const NAME: Argument = {
  key: 'name',
  kind: 'text',
  required: false,
  help: 'The flow name (default: the command, who ran it and when).',
  freeText: true,
  field: nameField(),
};

export const DESCRIPTION: Argument = {
  key: 'description',
  kind: 'text',
  required: false,
  help: 'A description kept with it at the service.',
  freeText: true,
  maxLength: 2000,
  field: {
    name: 'description',
    kind: { input: 'text', multiline: true },
    label: 'Description',
    optional: true,
  },
};

export const SIGNALS: Argument = {
  key: 'signals',
  kind: 'signals',
  required: true,
  help: 'The signals to learn from, `id[:label]`, comma-separated (or `dataspec=`).',
  noun: 'signal',
  field: pick(
    'signals',
    'signal',
    'Signals',
    `Pick as many as needed (new data only). Type id:label to give a signal a label of your own, e.g. ${ID_EXAMPLE}:Bearing temperature.`,
    { optional: true, multi: true },
  ),
  side: { choice: 'data', option: 'new' },
};

/** The signals of new data only (no dataspec to choose instead): the form needs them. */
export const NEW_SIGNALS: Argument = {
  ...SIGNALS,
  field: pick(
    'signals',
    'signal',
    'New signals',
    `Pick as many as needed. Type id:label to give a signal a label of your own, e.g. ${ID_EXAMPLE}:Bearing temperature.`,
    { multi: true },
  ),
};

/** The time ranges a form takes, one input each. */
export function rangesField(optional: boolean): FieldSpec {
  return { name: 'ranges', kind: { input: 'ranges' }, label: 'Time range', optional };
}

export const RANGE: Argument = {
  key: 'range',
  kind: 'range',
  required: true,
  help: 'The time range of the data, read in your zone; separate several ranges with `;`.',
  freeText: true,
  shape: 'range=<time range;…>',
  // A dataspec may be given instead of ranges.
  field: rangesField(true),
  side: { choice: 'data', option: 'new' },
};

export const DATASPEC_NAME: Argument = {
  key: 'dataspec-name',
  kind: 'text',
  required: false,
  help: 'The name of the new dataspec made of `signals=` and `range=` (default: the flow name).',
  freeText: true,
  field: {
    name: 'dataspecName',
    kind: { input: 'text' },
    label: 'Dataspec name',
    hint: 'Optional name for the dataspec built from these signals and ranges.',
    optional: true,
  },
  side: { choice: 'data', option: 'new', detail: true },
};

export const DATASPEC: Argument = {
  key: 'dataspec',
  kind: 'id',
  required: false,
  help: 'An existing dataspec to reuse instead of `signals=` and `range=`.',
  field: pick(
    'dataspecId',
    'dataspec',
    'Dataspec',
    'Only with "Reuse an existing dataspec ID": the dataspec of an earlier flow. With a model chosen, its dataspecs are offered.',
    { optional: true },
  ),
  side: { choice: 'data', option: 'dataspec' },
};

/** The workspace an anomaly flow runs in: `help` says which, in the command's help and the form's hint. */
export function workspaceArg(help: string): Argument {
  return {
    key: 'workspace',
    kind: 'id',
    required: true,
    help,
    channelDefault: true,
    field: pick('workspace', 'workspace', 'Workspace', `${help} ${PICK_HINT}`),
  };
}

/** The data of an anomaly flow: a workspace, then signals and ranges (and the new dataspec's name) or a dataspec. */
export function dataArgs(workspaceHelp: string): Argument[] {
  return [workspaceArg(workspaceHelp), SIGNALS, RANGE, DATASPEC_NAME, DATASPEC];
}

/** The model a flow runs on: its label and what it is for, in the form. */
export function modelArg(help: string, label: string, noun?: string): Argument {
  return {
    key: 'model',
    kind: 'id',
    required: true,
    help,
    ...(noun ? { noun } : {}),
    channelDefault: true,
    positional: true,
    field: pick(
      'model',
      'model',
      label,
      `${help.replace(/\.$/, '')}; with a workspace chosen, its models are offered. ${PICK_HINT}`,
    ),
  };
}

/** The new model's name: left empty, the service names it. */
export const MODEL_NAME: Argument = {
  key: 'model-name',
  kind: 'text',
  required: false,
  help: "The new model's name (default: the service's).",
  freeText: true,
  field: {
    name: 'modelName',
    kind: { input: 'text' },
    label: 'Model name',
    hint: `Leave empty and the service names it: ${SERVICE_MODEL_NAMING}.`,
    optional: true,
  },
};

/** What an anomaly flow is called at the service: its name and description, after its other arguments. */
export const NAMING: readonly Argument[] = [NAME, DESCRIPTION];

/** A workspace and the data, read in that order by the operations that make a new model. */
export function workspaceAndData(args: Args, spec: CommandSpec) {
  tooMany(args, 0, spec);
  const missing: string[] = [];
  const workspaceId = idFrom(args, 'workspace', 'workspace', false);
  if (!workspaceId) missing.push('workspace');
  const data = dataFrom(args, missing);
  return { workspaceId, data, missing };
}

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
  const { field: _, ...rest } = arg;
  return rest;
}
