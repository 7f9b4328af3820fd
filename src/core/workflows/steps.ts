import type { FlowResults } from '../../api/index.js';
import type { Argument, OperationEntry } from '../operations/registry/entry.js';
import { entryOfCommand } from '../operations/registry/index.js';

/**
 * The Workflow Builder steps: one per operation a routine chains (a custom step, Slack's "function"),
 * derived from the registry. Its inputs are the entry's arguments (every value a string, as typed in the
 * command, IDs included: they exceed what a number holds), plus the person who runs the workflow and an
 * optional channel to announce in; its outputs are what the operation produced. manifest.yml's
 * `functions` are generated from this (scripts/manifest-functions.ts), and a test fails when they differ.
 *
 * Which operations are steps, and what each hands on, is the one table below (`STEP_OPERATIONS`): the
 * registry entries do not declare their results yet. Once they do, this table goes and `stepsOf` reads
 * the entries; nothing else changes.
 */

/** The input every step has: who runs the workflow (their identity, zone and access). */
export const RUNNER_INPUT = 'run_as';
/** The optional input where the step announces its flow and its end, as a command would in a channel. */
export const CHANNEL_INPUT = 'channel';

/** What a parameter holds: text (IDs too), yes or no, a person (who runs the workflow), a channel. */
export type StepParameterType = 'text' | 'flag' | 'person' | 'channel';

export interface StepParameter {
  name: string;
  type: StepParameterType;
  title: string;
  description: string;
  required: boolean;
  /** The argument it stands for (inputs only). */
  argKey?: string;
  /** A value that works, shown as the field's hint. */
  hint?: string;
}

/** What the step hands on once its operation is done: the names of its outputs. */
export type StepOutputName = keyof typeof OUTPUTS;

/** What the step waits for before it completes. */
export type StepWait = 'flow' | 'approval' | 'nothing';

export interface StepSpec {
  /** The manifest function's key: `tsai_learn`, `tsai_live_start`. */
  callbackId: string;
  title: string;
  description: string;
  /** The registry entry whose command it runs. */
  commandId: string;
  /** Words the command takes before its options (`live start`). */
  words: readonly string[];
  waits: StepWait;
  inputs: readonly StepParameter[];
  outputs: readonly StepParameter[];
}

/** What a finished operation left for the outputs to read. */
export interface StepDone {
  /** The operation as sent (JSON-safe: core/operations/params.ts). */
  request: Record<string, unknown>;
  flow?: { id: string; status: string; results?: FlowResults | null };
  /** The resource a lookup or a create named (a workspace, a model). */
  seen?: { id: string; name?: string; workspace?: string };
  approvalId?: string;
}

type Value = string | boolean | undefined;
const s = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Every output a step may have: its type, what a person reads in Workflow Builder, and where it comes from. */
const OUTPUTS = {
  flow_id: { type: 'text', title: 'Flow ID', read: (d: StepDone): Value => d.flow?.id },
  status: {
    type: 'text',
    title: 'Flow status',
    read: (d: StepDone): Value => d.flow?.status,
  },
  model_id: {
    type: 'text',
    title: 'Model ID',
    read: (d: StepDone): Value =>
      d.flow?.results?.models[0]?.id ?? s(d.request.modelId) ?? (isModel(d) ? d.seen?.id : undefined),
  },
  model_name: {
    type: 'text',
    title: 'Model name',
    read: (d: StepDone): Value => d.flow?.results?.models[0]?.name ?? (isModel(d) ? d.seen?.name : undefined),
  },
  dataspec_id: {
    type: 'text',
    title: 'Dataspec ID',
    read: (d: StepDone): Value =>
      d.flow?.results?.dataspecs[0]?.id ??
      s((d.request.data as { dataspecId?: unknown } | undefined)?.dataspecId),
  },
  eval_id: {
    type: 'text',
    title: 'Eval object ID',
    read: (d: StepDone): Value => d.flow?.results?.evals[0]?.id,
  },
  eval_name: {
    type: 'text',
    title: 'Eval object name',
    read: (d: StepDone): Value => d.flow?.results?.evals[0]?.name,
  },
  output_signals: {
    type: 'text',
    title: 'Output signal IDs',
    read: (d: StepDone): Value => {
      const signals = d.flow?.results?.evals[0]?.outputSignals ?? [];
      return signals.length ? signals.map((x) => x.id).join(',') : undefined;
    },
  },
  workspace_id: {
    type: 'text',
    title: 'Workspace ID',
    read: (d: StepDone): Value => s(d.request.workspaceId) ?? (isModel(d) ? d.seen?.workspace : d.seen?.id),
  },
  workspace_name: {
    type: 'text',
    title: 'Workspace name',
    read: (d: StepDone): Value => (isModel(d) ? undefined : d.seen?.name),
  },
  request_id: { type: 'text', title: 'Approval request ID', read: (d: StepDone): Value => d.approvalId },
  live: {
    type: 'flag',
    title: 'Model is live',
    read: (d: StepDone): Value =>
      d.flow?.results?.models[0]?.live ??
      (d.request.action === 'start' ? true : d.request.action === 'stop' ? false : undefined),
  },
} as const satisfies Record<string, { type: StepParameterType; title: string; read: (d: StepDone) => Value }>;

/** A lookup or move names a model (with its workspace); a workspace create names the workspace. */
function isModel(d: StepDone): boolean {
  return d.request.kind === 'model-common' || d.request.kind === 'model-move';
}

interface StepOperation {
  /** The registry entry's command. */
  command: string;
  /** One step per set of leading words (the `live` request is a step to start and one to stop). */
  words?: readonly (readonly string[])[];
  title?: (words: readonly string[]) => string;
  waits: StepWait;
  /** Required outputs: always there once the step completes. */
  outputs: readonly StepOutputName[];
  optional?: readonly StepOutputName[];
}

const FLOW: readonly StepOutputName[] = ['flow_id', 'status'];

/** The operations offered as steps, and what each hands on (see the note at the top). */
const STEP_OPERATIONS: readonly StepOperation[] = [
  {
    command: 'learn',
    waits: 'flow',
    outputs: [...FLOW, 'workspace_id'],
    optional: ['model_id', 'model_name', 'dataspec_id'],
  },
  {
    command: 'relearn',
    waits: 'flow',
    outputs: [...FLOW, 'model_id', 'workspace_id'],
    optional: ['model_name', 'dataspec_id'],
  },
  {
    command: 'score',
    waits: 'flow',
    outputs: [...FLOW, 'model_id'],
    optional: ['eval_id', 'eval_name', 'output_signals', 'dataspec_id'],
  },
  { command: 'eval', waits: 'flow', outputs: [...FLOW, 'model_id'] },
  {
    command: 'live',
    words: [['start'], ['stop']],
    title: ([w]) =>
      w === 'start' ? 'Start a live model (with approval)' : 'Stop a live model (with approval)',
    waits: 'approval',
    outputs: [...FLOW, 'model_id', 'request_id', 'live'],
  },
  {
    command: 'model move',
    waits: 'nothing',
    outputs: ['model_id'],
    optional: ['model_name', 'workspace_id'],
  },
  { command: 'workspace create', waits: 'nothing', outputs: ['workspace_id'], optional: ['workspace_name'] },
  {
    command: 'model common',
    waits: 'nothing',
    outputs: ['model_id'],
    optional: ['model_name', 'workspace_id'],
  },
];

/** `model-name` -> `model_name`: Workflow Builder's parameter names are words joined by underscores. */
export const inputName = (key: string) => key.replace(/[^a-z0-9]+/gi, '_').toLowerCase();

const titled = (words: string) => words.charAt(0).toUpperCase() + words.slice(1);

function argumentInput(arg: Argument): StepParameter {
  const noun = arg.noun ?? arg.key.replace(/-/g, ' ');
  const title =
    arg.kind === 'signals'
      ? 'Signals'
      : arg.kind === 'range'
        ? arg.oneRange
          ? 'Time range'
          : 'Time ranges'
        : arg.kind === 'id' && !/\bID\b/.test(noun)
          ? `${noun} ID`
          : noun;
  const range = arg.kind === 'range' ? ' Read in your own time zone, as the command reads it.' : '';
  return {
    name: inputName(arg.key),
    type: 'text',
    title: titled(title),
    // The command's wording names its keys in code (`dataspec=`); a step's inputs are fields.
    description: `${arg.help.replace(/`([^`]*?)=?`/g, '$1')}${range}`,
    // One side of an either/or (new signals and ranges, or an existing dataspec) is never required alone.
    required: arg.required && arg.side === undefined,
    argKey: arg.key,
    ...(arg.example ? { hint: arg.example } : {}),
  };
}

function outputParam(name: StepOutputName, required: boolean): StepParameter {
  const o = OUTPUTS[name];
  return { name, type: o.type, title: o.title, description: o.title, required };
}

function stepOf(
  op: StepOperation,
  entry: OperationEntry<unknown, unknown>,
  words: readonly string[],
): StepSpec {
  const title =
    op.title?.(words) ??
    entry.form?.title ??
    titled(entry.command.summary.replace(/\s*\(.*$/, '').replace(/\.$/, ''));
  return {
    callbackId: `tsai_${[entry.command.id, ...words]
      .join(' ')
      .replace(/[^a-z0-9]+/gi, '_')
      .toLowerCase()}`,
    title,
    description: entry.command.summary,
    commandId: entry.command.id,
    words,
    waits: op.waits,
    inputs: [
      {
        name: RUNNER_INPUT,
        type: 'person',
        title: 'Run as',
        description: 'The person the step acts for: their own service token, time zone and access.',
        required: true,
      },
      ...entry.args.map(argumentInput),
      {
        name: CHANNEL_INPUT,
        type: 'channel',
        title: 'Announce in channel',
        description: 'Where the step posts what it started and how it ended (optional).',
        required: false,
      },
    ],
    outputs: [
      ...op.outputs.map((n) => outputParam(n, true)),
      ...(op.optional ?? []).map((n) => outputParam(n, false)),
    ],
  };
}

/** Every step, in the order of the table. */
export const STEPS: readonly StepSpec[] = STEP_OPERATIONS.flatMap((op) => {
  const entry = entryOfCommand(op.command);
  if (!entry) throw new Error(`no registry entry has the command ${op.command}`);
  return (op.words ?? [[]]).map((w) => stepOf(op, entry, w));
});

export function stepOfCallback(callbackId: string): StepSpec | undefined {
  return STEPS.find((st) => st.callbackId === callbackId);
}

/** The outputs a finished step hands on, as Slack takes them: only those it has a value for. */
export function outputsOf(step: StepSpec, done: StepDone): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = {};
  for (const o of step.outputs) {
    const v = OUTPUTS[o.name as StepOutputName].read(done);
    if (v !== undefined) out[o.name] = v;
  }
  return out;
}
