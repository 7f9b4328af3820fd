import type { FlowResults } from '../../api/index.js';
import {
  type AnyEntry,
  type Argument,
  entryOfCommand,
  entryOfOperation,
  type OutputSpec,
  onRegistered,
  REGISTRY,
} from '../operations/registry/index.js';
import { flowOutputs, type Output, readOutputs, type Yielded } from '../tracking/outputs.js';
import { CHANNEL_INPUT, RUNNER_INPUT } from './inputs.js';

/**
 * The Workflow Builder steps (Slack's custom steps, "functions"), derived from the registry with no list of
 * operations of their own: an entry is a step when it declares outputs; a command with a choice of
 * leading words (`live start|stop`) is a step per word. A step's inputs are the entry's arguments (every
 * value a string, as typed in the command, IDs included: they exceed what a number holds), plus the
 * person who runs the workflow and an optional channel to announce in. Its outputs are the entry's
 * declared outputs that feed a next step, after the flow's ID and status for a flow, each named and typed
 * by its declaration. manifest.yml's `functions` are generated from this (src/slack/workflows/manifest.ts),
 * and a test fails when they differ.
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

/** One value a step hands on, as Slack takes it. */
type Value = string | boolean;

/** A step's output parameter: its name, type and title, and how its value is read from what was yielded. */
interface StepOutput {
  param: Omit<StepParameter, 'required'>;
  read(o: Output): Value | undefined;
}

/** The outputs every step that starts a flow hands on, and the one of a step that files an approval request. */
const FLOW_ID = { name: 'flow_id', type: 'text', title: 'Flow ID', description: 'Flow ID' } as const;
const STATUS = { name: 'status', type: 'text', title: 'Flow status', description: 'Flow status' } as const;
const REQUEST_ID = {
  name: 'request_id',
  type: 'text',
  title: 'Approval request ID',
  description: 'Approval request ID',
} as const;

const param = (name: string, type: StepParameterType, title: string) => ({
  name,
  type,
  title,
  description: title,
});

/** The step outputs of one declared output, as its type hands it on: named after it, titled from its label. */
function stepOutputsOf(spec: OutputSpec): StepOutput[] {
  return spec.type.step.map((v) => ({
    param: param(`${spec.name}${v.suffix}`, v.type, v.title(spec.label)),
    read: (o: Output) => v.read(o.value),
  }));
}

/** The declared outputs a step hands on: those that feed a next step. */
const handedOn = (entry: AnyEntry) => (entry.outputs?.declared ?? []).filter((o) => o.feeds !== false);

/** What a step of this entry waits for: an approver's decision, its flow's end, or nothing. */
function waitsOf(entry: AnyEntry): StepWait {
  return entry.approval ? 'approval' : entry.wire.flowType ? 'flow' : 'nothing';
}

/** `model-name` -> `model_name`: Workflow Builder's parameter names are words joined by underscores. */
export const inputName = (key: string) => key.replace(/[^a-z0-9]+/gi, '_').toLowerCase();

const titled = (words: string) => words.charAt(0).toUpperCase() + words.slice(1);

function argumentInput(arg: Argument): StepParameter {
  const hint = arg.field?.hint ?? arg.example;
  return {
    name: inputName(arg.key),
    type: 'text',
    title: titled(arg.field?.label ?? arg.kind.step.title(arg)),
    // The command's wording names its keys in code (`dataspec=`); a step's inputs are fields.
    description: `${arg.help.replace(/`([^`]*?)=?`/g, '$1')}${arg.kind.step.note}`,
    // One side of an either/or (new signals and ranges, or an existing dataspec) is never required alone.
    required: arg.required && arg.side === undefined,
    argKey: arg.key,
    ...(hint ? { hint } : {}),
  };
}

function stepOf(entry: AnyEntry, word: string | undefined): StepSpec | undefined {
  const declared = handedOn(entry);
  if (declared.length === 0) return undefined;
  const waits = waitsOf(entry);
  const words = word ? [word] : [];
  const base = entry.form?.title ?? titled(entry.command.summary.replace(/\s*\(.*$/, '').replace(/\.$/, ''));
  const title = word
    ? `${titled([...entry.command.words, word].join(' '))}${waits === 'approval' ? ' (with approval)' : ''}`
    : base;
  const head =
    waits === 'approval' ? [FLOW_ID, STATUS, REQUEST_ID] : waits === 'flow' ? [FLOW_ID, STATUS] : [];
  const own = declared.flatMap(stepOutputsOf).map((o) => o.param);
  return {
    callbackId: `tsai_${[...entry.command.words, ...words]
      .join('_')
      .replace(/[^a-z0-9]+/gi, '_')
      .toLowerCase()}`,
    title,
    description: `${entry.command.summary} Needs the ${entry.role} role at the service.`,
    commandId: entry.command.id,
    words,
    waits,
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
    // A flow's ID and status are always there, as is the first thing a lookup or a create names; the
    // rest only when the service's answer names them.
    outputs: [
      ...head.map((p) => ({ ...p, required: p !== REQUEST_ID })),
      ...own.map((p, i) => ({ ...p, required: waits === 'nothing' && i === 0 })),
    ],
  };
}

let steps: readonly StepSpec[] | undefined;
// Operations registered before start (a test's own) are steps too.
onRegistered(() => {
  steps = undefined;
});

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

/** What a finished step's operation yielded, as its entry declares. */
function yieldedBy(step: StepSpec, done: StepDone): Yielded {
  const entry = entryOfOperation(String(done.request.kind)) ?? entryOfCommand(step.commandId);
  // A flow's outputs are the tracker's one reading of what it yielded, by the entry that created it.
  if (done.flow?.results)
    return flowOutputs({
      result: done.flow.results as unknown as Record<string, unknown>,
      request: { operation: done.request },
    });
  return readOutputs(entry, { request: done.request, ...(done.seen ? { returned: done.seen } : {}) });
}

/** The outputs a finished step hands on, as Slack takes them: only those it has a value for. */
export function outputsOf(step: StepSpec, done: StepDone): Record<string, Value> {
  const out: Record<string, Value> = {};
  if (done.flow) {
    out[FLOW_ID.name] = done.flow.id;
    out[STATUS.name] = done.flow.status;
  }
  if (done.approvalId) out[REQUEST_ID.name] = done.approvalId;
  for (const o of yieldedBy(step, done).outputs)
    for (const s of stepOutputsOf(o.spec)) {
      const v = s.read(o);
      if (v !== undefined && v !== '' && step.outputs.some((p) => p.name === s.param.name))
        out[s.param.name] = v;
    }
  return out;
}
