import type { App } from '@slack/bolt';
import { isGovernanceCommand, parseCommand } from '../../core/grammar/parse.js';
import { execute } from '../../core/operations/execute.js';
import { resolveCommand } from '../../core/operations/resolve.js';
import type { OpFailure, OpOutcome } from '../../core/outcome.js';
import type { CommandInvocation, SlackDeps } from '../deps.js';
import {
  errorMessage,
  helpMessage,
  type Invocation,
  invocationOf,
  type MessageBody,
  resultMessage,
  usageFailure,
} from '../views/messages.js';
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
    // handleCommand catches and logs every error itself.
    setImmediate(() => void handleCommand({ command, respond, client }, deps));
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

type Reply = (visibility: 'in_channel' | 'ephemeral', body: MessageBody) => Promise<void>;

export async function handleCommand(inv: CommandInvocation, deps: SlackDeps): Promise<void> {
  const { command } = inv;
  const log = deps.logger.child({ user: command.user_id, channel: command.channel_id });
  const who: Invocation = invocationOf(command);
  const reply: Reply = async (visibility, body) => {
    try {
      await inv.respond({ response_type: visibility, replace_original: false, ...body });
    } catch (e) {
      log.error({ err: e instanceof Error ? e.message : String(e) }, 'could not reply through response_url');
    }
  };
  const fail = (failure: OpFailure) => reply('ephemeral', errorMessage(failure, who));

  try {
    const defaults = deps.hooks.channelDefaults ? await deps.hooks.channelDefaults(command.channel_id) : null;
    const parsed = parseCommand(command.text, defaults ? { defaults } : {});
    if (!parsed.ok && parsed.kind === 'error') return await fail(usageFailure(parsed.message, parsed.spec));
    if (parsed.ok && parsed.command.kind === 'help')
      return await reply('ephemeral', helpMessage(parsed.command.topic));

    if (deps.hooks.authorize) {
      const verdict = await deps.hooks.authorize({
        ...inv,
        spec: parsed.spec,
        ...(parsed.ok ? { parsed: parsed.command } : {}),
      });
      if (!verdict.allowed) {
        return await fail({
          ok: false,
          message: verdict.message,
          ...(verdict.detailMrkdwn ? { detailMrkdwn: verdict.detailMrkdwn } : {}),
        });
      }
    }

    if (!parsed.ok) {
      if (deps.hooks.openModalForMissingArgs) {
        const opened = await deps.hooks.openModalForMissingArgs({
          ...inv,
          which: parsed.command,
          missing: parsed.missing,
          given: parsed.given,
          fromDefaults: parsed.fromDefaults,
        });
        if (opened) return;
      }
      return await fail(usageFailure(parsed.message, parsed.spec));
    }
    const { command: cmd, spec, fromDefaults } = parsed;
    if (cmd.kind === 'help') return; // answered above
    if (isGovernanceCommand(cmd)) {
      if (deps.hooks.governanceCommand) return await deps.hooks.governanceCommand({ ...inv, request: cmd });
      return await fail({
        ok: false,
        message: `\`${spec.id}\` needs the bot's store (channel defaults, approvals, audit log), which this installation does not run.`,
      });
    }

    if (cmd.kind === 'live') {
      if (deps.hooks.fileLiveRequest) return await deps.hooks.fileLiveRequest({ ...inv, request: cmd });
      return await fail({
        ok: false,
        message: `Starting or stopping a live model needs an approval, and approvals are not available in this installation yet. Nothing was ${cmd.action === 'start' ? 'started' : 'stopped'}.`,
      });
    }

    const [info, timeZone] = await Promise.all([
      deps.users.lookup(command.user_id),
      deps.zoneOf(command.user_id),
    ]);
    const resolved = resolveCommand(cmd, {
      userName: info.name ?? command.user_name ?? command.user_id,
      timeZone,
      now: deps.now(),
    });
    if (!resolved.ok) {
      return await fail({
        ...resolved,
        usage: resolved.usage ?? spec.usage,
        example: resolved.example ?? spec.examples[0],
      });
    }

    const started = Date.now();
    const outcome: OpOutcome = await execute(resolved.request, deps.service, timeZone);
    log.info(
      {
        op: resolved.request.kind,
        ok: outcome.ok,
        flowId: outcome.ok ? outcome.flow?.id : undefined,
        ms: Date.now() - started,
      },
      'command handled',
    );
    if (deps.hooks.recordOutcome) {
      await deps.hooks.recordOutcome({ ...inv, request: resolved.request, outcome }).catch((e: unknown) => {
        log.error({ err: e instanceof Error ? e.message : String(e) }, 'recordOutcome hook failed');
      });
    }
    if (!outcome.ok) return await fail(outcome);
    if (fromDefaults.length > 0) {
      const used = fromDefaults.map((k) => `${k} ${defaults?.[k] ?? ''} (channel default)`);
      outcome.notes = [...(outcome.notes ?? []), `From this channel's defaults: ${used.join(', ')}.`];
    }
    return await reply(
      outcome.visibility === 'channel' ? 'in_channel' : 'ephemeral',
      resultMessage(outcome, who),
    );
  } catch (e) {
    log.error(
      { err: e instanceof Error ? (e.stack ?? e.message) : String(e) },
      'command failed inside the bot',
    );
    return await fail({
      ok: false,
      message:
        "Something went wrong inside the bot (the error is in its log). If the command creates something, check the service's Activity view before trying again.",
    });
  }
}
