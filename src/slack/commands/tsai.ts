import type { App } from '@slack/bolt';
import { parseCommand } from '../../core/grammar/parse.js';
import type { SlackDeps } from '../deps.js';
import { helpMessage, type MessageBody } from '../views/messages.js';
import { COMMAND_NAME } from './name.js';

export { COMMAND_NAME };

export function register(app: App, deps: SlackDeps): void {
  app.command(COMMAND_NAME, async ({ command, ack, respond, client }) => {
    const help = immediateHelp(command.text);
    if (help) return await ack(help);
    // Slack's 3-second deadline: acknowledge first, then do the work and reply through response_url.
    await ack();
    if (deps.runCommand) return deps.runCommand(command);
    // Not awaited: Bolt's request, response and context for this event are released now instead of
    // staying alive until the service answers (seconds, for hundreds of commands in a burst). And not
    // started in this tick: setImmediate lets the event loop ack every request already received before
    // any command's parsing, service call and reply run (halves ack p50 in a 200-command burst).
    // handleCommand catches and logs every error itself; its code loads with the first command (cold start).
    setImmediate(() => {
      import('./handle.js')
        .then(({ handleCommand }) => handleCommand({ command, respond, client }, deps))
        .catch((e: unknown) => deps.logger.error({ err: String(e) }, 'command failed inside the bot'));
    });
  });
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
    body = { response_type: 'ephemeral', ...helpMessage(parsed.command.topic) };
    // The topic is user input: cache only a bounded number of them.
    if (helpCache.size < 64) helpCache.set(topic, body);
  }
  return body;
}

type HelpAck = MessageBody & { response_type: 'ephemeral' };
/** Help texts are pure functions of the topic; building one (escaping every usage line) costs more than the ack. */
const helpCache = new Map<string, HelpAck>();
