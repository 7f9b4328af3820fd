/** Workflow Builder's side of the stand-in, as plain types: the sandbox page reads them too. */

type Json = Record<string, unknown>;

/** One parameter of a manifest function, as `input_parameters` / `output_parameters` declare it. */
export interface FunctionParameter {
  type: string;
  title?: string;
  description?: string;
  hint?: string;
}

/** A manifest function (a Workflow Builder custom step), keyed by its callback_id in the manifest. */
export interface FunctionDefinition {
  title: string;
  description?: string;
  input_parameters: { properties: Record<string, FunctionParameter>; required?: string[] };
  output_parameters: { properties: Record<string, FunctionParameter>; required?: string[] };
}

export type ExecutionState = 'running' | 'completed' | 'failed';

/** One run of a step, as Slack keeps it until it is completed (or fails). */
export interface FunctionExecution {
  id: string;
  callbackId: string;
  workflowExecutionId: string;
  user: string;
  inputs: Json;
  /** The token Slack hands the app with the event: good for 15 minutes, or until the step completes. */
  token: string;
  issuedAt: number;
  state: ExecutionState;
  outputs?: Json;
  error?: string;
  completedAt?: number;
}

/** A value an input takes: given as is, or the output of an earlier step of the same workflow run. */
export type StepInputValue = unknown | { fromStep: number; output: string };

/** A workflow as Workflow Builder holds it: its steps in order, each input given or taken from a step before. */
export interface WorkflowDefinition {
  name?: string;
  steps: { callbackId: string; inputs: Record<string, StepInputValue> }[];
}

export interface WorkflowRun {
  id: string;
  name: string;
  user: string;
  definition: WorkflowDefinition;
  /** The executions of its steps, in order, as far as it got. */
  executions: string[];
  state: 'running' | 'completed' | 'failed';
  /** Why it stopped: the failed step's error, or an input that could not be filled. */
  error?: string;
  startedAt: number;
}

/** A workflow run as a UI shows it: its steps' states, inputs and outputs; never an execution's token. */
export interface WorkflowRunView {
  id: string;
  name: string;
  user: string;
  state: WorkflowRun['state'];
  error?: string;
  startedAt: number;
  steps: {
    callbackId: string;
    title: string;
    executionId?: string;
    state: ExecutionState | 'not started';
    inputs?: Json;
    outputs?: Json;
    error?: string;
  }[];
}
