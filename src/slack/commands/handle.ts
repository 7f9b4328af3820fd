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

type Reply = (visibility: 'in_channel' | 'ephemeral', body: MessageBody) => Promise<void>;

/**
 * A slash command's work after the ack: parse, authorise, open a form or file an approval, or resolve
 * and call the service, audit, and reply through response_url. Runs on the command worker thread
 * (../command-worker/), or on the main thread with TSAI_COMMAND_WORKER=false.
 */
export async function handleCommand(inv: CommandInvocation, deps: SlackDeps): Promise<void> {
  const { command } = inv;
  // Fields added per line rather than a pino child per command: a child costs more than the line or two
  // a command logs.
  const where = { user: command.user_id, channel: command.channel_id };
  const log = {
    info: (o: object, msg: string) => deps.logger.info({ ...where, ...o }, msg),
    error: (o: object, msg: string) => deps.logger.error({ ...where, ...o }, msg),
  };
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
      ...(info.locale ? { locale: info.locale } : {}),
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
