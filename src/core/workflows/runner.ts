import { randomUUID } from 'node:crypto';
import type { StepCompletion, StepExecution, Store } from '../../store/index.js';
import { teamRecords } from '../gate/team.js';
import type { Person } from '../interpret.js';
import { operationFromArgs } from '../operations/from-args.js';
import type { Actor, Operation, OperationResult } from '../operations/operation.js';
import { requestParams } from '../operations/params.js';
import { entryOfCommand } from '../operations/registry/index.js';
import type { Operations } from '../operations/run.js';
import type { OpFailure } from '../outcome.js';
import { Rounds } from '../rounds.js';
import { maskSecrets } from '../secret-text.js';
import { afterApproval, afterFlow, afterRun, INTERRUPTED, UNKNOWN_STEP } from './completion.js';
import { CHANNEL_INPUT, RUN_AS_REFUSED, runnerOf } from './inputs.js';
import { type StepSpec, stepOfCallback } from './steps.js';

export type { StepCompletion, StepExecution };
export { runnerOf };

/** What Slack sent when a workflow reached one of the bot's steps (`function_executed`), as plain data. */
export interface StepStart {
  executionId: string;
  callbackId: string;
  workflowExecutionId?: string;
  teamId?: string;
  inputs: Record<string, unknown>;
}

/** How a surface hands a completion to Slack; the runner knows nothing of Slack. */
export interface StepCompleter {
  /**
   * `done`: Slack took it, or said the execution is no longer running (completed before, or ended).
   * `later`: try again then (Slack failing or asking to wait). `invalid`: Slack refused the outputs.
   */
  complete(step: StepExecution, completion: StepCompletion): Promise<CompleteResult>;
}

export type CompleteResult =
  | { kind: 'done' }
  | { kind: 'later'; notBefore: number }
  | { kind: 'invalid'; why: string };

/** What a surface does for a step besides completing it. */
export interface StepSurface {
  /** The person who runs the workflow: their name, zone and locale, as a command's are looked up. */
  person(userId: string): Promise<Person>;
  /** Shows the operation's outcome in the step's channel (else to the person), as a command's is shown. */
  announce?(actor: Actor, result: OperationResult, failure?: OpFailure): Promise<void>;
}

export interface StepLog {
  info(o: object, msg: string): void;
  warn(o: object, msg: string): void;
  error(o: object, msg: string): void;
}

export interface StepRunnerDeps {
  store: Store;
  operations: Pick<Operations, 'run'>;
  /** The bot's business clock: time ranges are read against it. */
  now: () => Date;
  /** The machine's clock (ms), for leases shared with other replicas. */
  clock?: () => number;
  /** How long a step is this replica's once claimed (at least one service call). */
  leaseMs: number;
  log: StepLog;
  tickMs?: number;
  batch?: number;
  /** Whether the bot follows flows (TSAI_TRACK_FLOWS): without it, a step cannot learn how a flow ended. */
  followsFlows?: boolean;
}

const STEP_AGAIN_MIN_MS = 2_000;
/**
 * How long the follow-up that runs a step holds it: an operation may make several service calls (a
 * lookup, then the create, each with its retries). A process that dies with a step in hand leaves it
 * this long before another round fails it as interrupted.
 */
const RUNNING_LEASE_MS = 5 * 60_000;
const STEP_AGAIN_MAX_MS = 60_000;

/**
 * Runs Workflow Builder steps: a step's inputs go through the same reading as a form's values (the
 * registry entry's parser and resolver, in the person's zone), then the one runner (policy, identity,
 * audit, service call); the step then waits, in the store, for its flow (or its approval request and then
 * its flow) and completes once. Waiting costs no timer and no service call of its own: the tracker follows
 * the flow, the approvals decide the request, and the rounds here lease the steps whose wait is over, so
 * a step survives restarts and is completed by one replica.
 */
export class StepRunner {
  readonly owner = `steps-${randomUUID()}`;
  private readonly clock: () => number;
  private completer: StepCompleter | undefined;
  private readonly rounds: Rounds;

  constructor(private readonly deps: StepRunnerDeps) {
    this.clock = deps.clock ?? Date.now;
    this.rounds = new Rounds({
      tick: () => this.tick(),
      tickMs: deps.tickMs ?? 1_000,
      batch: deps.batch ?? 50,
      failed: (e) => deps.log.error({ err: String(e) }, 'workflow step round failed'),
    });
  }

  /** A step Slack asked to run: recorded (a redelivery is dropped), read, run, and completed or waiting. */
  async start(s: StepStart, surface: StepSurface, completer: StepCompleter): Promise<StepExecution> {
    const { store, log } = this.deps;
    const runner = runnerOf(s.inputs);
    const channel = stringInput(s.inputs[CHANNEL_INPUT]);
    const now = this.clock();
    const { step: row, created } = await store.recordStepExecution({
      executionId: s.executionId,
      callbackId: s.callbackId,
      ...(s.workflowExecutionId ? { workflowExecutionId: s.workflowExecutionId } : {}),
      ...(s.teamId ? { teamId: s.teamId } : {}),
      userId: runner ?? '',
      ...(channel ? { channelId: channel } : {}),
      createdAt: now,
      owner: this.owner,
      leaseUntil: now + Math.max(this.deps.leaseMs, RUNNING_LEASE_MS),
    });
    if (!created) {
      log.info({ execution: s.executionId }, 'a step Slack sent again; it is already in hand');
      return row;
    }
    const step = stepOfCallback(s.callbackId);
    const decided = await this.decide(s, step, runner, channel, surface);
    if ('completion' in decided) return this.settle(row, decided.completion, completer);
    const waiting = await store.updateStepExecution(s.executionId, this.owner, {
      state: 'waiting',
      ...decided.wait,
      release: true,
    });
    log.info({ execution: s.executionId, step: s.callbackId, ...decided.wait }, 'a workflow step waits');
    return waiting ?? row;
  }

  private async decide(
    s: StepStart,
    step: StepSpec | undefined,
    runner: string | undefined,
    channel: string | undefined,
    surface: StepSurface,
  ): Promise<ReturnType<typeof afterRun>> {
    const error = (text: string) => ({ completion: { kind: 'error' as const, error: text } });
    if (!step) return error(UNKNOWN_STEP);
    if (!runner) return error(RUN_AS_REFUSED);
    const entry = entryOfCommand(step.commandId);
    if (!entry) return error(UNKNOWN_STEP);
    const person = await surface.person(runner);
    const read = operationFromArgs(
      entry,
      argumentsOf(step, s.inputs),
      { ...person, now: this.deps.now() },
      step.words,
    );
    if (!read.ok) return error(failureSentence(read));
    const actor: Actor = {
      userId: runner,
      ...(person.userName ? { userName: person.userName } : {}),
      ...(s.teamId ? { teamId: s.teamId } : {}),
      // Without a channel, what the step starts is the person's: told to them directly.
      channelId: channel ?? runner,
      asked: `the workflow step "${step.title}"`,
      timeZone: person.timeZone,
      via: 'workflow',
      surface: 'workflow-step',
      workflow: {
        step: step.callbackId,
        ...(s.workflowExecutionId ? { workflowExecutionId: s.workflowExecutionId } : {}),
        functionExecutionId: s.executionId,
      },
    };
    const result = await this.deps.operations.run(actor, read.operation);
    // Shown as a command's outcome is: in the step's channel, else to the person directly; a live request's
    // card goes to its approvers either way.
    if (surface.announce)
      await surface
        .announce(actor, result)
        .catch((e: unknown) =>
          this.deps.log.warn(
            { execution: s.executionId, err: String(e) },
            'could not announce a step in its channel',
          ),
        );
    if (!result.ok) return error(failureSentence(result));
    const after = afterRun(step, requestOf(read.operation), result);
    if ('wait' in after && this.deps.followsFlows === false)
      return error(
        `The operation started, but this bot does not follow flows (TSAI_TRACK_FLOWS=false), so the step cannot wait for its end. Follow it with /tsai flow${'flowId' in after.wait ? ` ${after.wait.flowId}` : 's'}.`,
      );
    return after;
  }

  /** Makes a step ready with its completion, and sends it at once. */
  private async settle(
    row: StepExecution,
    told: StepCompletion,
    completer: StepCompleter,
  ): Promise<StepExecution> {
    // Whatever the error quotes (a refusal quoting an input, a reason an approver typed) is masked before
    // it is kept or sent to Slack, as under a command's reply.
    const completion: StepCompletion =
      told.kind === 'error' ? { ...told, error: maskSecrets(told.error) } : told;
    const ready = await this.deps.store.updateStepExecution(row.executionId, this.owner, {
      state: 'ready',
      completion,
      nextTryAt: this.clock(),
    });
    if (!ready) return row;
    return this.send(ready, completer);
  }

  /** Sends a ready step's completion; done once Slack took it, else put off (the lease given back). */
  private async send(step: StepExecution, completer: StepCompleter): Promise<StepExecution> {
    const { store, log } = this.deps;
    const completion = step.completion!;
    let r: CompleteResult;
    try {
      r = await completer.complete(step, completion);
    } catch (e) {
      log.error({ execution: step.executionId, err: String(e) }, 'completing a step failed inside the bot');
      r = { kind: 'later', notBefore: this.clock() + this.backoff(step.attempts) };
    }
    if (r.kind === 'invalid' && completion.kind === 'success') {
      // Outputs Slack refuses would refuse again: the workflow is told instead of left waiting.
      log.error({ execution: step.executionId, why: r.why }, 'Slack refused the outputs of a step');
      const failed: StepCompletion = {
        kind: 'error',
        error:
          "The step finished, but Slack did not take its results (the app's steps may have changed since the workflow was built). Edit the workflow, add the step again and run it again.",
      };
      const again = await store.updateStepExecution(step.executionId, this.owner, { completion: failed });
      return again ? this.send(again, completer) : step;
    }
    if (r.kind === 'later') {
      const put = await store.updateStepExecution(step.executionId, this.owner, {
        nextTryAt: Math.max(r.notBefore, this.clock() + STEP_AGAIN_MIN_MS),
        attempts: step.attempts + 1,
        release: true,
      });
      return put ?? step;
    }
    const done = await store.updateStepExecution(step.executionId, this.owner, {
      state: 'done',
      completedAt: this.clock(),
      release: true,
    });
    if (done)
      log.info(
        { execution: step.executionId, step: step.callbackId, completion: completion.kind },
        'completed a workflow step',
      );
    return done ?? step;
  }

  private backoff(attempts: number): number {
    return Math.min(STEP_AGAIN_MAX_MS, STEP_AGAIN_MIN_MS * 2 ** Math.min(attempts, 10));
  }

  /** Begins the rounds that complete the steps whose wait is over. */
  begin(completer: StepCompleter): void {
    this.completer = completer;
    this.rounds.start();
  }

  async stop(): Promise<void> {
    await this.rounds.stop();
    await this.deps.store.releaseStepLeases(this.owner);
  }

  /** One round: lease the steps that have something to do, and do it. Returns how many. */
  async tick(): Promise<number> {
    const completer = this.completer;
    if (!completer) return 0;
    const steps = await this.deps.store.claimDueSteps({
      owner: this.owner,
      now: this.clock(),
      leaseMs: this.deps.leaseMs,
      limit: this.deps.batch ?? 50,
    });
    await Promise.all(
      steps.map((st) =>
        this.advance(st, completer).catch((e: unknown) =>
          this.deps.log.error(
            { execution: st.executionId, err: String(e) },
            'could not complete a workflow step',
          ),
        ),
      ),
    );
    return steps.length;
  }

  private async advance(step: StepExecution, completer: StepCompleter): Promise<void> {
    if (step.state === 'ready') return void (await this.send(step, completer));
    const completion =
      step.state === 'running' ? { kind: 'error' as const, error: INTERRUPTED } : await this.waited(step);
    if (!completion) {
      await this.deps.store.updateStepExecution(step.executionId, this.owner, { release: true });
      return;
    }
    await this.settle(step, completion, completer);
  }

  /**
   * What a waiting step's flow or request came to; undefined while it goes on. Both are read as the
   * team guarantee reads them, within the step's own tenant: another tenant's flow of the same ID (its
   * service hands out its own) is not this step's.
   */
  private async waited(step: StepExecution): Promise<StepCompletion | undefined> {
    const spec = stepOfCallback(step.callbackId);
    if (!spec) return { kind: 'error', error: UNKNOWN_STEP };
    const mine = teamRecords(this.deps.store, step.teamId);
    if (step.flowId) {
      const flow = await mine.flow(step.flowId);
      return flow ? afterFlow(spec, flow) : undefined;
    }
    if (step.approvalId) {
      const request = await mine.request(step.approvalId);
      if (!request)
        return { kind: 'error', error: 'The approval request this step waited for is gone from the bot.' };
      const flow = request.flowId ? await mine.flow(request.flowId) : null;
      return afterApproval(spec, request, flow);
    }
    return undefined;
  }
}

/** The arguments a step's inputs give, by the command's keys, as a command's text would hold them. */
function argumentsOf(step: StepSpec, inputs: Record<string, unknown>): Record<string, string> {
  const given: Record<string, string> = {};
  for (const input of step.inputs) {
    if (!input.argKey) continue;
    const v = inputs[input.name];
    const text = typeof v === 'number' || typeof v === 'boolean' ? String(v) : stringInput(v);
    if (text !== undefined) given[input.argKey] = text;
  }
  return given;
}

function stringInput(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/** A refusal as one sentence with a correct example, as a command's error says it. */
export function failureSentence(f: OpFailure): string {
  // A command offers a Connect button; a step's error is text, so it says where connecting is done.
  const connect = f.connect ? ' To connect, type /tsai connect in Slack, then run the workflow again.' : '';
  const example = f.example ? ` For example: ${f.example}` : '';
  return `${f.message}${connect}${example}`.replace(/`/g, '');
}

function requestOf(op: Operation): Record<string, unknown> {
  return requestParams(op);
}
