import type { FollowUps } from '../runtime/jobs.js';
import { teamOf } from '../tenant.js';

/** The parts of Slack's `function_executed` event the bot reads. */
export interface FunctionExecutedBody {
  team_id?: unknown;
  event?: {
    function?: { callback_id?: unknown };
    inputs?: unknown;
    function_execution_id?: unknown;
    workflow_execution_id?: unknown;
  };
}

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * A workflow reached one of the bot's steps: acknowledged at once (Bolt leaves this event's ack to the
 * listener), and the step is run after, as a command is. Nothing is read here that could fail slowly.
 */
export async function ackFunctionExecuted(
  { ack, body }: { ack?: () => Promise<void>; body: FunctionExecutedBody },
  followUps: Pick<FollowUps, 'run'>,
): Promise<void> {
  await ack?.();
  const event = body.event ?? {};
  const executionId = str(event.function_execution_id);
  const callbackId = str(event.function?.callback_id);
  if (!executionId || !callbackId) return;
  const inputs =
    event.inputs && typeof event.inputs === 'object' && !Array.isArray(event.inputs)
      ? (event.inputs as Record<string, unknown>)
      : {};
  const workflowExecutionId = str(event.workflow_execution_id);
  const teamId = teamOf(body);
  followUps.run({
    kind: 'step-executed',
    start: {
      executionId,
      callbackId,
      ...(workflowExecutionId ? { workflowExecutionId } : {}),
      ...(teamId ? { teamId } : {}),
      inputs,
    },
  });
}
