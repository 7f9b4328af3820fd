import type { FlowResults } from '../../api/index.js';
import type { ApprovalRequest, StepCompletion, TrackedFlow } from '../../store/index.js';
import type { OperationResult } from '../operations/operation.js';
import type { TrackedRequest } from '../tracking/tracker.js';
import { outputsOf, type StepDone, type StepSpec } from './steps.js';

/**
 * What a step's completion is, from what the bot knows: the runner's result, a followed flow's end, an
 * approval request's decision. Each error is a sentence for the person who reads the workflow's activity.
 */

export const INTERRUPTED =
  "The bot was interrupted while it ran this step, so it may or may not have reached the service. Check the service's Activity view before you run the workflow again.";

export const UNKNOWN_STEP =
  'This step is not one the bot offers any more (its app may have been updated). Edit the workflow and add the step again.';

/** The outputs a step hands on, or an error naming the one the service's answer did not have. */
export function succeeded(step: StepSpec, done: StepDone): StepCompletion {
  const outputs = outputsOf(step, done);
  const missing = step.outputs.find((o) => o.required && outputs[o.name] === undefined);
  if (missing) {
    const check = done.flow
      ? `Check it with \`/tsai flow ${done.flow.id}\`.`
      : "Check it in the service's Activity view.";
    return {
      kind: 'error',
      error: `The operation finished, but the service's answer did not give its ${missing.title.toLowerCase()}, which the next steps expect. ${check}`,
    };
  }
  return { kind: 'success', outputs };
}

/** A step whose operation has just run: complete now, wait for a flow or an approval, or fail. */
export function afterRun(
  step: StepSpec,
  request: Record<string, unknown>,
  result: OperationResult,
): { completion: StepCompletion } | { wait: { flowId: string } | { approvalId: string } } {
  if (!result.ok) return { completion: { kind: 'error', error: sentence(result.message) } };
  if (result.kind === 'approval-filed') return { wait: { approvalId: result.request.id } };
  if (result.kind !== 'service')
    return {
      completion: { kind: 'error', error: 'The operation did not produce anything a step can hand on.' },
    };
  if (result.flow && step.waits !== 'nothing') return { wait: { flowId: result.flow.id } };
  return {
    completion: succeeded(step, {
      request,
      ...(result.flow ? { flow: result.flow } : {}),
      ...(result.seen ? { seen: result.seen } : {}),
    }),
  };
}

/** A followed flow's end, as its step's completion; undefined while it has not ended. */
export function afterFlow(
  step: StepSpec,
  flow: TrackedFlow,
  approvalId?: string,
): StepCompletion | undefined {
  if (!flow.endReason) return undefined;
  const what = `The ${flow.flowType} flow ${flow.flowId}`;
  if (flow.endReason === 'ended') {
    if (flow.status.toUpperCase() === 'COMPLETED') {
      const request = (flow.request as unknown as TrackedRequest).operation ?? {};
      return succeeded(step, {
        request,
        flow: { id: flow.flowId, status: flow.status, results: flow.result as unknown as FlowResults | null },
        ...(approvalId ? { approvalId } : {}),
      });
    }
    const reason = flow.failure ? `: ${sentence(flow.failure)}` : '; the service gave no reason.';
    return { kind: 'error', error: `${what} ended ${flow.status}${reason}` };
  }
  const why: Record<Exclude<TrackedFlow['endReason'], 'ended' | null>, string> = {
    'max-age': `${what} was still running when the bot stopped following it, after the longest it follows a flow.`,
    unauthorized: `The bot could no longer read ${what.slice(4)}${flow.failure ? `: ${sentence(flow.failure)}` : '.'}`,
    'not-found': `The service no longer knows ${what.slice(4)}.`,
    unsupported: `The service cannot tell the bot how ${what.slice(4)} ended.`,
  };
  return {
    kind: 'error',
    error: `${why[flow.endReason]} Check it in the service's Activity view.`,
  };
}

/**
 * An approval request's state, as its step's completion: turned down or expired fails the step; an
 * approved request waits for its flow (`flow`), whose end completes it.
 */
export function afterApproval(
  step: StepSpec,
  request: ApprovalRequest,
  flow: TrackedFlow | null,
): StepCompletion | undefined {
  const verb = request.action === 'start' ? 'start' : 'stop';
  const asked = `The request to ${verb} live model ${request.modelId}`;
  switch (request.status) {
    case 'rejected':
      return {
        kind: 'error',
        error: `${asked} was rejected${request.rejectReason ? `: ${sentence(request.rejectReason)}` : '.'}`,
      };
    case 'expired':
      return {
        kind: 'error',
        error: `${asked} expired before an approver decided it. Run the workflow again to ask again.`,
      };
    case 'refused':
    case 'unknown':
      return {
        kind: 'error',
        error: `${asked} was approved, but the flow was not created: ${sentence(request.error ?? 'no reason was given')}`,
      };
    case 'executed':
      return flow ? afterFlow(step, flow, request.id) : undefined;
    default:
      return undefined;
  }
}

/** Ends with a full stop, so that the sentence reads as one. */
function sentence(text: string): string {
  const t = text.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}
