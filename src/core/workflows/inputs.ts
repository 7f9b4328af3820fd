/**
 * The two inputs every step has besides its operation's arguments, and who runs a step. Apart from the
 * steps themselves, so that the acking thread, which only names the person behind a step, loads nothing
 * of the registry for it.
 */

/** The input every step has: who runs the workflow (their identity, zone and access). */
export const RUNNER_INPUT = 'run_as';
/** The optional input where the step announces its flow and its end, as a command would in a channel. */
export const CHANNEL_INPUT = 'channel';

/** Who runs a step, from its inputs (Slack's `user_context`: `{ id, secret }`; only the ID is used). */
export function runnerOf(inputs: Record<string, unknown>): string | undefined {
  const v = inputs[RUNNER_INPUT];
  if (v && typeof v === 'object' && typeof (v as { id?: unknown }).id === 'string')
    return (v as { id: string }).id;
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}
