import type { SlashCommand } from '@slack/bolt';
import { describeResolved, type ResolvedName, resolveCommandNames } from '../../core/catalog/resolve.js';
import { channelDefaultsAsArgs } from '../../core/channel-defaults.js';
import { isStoreUnavailable, STORE_UNAVAILABLE_MESSAGE } from '../../core/durable.js';
import { defaultedFields, fieldsFromCommand } from '../../core/forms/prefill.js';
import { parseCommand } from '../../core/grammar/parse.js';
import type { Actor } from '../../core/operations/operation.js';
import { resolveCommand } from '../../core/operations/resolve.js';
import type { OpFailure } from '../../core/outcome.js';
import { errText } from '../../log.js';
import type { Bot } from '../bot.js';
import { type Audience, say, tellUser } from '../reply.js';
import { errorMessage, helpMessage, invocationOf, usageFailure } from '../views/messages.js';
import { escapeMrkdwn } from '../views/mrkdwn.js';
import { showResult } from './show.js';

/**
 * `/tsai` after the ack: read the command (with the channel's defaults and the IDs of the names it gives
 * in quotes), open a form when arguments are missing, or resolve it and hand it to the operation runner,
 * then show the outcome.
 */
export async function followCommand(command: SlashCommand, bot: Bot): Promise<void> {
  const to: Audience = {
    userId: command.user_id,
    channelId: command.channel_id,
    responseUrls: [command.response_url],
  };
  const who = invocationOf(command);
  const fail = (failure: OpFailure) => tellUser(bot, to, errorMessage(failure, who));
  let ran = false;
  try {
    const defaults = channelDefaultsAsArgs(await bot.store.getChannelDefaults(command.channel_id));
    let parsed = parseCommand(command.text, defaults ? { defaults } : {});
    let named: ResolvedName[] = [];
    if (!parsed.ok && parsed.kind === 'names') {
      // Names stand for IDs only within the team's catalog; unknown or ambiguous ones are refused.
      const names = command.team_id
        ? await resolveCommandNames(bot.store, command.team_id, parsed)
        : { ok: false as const, message: 'Names can only be looked up within a Slack team: give the IDs.' };
      if (!names.ok) return void (await fail(usageFailure(names.message, parsed.spec)));
      named = names.resolved;
      parsed = parseCommand(command.text, { ...(defaults ? { defaults } : {}), names: names.names });
    }
    if (!parsed.ok && (parsed.kind === 'error' || parsed.kind === 'names'))
      return void (await fail(usageFailure(parsed.message, parsed.spec)));
    if (parsed.ok && parsed.command.kind === 'help')
      return void (await tellUser(bot, to, helpMessage(parsed.command.topic)));

    const [info, timeZone] = await Promise.all([
      bot.users.lookup(command.user_id),
      bot.zoneOf(command.user_id),
    ]);
    const actor: Actor = {
      userId: command.user_id,
      ...(command.team_id ? { teamId: command.team_id } : {}),
      channelId: command.channel_id,
      asked: who.commandText,
      timeZone,
      via: 'command',
    };

    if (!parsed.ok) {
      // Asked before the form opens, so that nobody fills one in only to be refused at the end.
      const refused = await bot.operations.authorize(actor, parsed.spec);
      if (refused) return void (await fail(refused));
      const { openForm } = await import('../forms/open.js');
      await openForm(bot, {
        triggerId: command.trigger_id,
        userId: command.user_id,
        ...(command.team_id ? { teamId: command.team_id } : {}),
        kind: parsed.command,
        fields: fieldsFromCommand(parsed.command, parsed.given),
        origin: 'command',
        channel: command.channel_id,
        responseUrl: command.response_url,
        fromDefaults: defaultedFields(parsed.fromDefaults),
      });
      return;
    }

    const { command: cmd, spec, fromDefaults } = parsed;
    if (cmd.kind === 'help') return; // answered above
    const resolved = resolveCommand(cmd, {
      userName: info.name ?? command.user_name ?? command.user_id,
      timeZone,
      now: bot.now(),
      ...(info.locale ? { locale: info.locale } : {}),
    });
    if (!resolved.ok) {
      return void (await fail({
        ...resolved,
        usage: resolved.usage ?? spec.usage,
        example: resolved.example ?? spec.examples[0],
      }));
    }
    ran = true;
    const result = await bot.operations.run(actor, resolved.operation);
    if (result.ok && result.kind === 'service' && fromDefaults.length > 0) {
      const used = fromDefaults.map((k) => `${k} ${defaults?.[k] ?? ''} (channel default)`);
      result.notes = [...(result.notes ?? []), `From this channel's defaults: ${used.join(', ')}.`];
    }
    const resolvedLine = describeResolved(named);
    if (resolvedLine && result.ok && result.kind === 'service')
      result.notes = [...(result.notes ?? []), resolvedLine];
    await showResult(bot, result, { to, who });
    // Other replies have no place for notes: the person still learns what their names stood for.
    if (resolvedLine && result.ok && result.kind !== 'service')
      await say(bot, to, escapeMrkdwn(resolvedLine));
  } catch (e) {
    // Before the runner, nothing has been sent or written: trying again is safe, and the person is told so.
    if (!ran && isStoreUnavailable(e)) {
      bot.logger.error(
        { user: command.user_id, channel: command.channel_id, err: errText(e) },
        'the store did not answer; the command was not run',
      );
      return void (await fail({ ok: false, message: STORE_UNAVAILABLE_MESSAGE }));
    }
    bot.logger.error(
      { user: command.user_id, channel: command.channel_id, err: errText(e, { stack: true }) },
      'command failed inside the bot',
    );
    await fail({
      ok: false,
      message:
        "Something went wrong inside the bot (the error is in its log). If the command creates something, check the service's Activity view before trying again.",
    });
  }
}
