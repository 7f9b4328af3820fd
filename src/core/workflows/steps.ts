import type { FlowResults } from '../../api/index.js';
import type { CatalogUpsert } from '../../store/index.js';
import { parseCommand } from '../grammar/parse.js';
import type { Operation } from '../operations/operation.js';
import { requestParams } from '../operations/params.js';
import {
  type AnyEntry,
  type Argument,
  entryOfCommand,
  entryOfOperation,
  type FlowOutputs,
  REGISTRY,
} from '../operations/registry/index.js';
import { outputsOf as flowOutputsOf } from '../tracking/outputs.js';
import { CHANNEL_INPUT, RUNNER_INPUT } from './inputs.js';

/**
 * The Workflow Builder steps (Slack's custom steps, "functions"), derived from the registry with no list of
 * operations of their own: an entry is a step when it hands something on, a completed flow's declared
 * outputs or the resource the service's answer names; a command with a choice of leading words
 * (`live start|stop`) is a step per word. A step's inputs are the entry's arguments (every value a string,
 * as typed in the command, IDs included: they exceed what a number holds), plus the person who runs the
 * workflow and an optional channel to announce in. Its outputs are read from what the entry declares it
 * yields, by asking the entry about its own first example (`yieldOf`). manifest.yml's `functions` are
 * generated from this (src/slack/workflows/manifest.ts), and a test fails when they differ.
 */

export { CHANNEL_INPUT, RUNNER_INPUT } from './inputs.js';

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
type Read = (o: FlowOutputs, added: readonly CatalogUpsert[], d: StepDone) => Value;

const returned = (kind: CatalogUpsert['kind']) => (added: readonly CatalogUpsert[], d: StepDone) =>
  added.find((a) => a.kind === kind && a.id === d.seen?.id);

/**
 * Every output a step may have, worded once: its type, its title in Workflow Builder, and how it is read
 * from what the entry declares (a completed flow's `outputs`, or the catalog entries of the resource the
 * service's answer named).
 */
const OUTPUTS = {
  flow_id: { type: 'text', title: 'Flow ID', read: ((_o, _a, d) => d.flow?.id) as Read },
  status: { type: 'text', title: 'Flow status', read: ((_o, _a, d) => d.flow?.status) as Read },
  request_id: { type: 'text', title: 'Approval request ID', read: ((_o, _a, d) => d.approvalId) as Read },
  model_id: {
    type: 'text',
    title: 'Model ID',
    read: ((o, a, d) =>
      o.model?.id ?? o.live?.modelId ?? o.backfill?.modelId ?? returned('model')(a, d)?.id) as Read,
  },
  model_name: {
    type: 'text',
    title: 'Model name',
    read: ((o, a, d) => o.model?.name ?? o.live?.name ?? returned('model')(a, d)?.name) as Read,
  },
  dataspec_id: { type: 'text', title: 'Dataspec ID', read: ((o) => o.dataspec?.id) as Read },
  eval_id: { type: 'text', title: 'Eval object ID', read: ((o) => o.eval?.id) as Read },
  eval_name: { type: 'text', title: 'Eval object name', read: ((o) => o.eval?.name) as Read },
  output_signals: {
    type: 'text',
    title: 'Output signal IDs (comma-separated)',
    read: ((o) => (o.outputSignals?.length ? o.outputSignals.map((x) => x.id).join(',') : undefined)) as Read,
  },
  output_prefix: { type: 'text', title: 'Output signal prefix', read: ((o) => o.outputPrefix) as Read },
  workspace_id: {
    type: 'text',
    title: 'Workspace ID',
    read: ((o, a, d) =>
      o.workspace?.id ??
      returned('workspace')(a, d)?.id ??
      returned('model')(a, d)?.links?.workspace) as Read,
  },
  workspace_name: {
    type: 'text',
    title: 'Workspace name',
    read: ((_o, a, d) => returned('workspace')(a, d)?.name) as Read,
  },
  live: {
    type: 'flag',
    title: 'Model is live',
    read: ((o) => (o.live ? o.live.state === 'live' : undefined)) as Read,
  },
} as const satisfies Record<string, { type: StepParameterType; title: string; read: Read }>;

export type StepOutputName = keyof typeof OUTPUTS;

/** Which outputs each part of a flow's declared outputs fills. */
const FROM_FLOW: Record<keyof FlowOutputs, readonly StepOutputName[]> = {
  model: ['model_id', 'model_name'],
  dataspec: ['dataspec_id'],
  eval: ['eval_id', 'eval_name'],
  outputSignals: ['output_signals'],
  outputPrefix: ['output_prefix'],
  backfill: ['model_id'],
  live: ['model_id', 'live'],
  workspace: ['workspace_id'],
  used: [],
  removed: [],
};

/** Which outputs a resource the service's answer named fills. */
const FROM_RETURNED: Partial<Record<CatalogUpsert['kind'], readonly StepOutputName[]>> = {
  workspace: ['workspace_id', 'workspace_name'],
  model: ['model_id', 'model_name', 'workspace_id'],
};

/** A complete record: one of everything a flow can yield, so an entry's `outputs` shows all it reads. */
const EVERYTHING: FlowResults = {
  models: [{ id: '1', name: 'm', created: true, live: true }],
  dataspecs: [{ id: '2', name: 'd', created: true }],
  evals: [{ id: '3', name: 'e', outputSignals: [{ id: '4', name: 's' }] }],
  signals: [{ id: '4', name: 's' }],
  segments: [],
  others: [],
};
const RETURNED = { id: 'returned', name: 'n', workspace: 'w' };
const EXAMPLE_NOW = new Date(Date.UTC(2026, 0, 15, 12));

/** The operation an entry's first example comes to, with each of its leading words. */
function exampleOperation(entry: AnyEntry, word?: string): Operation | undefined {
  let text = (entry.command.examples[0] ?? '').replace(/^\/tsai\s+/, '');
  if (word && entry.command.lead) text = text.replace(new RegExp(`\\b(${entry.command.lead})\\b`), word);
  const parsed = parseCommand(text);
  if (!parsed.ok) return undefined;
  const resolved = entry.resolve(parsed.command, { now: EXAMPLE_NOW, timeZone: 'UTC', userName: 'someone' });
  return resolved.ok ? resolved.operation : undefined;
}

/** What a step of this entry yields and waits for, asked of the entry about its own example. */
function yieldOf(entry: AnyEntry, word?: string): { waits: StepWait; outputs: StepOutputName[] } | undefined {
  const op = exampleOperation(entry, word);
  if (!op) return undefined;
  const request = requestParams(op);
  if (entry.outputs) {
    const o = entry.outputs({ results: EVERYTHING, request });
    const names = (Object.keys(o) as (keyof FlowOutputs)[]).flatMap((k) => FROM_FLOW[k]);
    // A request filed for approval: the flow comes once an approver approves it.
    const waits = op.kind === entry.operationKind ? 'flow' : 'approval';
    const head: StepOutputName[] =
      waits === 'approval' ? ['flow_id', 'status', 'request_id'] : ['flow_id', 'status'];
    return { waits, outputs: unique([...head, ...names]) };
  }
  const added = entry.catalog(op, RETURNED).add.filter((a) => a.id === RETURNED.id);
  const names = added.flatMap((a) => FROM_RETURNED[a.kind] ?? []);
  return names.length ? { waits: 'nothing', outputs: unique(names) } : undefined;
}

const unique = <T>(xs: T[]) => [...new Set(xs)];

/** `model-name` -> `model_name`: Workflow Builder's parameter names are words joined by underscores. */
export const inputName = (key: string) => key.replace(/[^a-z0-9]+/gi, '_').toLowerCase();

const titled = (words: string) => words.charAt(0).toUpperCase() + words.slice(1);

function argumentInput(arg: Argument): StepParameter {
  const noun = arg.noun ?? arg.key.replace(/-/g, ' ');
  const fallback =
    arg.kind === 'signals'
      ? 'Signals'
      : arg.kind === 'range'
        ? 'Time range'
        : arg.kind === 'id' && !/\bID\b/.test(noun)
          ? `${noun} ID`
          : noun;
  const range = arg.kind === 'range' ? ' Read in your own time zone, as the command reads it.' : '';
  const hint = arg.field?.hint ?? arg.example;
  return {
    name: inputName(arg.key),
    type: 'text',
    title: titled(arg.field?.label ?? fallback),
    // The command's wording names its keys in code (`dataspec=`); a step's inputs are fields.
    description: `${arg.help.replace(/`([^`]*?)=?`/g, '$1')}${range}`,
    // One side of an either/or (new signals and ranges, or an existing dataspec) is never required alone.
    required: arg.required && arg.side === undefined,
    argKey: arg.key,
    ...(hint ? { hint } : {}),
  };
}

function outputParam(name: StepOutputName, required: boolean): StepParameter {
  const o = OUTPUTS[name];
  return { name, type: o.type, title: o.title, description: o.title, required };
}

function stepOf(entry: AnyEntry, word: string | undefined): StepSpec | undefined {
  const y = yieldOf(entry, word);
  if (!y) return undefined;
  const words = word ? [word] : [];
  const base = entry.form?.title ?? titled(entry.command.summary.replace(/\s*\(.*$/, '').replace(/\.$/, ''));
  const title = word
    ? `${titled([...entry.command.words, word].join(' '))}${y.waits === 'approval' ? ' (with approval)' : ''}`
    : base;
  return {
    callbackId: `tsai_${[...entry.command.words, ...words]
      .join('_')
      .replace(/[^a-z0-9]+/gi, '_')
      .toLowerCase()}`,
    title,
    description: `${entry.command.summary} Needs the ${entry.role} role at the service.`,
    commandId: entry.command.id,
    words,
    waits: y.waits,
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
        description:
          'Where the step posts what it started and how it ended (optional: without one, the person who runs the workflow is told directly).',
        required: false,
      },
    ],
    // A flow's ID and status are always there; the rest only when the service's record names them.
    // A flow's ID and status are always there, as is the resource a lookup or a create named; the rest
    // only when the service's record names them.
    outputs: y.outputs.map((n, i) =>
      outputParam(n, n === 'flow_id' || n === 'status' || (y.waits === 'nothing' && i === 0)),
    ),
  };
}

let steps: readonly StepSpec[] | undefined;

/** Every step, in the registry's order (read once, after any operations were registered). */
export function allSteps(): readonly StepSpec[] {
  steps ??= REGISTRY.flatMap((entry) =>
    (entry.command.lead ? entry.command.lead.split('|') : [undefined])
      .map((w) => stepOf(entry, w))
      .filter((st): st is StepSpec => st !== undefined),
  );
  return steps;
}

export function stepOfCallback(callbackId: string): StepSpec | undefined {
  return allSteps().find((st) => st.callbackId === callbackId);
}

/** The outputs a finished step hands on, as Slack takes them: only those it has a value for. */
export function outputsOf(step: StepSpec, done: StepDone): Record<string, string | boolean> {
  const entry = entryOfOperation(String(done.request.kind)) ?? entryOfCommand(step.commandId);
  // The tracker's one reading of what a stored flow yields, by the entry of the operation that created it.
  const declared: FlowOutputs = done.flow?.results
    ? flowOutputsOf({
        result: done.flow.results as unknown as Record<string, unknown>,
        request: { operation: done.request },
      })
    : {};
  const added = done.seen && entry ? entry.catalog(done.request, done.seen).add : [];
  const out: Record<string, string | boolean> = {};
  for (const o of step.outputs) {
    const v = OUTPUTS[o.name as StepOutputName].read(declared, added, done);
    if (v !== undefined) out[o.name] = v;
  }
  return out;
}
