import { randomBytes } from 'node:crypto';
import type {
  ExecutionState,
  FunctionDefinition,
  FunctionExecution,
  WorkflowDefinition,
  WorkflowRun,
  WorkflowRunView,
} from './function-types.js';

export type * from './function-types.js';

type Json = Record<string, unknown>;

/** Slack's figure: an execution's token lasts 15 minutes from when it was issued. */
export const EXECUTION_TOKEN_TTL_MS = 15 * 60_000;

const rid = (prefix: string) => `${prefix}${randomBytes(6).toString('hex').toUpperCase()}`;

const isFrom = (v: unknown): v is { fromStep: number; output: string } =>
  !!v &&
  typeof v === 'object' &&
  typeof (v as Json).fromStep === 'number' &&
  typeof (v as Json).output === 'string';

/**
 * Workflow Builder and the function runtime as the bot meets them: the app's manifest functions, their
 * executions (each completed at most once), the execution tokens that expire, and workflows whose steps
 * hand their outputs on to the next step's inputs.
 */
export class FunctionRuntime {
  readonly executions = new Map<string, FunctionExecution>();
  readonly workflows = new Map<string, WorkflowRun>();
  definitions: Record<string, FunctionDefinition>;

  constructor(
    definitions: Record<string, FunctionDefinition>,
    private readonly now: () => number,
    /** Delivers `function_executed` for a new execution (the stand-in signs and posts it). */
    /** Delivers the event for the installation that serves `user`, who ran the workflow. */
    private readonly deliver: (event: Json, user: string) => Promise<unknown>,
  ) {
    this.definitions = definitions;
  }

  /** Whether `token` is an execution token, and if so why it no longer works (undefined: it works). */
  executionToken(token: string): { refused?: string } | undefined {
    if (!token.startsWith('xwfp-')) return undefined;
    const ex = [...this.executions.values()].find((e) => e.token === token);
    if (!ex) return { refused: 'invalid_auth' };
    if (ex.state !== 'running' || this.now() - ex.issuedAt >= EXECUTION_TOKEN_TTL_MS)
      return { refused: 'token_expired' };
    return {};
  }

  /** A workflow reaches a step: a new execution and its `function_executed` event. */
  async execute(o: {
    callbackId: string;
    user: string;
    inputs: Json;
    workflowExecutionId?: string;
  }): Promise<FunctionExecution> {
    const ex = this.open(o);
    await this.send(ex);
    return ex;
  }

  private open(o: {
    callbackId: string;
    user: string;
    inputs: Json;
    workflowExecutionId?: string;
  }): FunctionExecution {
    const def = this.definitions[o.callbackId];
    if (!def) throw new Error(`local slack: the app has no function "${o.callbackId}"`);
    const ex: FunctionExecution = {
      id: rid('Fx'),
      callbackId: o.callbackId,
      workflowExecutionId: o.workflowExecutionId ?? rid('Wx'),
      user: o.user,
      inputs: o.inputs,
      token: `xwfp-${randomBytes(16).toString('hex')}`,
      issuedAt: this.now(),
      state: 'running',
    };
    this.executions.set(ex.id, ex);
    return ex;
  }

  private async send(ex: FunctionExecution): Promise<void> {
    const def = this.definitions[ex.callbackId]!;
    const params = (p: FunctionDefinition['input_parameters']) =>
      Object.entries(p.properties).map(([name, x]) => ({
        name,
        type: x.type,
        title: x.title ?? name,
        description: x.description ?? '',
        is_required: (p.required ?? []).includes(name),
      }));
    await this.deliver(
      {
        type: 'function_executed',
        function: {
          id: `Fn${ex.callbackId
            .toUpperCase()
            .replace(/[^A-Z0-9]/g, '')
            .slice(0, 8)}`,
          callback_id: ex.callbackId,
          title: def.title,
          description: def.description ?? '',
          type: 'app',
          input_parameters: params(def.input_parameters),
          output_parameters: params(def.output_parameters),
          date_created: Math.floor(this.now() / 1000),
        },
        inputs: withUserContext(def, ex.inputs, ex.user),
        function_execution_id: ex.id,
        workflow_execution_id: ex.workflowExecutionId,
        bot_access_token: ex.token,
      },
      ex.user,
    );
  }

  /** `functions.completeSuccess` / `functions.completeError`. */
  call(method: string, args: Json): Json & { ok: boolean } {
    const id = args.function_execution_id;
    if (typeof id !== 'string' || id === '') return { ok: false, error: 'invalid_arguments' };
    const ex = this.executions.get(id);
    if (!ex) return { ok: false, error: 'function_execution_not_found' };
    if (ex.state !== 'running') return { ok: false, error: 'execution_not_in_running_state' };
    if (method === 'functions.completeError') {
      if (typeof args.error !== 'string' || args.error.trim() === '')
        return { ok: false, error: 'invalid_arguments' };
      this.finish(ex, { state: 'failed', error: args.error });
      return { ok: true };
    }
    const outputs = args.outputs;
    if (!outputs || typeof outputs !== 'object' || Array.isArray(outputs))
      return { ok: false, error: 'invalid_arguments' };
    const wrong = checkOutputs(this.definitions[ex.callbackId]!, outputs as Json);
    if (wrong.length)
      return { ok: false, error: 'parameter_validation_failed', response_metadata: { messages: wrong } };
    this.finish(ex, { state: 'completed', outputs: outputs as Json });
    return { ok: true };
  }

  private finish(
    ex: FunctionExecution,
    end: { state: ExecutionState; outputs?: Json; error?: string },
  ): void {
    Object.assign(ex, end, { completedAt: this.now() });
    const run = this.workflows.get(ex.workflowExecutionId);
    if (run) void this.next(run);
  }

  /** Runs a workflow: its first step now, each next one when the one before completes. */
  async runWorkflow(user: string, definition: WorkflowDefinition): Promise<WorkflowRun> {
    if (definition.steps.length === 0) throw new Error('local slack: a workflow needs at least one step');
    for (const st of definition.steps)
      if (!this.definitions[st.callbackId])
        throw new Error(`local slack: the app has no function "${st.callbackId}"`);
    const run: WorkflowRun = {
      id: rid('Wx'),
      name: definition.name ?? 'Workflow',
      user,
      definition,
      executions: [],
      state: 'running',
      startedAt: this.now(),
    };
    this.workflows.set(run.id, run);
    await this.next(run);
    return run;
  }

  private async next(run: WorkflowRun): Promise<void> {
    const last = run.executions.length ? this.executions.get(run.executions.at(-1)!) : undefined;
    if (last?.state === 'running') return;
    if (last?.state === 'failed') {
      run.state = 'failed';
      run.error = last.error;
      return;
    }
    const index = run.executions.length;
    const step = run.definition.steps[index];
    if (!step) {
      run.state = 'completed';
      return;
    }
    const inputs: Json = {};
    for (const [name, v] of Object.entries(step.inputs)) {
      if (!isFrom(v)) {
        inputs[name] = v;
        continue;
      }
      const from = run.executions[v.fromStep];
      const value = from ? this.executions.get(from)?.outputs?.[v.output] : undefined;
      // Workflow Builder leaves an input empty when the step before did not give that output.
      if (value !== undefined) inputs[name] = value;
    }
    const ex = this.open({
      callbackId: step.callbackId,
      user: run.user,
      inputs,
      workflowExecutionId: run.id,
    });
    run.executions.push(ex.id);
    await this.send(ex);
  }

  reset(): void {
    this.executions.clear();
    this.workflows.clear();
  }
}

/** Slack fills a `user_context` input with the person who ran the workflow: their ID and a secret. */
function withUserContext(def: FunctionDefinition, inputs: Json, user: string): Json {
  const out = { ...inputs };
  for (const [name, p] of Object.entries(def.input_parameters.properties))
    if (p.type === 'slack#/types/user_context' && out[name] === undefined)
      out[name] = { id: user, secret: randomBytes(12).toString('hex') };
  return out;
}

/** The outputs held to the manifest's output schema, as Slack does: declared names, their types, required ones there. */
function checkOutputs(def: FunctionDefinition, outputs: Json): string[] {
  const wrong: string[] = [];
  const props = def.output_parameters.properties;
  for (const name of def.output_parameters.required ?? [])
    if (outputs[name] === undefined || outputs[name] === null)
      wrong.push(`[ERROR] missing required field: ${name}`);
  for (const [name, v] of Object.entries(outputs)) {
    const p = props[name];
    if (!p) {
      wrong.push(`[ERROR] unknown output: ${name}`);
      continue;
    }
    if (!fitsType(p.type, v)) wrong.push(`[ERROR] ${name} must be of type ${p.type}`);
  }
  return wrong;
}

function fitsType(type: string, v: unknown): boolean {
  switch (type) {
    case 'boolean':
      return typeof v === 'boolean';
    case 'integer':
      return Number.isInteger(v);
    case 'number':
      return typeof v === 'number';
    case 'timestamp':
      return Number.isInteger(v);
    default:
      return typeof v === 'string';
  }
}

export function viewOfRun(rt: FunctionRuntime, run: WorkflowRun): WorkflowRunView {
  return {
    id: run.id,
    name: run.name,
    user: run.user,
    state: run.state,
    ...(run.error ? { error: run.error } : {}),
    startedAt: run.startedAt,
    steps: run.definition.steps.map((st, i) => {
      const ex = run.executions[i] ? rt.executions.get(run.executions[i]!) : undefined;
      const inputs = ex ? { ...ex.inputs } : undefined;
      // The person who ran it, without the secret Slack pairs with their ID.
      for (const [k, v] of Object.entries(inputs ?? {}))
        if (v && typeof v === 'object' && 'secret' in (v as Json)) inputs![k] = { id: (v as Json).id };
      return {
        callbackId: st.callbackId,
        title: rt.definitions[st.callbackId]?.title ?? st.callbackId,
        ...(ex ? { executionId: ex.id } : {}),
        state: ex?.state ?? 'not started',
        ...(inputs ? { inputs } : {}),
        ...(ex?.outputs ? { outputs: ex.outputs } : {}),
        ...(ex?.error ? { error: ex.error } : {}),
      };
    }),
  };
}
