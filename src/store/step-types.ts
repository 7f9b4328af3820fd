/**
 * A Workflow Builder step the bot is running, from Slack's `function_executed` until the one completion
 * Slack accepts:
 *
 *   running (the follow-up has it in hand, under its lease)
 *     -> waiting (for a flow's end, or an approval request's decision and then its flow's end)
 *     -> ready (the completion is decided: outputs or an error, to be sent to Slack)
 *     -> done (Slack took it, or said the execution had already ended)
 *
 * A running row whose lease ran out belonged to a process that died: it is made ready with an error.
 */
export type StepState = 'running' | 'waiting' | 'ready' | 'done';

export interface NewStepExecution {
  /** Slack's `function_execution_id` (`Fx…`): the key, so a redelivered event finds its row. */
  executionId: string;
  /** The step (the manifest function's callback_id). */
  callbackId: string;
  workflowExecutionId?: string;
  teamId?: string;
  /** Who ran the workflow. */
  userId: string;
  /** Where the step announces its flow; absent: nowhere. */
  channelId?: string;
  createdAt: number;
  /** The follow-up that runs it holds it until then. */
  owner: string;
  leaseUntil: number;
}

export type StepCompletion =
  | { kind: 'success'; outputs: Record<string, unknown> }
  | { kind: 'error'; error: string };

export interface StepExecution {
  executionId: string;
  callbackId: string;
  workflowExecutionId: string | null;
  teamId: string | null;
  userId: string;
  channelId: string | null;
  state: StepState;
  /** The flow it waits for. */
  flowId: string | null;
  /** The approval request it waits for (a live start or stop). */
  approvalId: string | null;
  /** What Slack is (to be) told; set once ready. */
  completion: StepCompletion | null;
  createdAt: number;
  leaseOwner: string | null;
  leaseUntil: number | null;
  /** A ready step is not sent again before this (Slack failing, or asking to wait). */
  nextTryAt: number | null;
  /** How many times the completion was sent and not taken. */
  attempts: number;
  completedAt: number | null;
}

/** What a holder of a step's lease may change. */
export interface StepExecutionPatch {
  state?: StepState;
  flowId?: string;
  approvalId?: string;
  completion?: StepCompletion;
  nextTryAt?: number | null;
  attempts?: number;
  completedAt?: number;
  leaseUntil?: number;
  /** Give the lease back with the write. */
  release?: boolean;
}

/** The store's side of running Workflow Builder steps; see `Store`. */
export interface StepExecutionStore {
  /**
   * Records a step Slack asked to run, held by `owner`; a step already recorded (a redelivered event) is
   * left as it is: `created` says which.
   */
  recordStepExecution(step: NewStepExecution): Promise<{ step: StepExecution; created: boolean }>;
  getStepExecution(executionId: string): Promise<StepExecution | null>;
  /**
   * Leases up to `limit` steps that have something to do and nobody else's lease: ready ones due to be
   * sent, waiting ones whose flow ended (or whose request was turned down or expired, or whose approved
   * flow ended), and running ones whose holder's lease ran out. Replicas never get the same step.
   */
  claimDueSteps(o: { owner: string; now: number; leaseMs: number; limit: number }): Promise<StepExecution[]>;
  /**
   * Applies a change only while `owner` holds the lease and the step is not done: the compare-and-set
   * that makes each step completed once. Null when it does not hold it (or the step is done).
   */
  updateStepExecution(
    executionId: string,
    owner: string,
    patch: StepExecutionPatch,
  ): Promise<StepExecution | null>;
  /** Leases one ready step for sending at once, when nobody else holds it. */
  claimStep(o: {
    executionId: string;
    owner: string;
    now: number;
    leaseMs: number;
  }): Promise<StepExecution | null>;
  /** Gives back every lease `owner` holds (shutdown); returns how many. */
  releaseStepLeases(owner: string): Promise<number>;
  /** Steps of a workflow run (or the latest ones), newest first. */
  listStepExecutions(query?: {
    workflowExecutionId?: string;
    userId?: string;
    limit?: number;
  }): Promise<StepExecution[]>;
}
