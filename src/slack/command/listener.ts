import type {
  BlockAction,
  ButtonAction,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
} from '@slack/bolt';
import { COMMANDS } from '../../core/grammar/commands.js';
import { parseCommand } from '../../core/grammar/parse.js';
import { formOfFlowNext } from '../flows/index.js';
import { frozen } from '../http/ack-body.js';
import { exactly, type Routes } from '../routes.js';
import type { FollowUps } from '../runtime/jobs.js';
import { teamOf } from '../tenant.js';
import { helpMessage, type MessageBody } from '../views/messages.js';
import { COMMAND_NAME } from './name.js';

export { COMMAND_NAME };

export const COMMAND_ROUTES = { commands: exactly(COMMAND_NAME) } satisfies Routes;

/**
 * `/tsai` before the ack: help is answered in the ack itself; anything else is acked empty at once (Slack
 * gives 3 seconds) and handed on, to `followCommand` in `follow-up.ts`.
 */
export async function ackCommand(
  { command, ack }: Pick<SlackCommandMiddlewareArgs, 'command' | 'ack'>,
  followUps: Pick<FollowUps, 'run'>,
): Promise<void> {
  const help = immediateHelp(command.text);
  if (help) return await ack(help);
  await ack();
  followUps.run({ kind: 'command', command });
}

/**
 * A next-step button under a finished flow, acked at once: the form it opens must open within the
 * click's trigger_id, 3 seconds; the command it stands for runs after.
 */
export async function ackNextStep(
  {
    ack,
    body,
    action,
  }: Pick<SlackActionMiddlewareArgs<BlockAction<ButtonAction>>, 'ack' | 'body' | 'action'>,
  followUps: Pick<FollowUps, 'run'>,
): Promise<void> {
  await ack();
  followUps.run({
    kind: 'flow-next',
    step: formOfFlowNext(action.action_id),
    value: action.value ?? '',
    userId: body.user.id,
    ...(teamOf(body) ? { teamId: teamOf(body)! } : {}),
    triggerId: body.trigger_id,
    ...(body.channel?.id ? { channelId: body.channel.id } : {}),
    ...(body.response_url ? { responseUrl: body.response_url } : {}),
  });
}

/**
 * Whether the command opens a form (a required argument is missing, or `connect`): the pure parse says so,
 * without the channel's defaults, which may fill what is missing (the command then runs, on this thread
 * too, which is rare and harmless). Read on the acking thread, to run such a command's follow-up there.
 */
export function opensForm(text: string): boolean {
  const parsed = parseCommand(text);
  if (!parsed.ok) return parsed.kind === 'missing';
  return (
    parsed.command.kind === 'identity' &&
    (parsed.command.action === 'connect' || parsed.command.action === 'setup')
  );
}

/**
 * Help needs no I/O, so it is answered in the ack body (Slack shows it like an ephemeral reply). That
 * saves the response_url request, which was most of the CPU a help command cost (see docs/performance.md).
 */
export function immediateHelp(text: string): HelpAck | undefined {
  if (!/^\s*(help(\s|$)|$)/i.test(text)) return undefined;
  const parsed = parseCommand(text);
  if (!parsed.ok || parsed.command.kind !== 'help') return undefined;
  const topic = parsed.command.topic ?? '';
  let body = helpCache.get(topic);
  if (!body) {
    body = frozen({ response_type: 'ephemeral', ...helpMessage(parsed.command.topic) });
    // The topic is user input: cache only a bounded number of them.
    if (helpCache.size < 64) helpCache.set(topic, body);
  }
  return body;
}

type HelpAck = MessageBody & { response_type: 'ephemeral' };
/** Help texts are pure functions of the topic; building one (escaping every usage line) costs more than the ack. */
const helpCache = new Map<string, HelpAck>();

/**
 * The command a text begins with, by its ID (`learn`, `workspace create`), for the name of its trace: the
 * longest command whose words begin it; undefined when it names none (nothing typed is ever the name).
 */
export function commandIdOf(text: string): string | undefined {
  const words = text.trim().toLowerCase().split(/\s+/, 4);
  let best: (typeof COMMANDS)[number] | undefined;
  for (const c of COMMANDS)
    if (c.words.every((w, i) => words[i] === w) && c.words.length > (best?.words.length ?? 0)) best = c;
  return best?.id;
}
