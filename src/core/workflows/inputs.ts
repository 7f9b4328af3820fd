/**
 * The two inputs every step has besides its operation's arguments, and who runs a step. Apart from the
 * steps themselves, so that the acking thread, which only names the person behind a step, loads nothing
 * of the registry for it.
 */

/** The input every step has: who runs the workflow (their identity, zone and access). */
export const RUNNER_INPUT = 'run_as';
/** The optional input where the step announces its flow and its end, as a command would in a channel. */
export const CHANNEL_INPUT = 'channel';

/**
 * Who runs a step, from its inputs: only as Slack says it, a `user_context` (`{ id, secret }`, of which only
 * the ID is used). Slack fills that input with the person who ran the workflow and delivers nothing else
 * there, so anything else (a plain user ID typed into a text input, a variable of another type) is not
 * taken on trust: the step fails, saying why (`RUN_AS_REFUSED`).
 */
export function runnerOf(inputs: Record<string, unknown>): string | undefined {
  const v = inputs[RUNNER_INPUT];
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const id = (v as { id?: unknown }).id;
  return typeof id === 'string' && /^[UW][A-Z0-9]{2,}$/.test(id) ? id : undefined;
}

/** What a step whose "Run as" is not Slack's `user_context` fails with. */
export const RUN_AS_REFUSED =
  'This step runs only as the person Slack says ran the workflow, and its "Run as" input did not come from Slack as a person (a user_context). In Workflow Builder, set "Run as" to "Person who used this workflow"; nothing was sent.';
