import type { ResourceKind } from '../../catalog/kind.js';
import { type Args, argValue, Bad, readArgs } from '../../grammar/args.js';
import type { CommandSpec } from '../../grammar/spec.js';
import type { DataArg, OutputArg, SignalRef } from '../../grammar/types.js';
import {
  DATASPEC as DATASPECS,
  ID,
  IDS,
  MODEL,
  RANGE as RANGE_KIND,
  SIGNAL,
  TEXT,
  WORD,
  WORKSPACE,
} from '../../kinds/index.js';
import { SERVICE_MODEL_NAMING } from '../../names.js';
import type { Argument, FieldSpec } from './entry.js';

/** Arguments several operations take, worded once. */

/** The options say the rest: this channel's default first, and "use ID …" for an ID the bot has not seen. */
export const PICK_HINT = "Type a name or an ID; this channel's default comes first.";
const PICK = 'Type a name or an ID';
export const ID_EXAMPLE = '1353853719423311872';

/** A type-ahead field (its argument's lookup says which resources it offers, one or several): label, hint. */
export function pick(name: string, label: string, hint: string, o: { optional?: boolean } = {}): FieldSpec {
  return { name, label, hint, placeholder: PICK, optional: o.optional ?? false };
}

/**
 * An argument that takes one resource of a kind, by its ID or by its name: its key, what it is for, and
 * whatever else it declares (positional, a channel default, its form field…).
 */
export function resourceArg(
  resource: ResourceKind,
  key: string,
  help: string,
  more: Omit<Partial<Argument<string>>, 'key' | 'kind' | 'lookup' | 'help'> = {},
): Argument<string> {
  return { key, kind: ID, lookup: { names: resource }, required: true, help, ...more };
}

/** The flow name, shown empty with the default it gets as its placeholder. */
export function nameField(label = 'Flow name'): FieldSpec {
  return {
    name: 'name',
    label,
    hint: 'Leave empty to use the default shown.',
    placeholder: DEFAULT_NAME_PLACEHOLDER,
    optional: true,
  };
}

/** The placeholder that stands for the default name a flow gets when its name is left empty. */
export const DEFAULT_NAME_PLACEHOLDER = '{default name}';

export const NAME: Argument<string> = {
  key: 'name',
  kind: TEXT,
  required: false,
  help: 'The flow name (default: the command, who ran it and when).',
  freeText: true,
  field: nameField(),
};

export const DESCRIPTION: Argument<string> = {
  key: 'description',
  aliases: ['desc'],
  kind: TEXT,
  required: false,
  help: 'A description kept with it at the service.',
  freeText: true,
  maxLength: 2000,
  field: { name: 'description', multiline: true, label: 'Description', optional: true },
};

/** Signals, each labelled: by its ID (`id[:label]`) or its name, the label then its name. */
export const SIGNAL_LIST = { names: SIGNAL, list: true, labels: { noun: 'label', fromName: true } } as const;

export const SIGNALS: Argument<SignalRef[]> = {
  key: 'signals',
  aliases: ['signal'],
  kind: IDS,
  lookup: SIGNAL_LIST,
  required: true,
  help: 'The signals to learn from, `id[:label]`, comma-separated (or `dataspec=`).',
  noun: 'signal',
  field: pick(
    'signals',
    'Signals',
    `Pick as many as needed (new data only). Type id:label to give a signal a label of your own, e.g. ${ID_EXAMPLE}:Bearing temperature.`,
    { optional: true },
  ),
  side: { choice: 'data', option: 'new' },
};

/** The signals of new data only (no dataspec to choose instead): the form needs them. */
export const NEW_SIGNALS: Argument<SignalRef[]> = {
  ...SIGNALS,
  field: pick(
    'signals',
    'New signals',
    `Pick as many as needed. Type id:label to give a signal a label of your own, e.g. ${ID_EXAMPLE}:Bearing temperature.`,
  ),
};

/** The time ranges a form takes, one input each. */
export function rangesField(optional: boolean): FieldSpec {
  return { name: 'ranges', label: 'Time range', optional };
}

/** What people type for a time range's key. */
export const RANGE_ALIASES = ['ranges', 'time-range', 'time'];

export const RANGE: Argument<string> = {
  key: 'range',
  aliases: RANGE_ALIASES,
  kind: RANGE_KIND,
  required: true,
  help: 'The time range of the data, read in your zone; separate several ranges with `;`.',
  freeText: true,
  shape: 'range=<time range;…>',
  // A dataspec may be given instead of ranges.
  field: rangesField(true),
  side: { choice: 'data', option: 'new' },
};

export const DATASPEC_NAME: Argument<string> = {
  key: 'dataspec-name',
  kind: TEXT,
  required: false,
  help: 'The name of the new dataspec made of `signals=` and `range=` (default: the flow name).',
  freeText: true,
  field: {
    name: 'dataspecName',
    label: 'Dataspec name',
    hint: 'Optional name for the dataspec built from these signals and ranges.',
    optional: true,
  },
  side: { choice: 'data', option: 'new', detail: true },
};

export const DATASPEC: Argument<string> = {
  key: 'dataspec',
  kind: ID,
  lookup: { names: DATASPECS },
  required: false,
  help: 'An existing dataspec to reuse instead of `signals=` and `range=`.',
  field: pick(
    'dataspecId',
    'Dataspec',
    'Only with "Reuse an existing dataspec ID": the dataspec of an earlier flow. With a model chosen, its dataspecs are offered.',
    { optional: true },
  ),
  side: { choice: 'data', option: 'dataspec' },
};

/** The workspace an anomaly flow runs in: `help` says which, in the command's help and the form's hint. */
export function workspaceArg(help: string): Argument<string> {
  return {
    key: 'workspace',
    kind: ID,
    lookup: { names: WORKSPACE },
    required: true,
    help,
    channelDefault: true,
    field: pick('workspace', 'Workspace', `${help} ${PICK_HINT}`),
  };
}

/** The data of an anomaly flow: a workspace, then signals and ranges (and the new dataspec's name) or a dataspec. */
export function dataArgs(workspaceHelp: string): Argument[] {
  return [workspaceArg(workspaceHelp), SIGNALS, RANGE, DATASPEC_NAME, DATASPEC];
}

/** The model a flow runs on: its label and what it is for, in the form. */
export function modelArg(help: string, label: string, noun?: string): Argument<string> {
  return {
    key: 'model',
    kind: ID,
    lookup: { names: MODEL },
    required: true,
    help,
    ...(noun ? { noun } : {}),
    channelDefault: true,
    positional: true,
    field: pick(
      'model',
      label,
      `${help.replace(/\.$/, '')}; with a workspace chosen, its models are offered. ${PICK_HINT}`,
    ),
  };
}

/** The new model's name: left empty, the service names it. */
export const MODEL_NAME: Argument<string> = {
  key: 'model-name',
  aliases: ['modelname'],
  kind: TEXT,
  required: false,
  help: "The new model's name (default: the service's).",
  freeText: true,
  field: {
    name: 'modelName',
    label: 'Model name',
    hint: `Leave empty and the service names it: ${SERVICE_MODEL_NAMING}.`,
    optional: true,
  },
};

/** Where ANOMALYEVAL's outputs go, new signals named after a prefix: one word. */
export const PREFIX: Argument<string> = {
  key: 'prefix',
  aliases: ['output-prefix', 'outputsignalprefix', 'outputsignal-prefix'],
  kind: WORD,
  required: false,
  help: 'Outputs go to new signals named `<prefix>/<output name>` (or `outputs=`).',
  noun: 'prefix for the new output signals',
  example: 'pump-7/anomaly',
  maxLength: 100,
  shape: 'prefix=<p>',
  field: {
    name: 'prefix',
    label: 'Output prefix',
    hint: 'New output signals are named prefix/<output name>. Only with "New signals with a prefix".',
    placeholder: 'pump-7/anomaly',
    optional: true,
  },
  side: { choice: 'outputs', option: 'prefix' },
};

/** Or to existing signals, each named by the model's output it takes (its label). */
export const OUTPUTS: Argument<SignalRef[]> = {
  key: 'outputs',
  aliases: ['output', 'outputsignals', 'output-signals'],
  kind: IDS,
  lookup: { names: SIGNAL, list: true, labels: { noun: 'output name', fromName: false } },
  required: false,
  help: 'Outputs go to these existing signals, `signal[:output name]`, comma-separated.',
  noun: 'output signal',
  shape: 'outputs=<signal[:name],…>',
  field: pick(
    'outputs',
    'Map outputs to existing signals',
    `Only with "Map to existing signals": the signals the outputs go to, matching the model's output schema. Type id:output name to name an output, e.g. ${ID_EXAMPLE}:anomaly_score.`,
    { optional: true },
  ),
  side: { choice: 'outputs', option: 'map' },
};

/** What an anomaly flow is called at the service: its name and description, after its other arguments. */
export const NAMING: readonly Argument[] = [NAME, DESCRIPTION];

/** Reads the data of learn, relearn and score: new signals and ranges, or a dataspec; what is not given, as missing. */
export function dataFrom(args: Args, missing: string[]): DataArg | undefined {
  const given = (a: Argument) => args.options[a.key] !== undefined;
  const dataspecName = argValue(args, DATASPEC_NAME);
  if (given(DATASPEC)) {
    if (given(SIGNALS) || given(RANGE))
      throw new Bad('Give either `signals=` with `range=`, or `dataspec=`, not both.', DATASPEC.key);
    if (dataspecName !== undefined)
      throw new Bad(
        '`dataspec-name=` names a new dataspec made of `signals=` and `range=`; `dataspec=` reuses one.',
        DATASPEC_NAME.key,
      );
    return { kind: 'dataspec', dataspecId: argValue(args, DATASPEC)! };
  }
  const signals = argValue(args, SIGNALS);
  const rangeText = argValue(args, RANGE);
  if (signals === undefined) missing.push(SIGNALS.key);
  if (rangeText === undefined) missing.push(RANGE.key);
  if (!signals || rangeText === undefined) return undefined;
  return { kind: 'inline', signals, rangeText, ...(dataspecName ? { dataspecName } : {}) };
}

/** Where ANOMALYEVAL's outputs go: new signals under a prefix, or existing ones. */
export function outputFrom(args: Args, missing: string[]): OutputArg | undefined {
  if (args.options[PREFIX.key] !== undefined && args.options[OUTPUTS.key] !== undefined)
    throw new Bad(
      'Give either `prefix=` (new output signals) or `outputs=` (existing signals), not both.',
      PREFIX.key,
    );
  const prefix = argValue(args, PREFIX);
  if (prefix !== undefined) return { kind: 'prefix', prefix };
  const signals = argValue(args, OUTPUTS);
  if (signals !== undefined) return { kind: 'signals', signals };
  missing.push(PREFIX.key);
  return undefined;
}

/**
 * The arguments of an operation on data (learn, relearn, score): each read by its kind (the model and
 * workspace, the name, …), then its data. `values` by key; `missing`: what the form must still ask.
 */
export function dataOperationArgs(args: Args, spec: CommandSpec, declared: readonly Argument[]) {
  const { values, missing } = readArgs(args, spec, declared);
  const data = dataFrom(args, missing);
  return { values, data, missing };
}

/** The argument as the command takes it, which its form does not ask for. */
export function commandOnly<V>(arg: Argument<V>): Argument<V> {
  const { field: _, ...rest } = arg;
  return rest;
}
