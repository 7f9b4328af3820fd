import type { SlashCommand } from '@slack/bolt';
import { storeFaultMessage } from '../../core/durable.js';
import { interpretCommand, withNotes } from '../../core/interpret.js';
import type { Actor } from '../../core/operations/operation.js';
import type { OpFailure } from '../../core/outcome.js';
import { errText } from '../../log.js';
import type { Bot } from '../bot.js';
import { type Audience, say, tellUser } from '../reply.js';
import { goesBy } from '../users.js';
import { errorMessage, helpMessage, invocationOf } from '../views/messages.js';
import { escapeMrkdwn } from '../views/mrkdwn.js';
import { showResult } from './show.js';

/**
 * `/tsai` after the ack: core reads the command once (`interpretCommand`); this shows help or the usage
 * error, opens the form when arguments are missing, or hands the operation to the runner and shows the
 * outcome.
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
    const read = await interpretCommand(bot.store, {
      text: command.text,
      ...(command.team_id ? { teamId: command.team_id } : {}),
      channelId: command.channel_id,
      now: bot.now,
      person: async () => {
        const [info, timeZone] = await Promise.all([
          bot.users.lookup(command.user_id),
          bot.zoneOf(command.user_id),
        ]);
        const userName = goesBy(info, command.user_name);
        return {
          ...(userName ? { userName } : {}),
          timeZone,
          ...(info.locale ? { locale: info.locale } : {}),
        };
      },
    });
    if (read.kind === 'refused') return void (await fail(read.failure));
    if (read.kind === 'help') return void (await tellUser(bot, to, helpMessage(read.topic)));
    if (read.kind === 'identity') {
      const { followIdentityCommand } = await import('../identity/index.js');
      return void (await followIdentityCommand(bot, read.action, command, to));
    }
    if (read.kind === 'scheduling') {
      const { followScheduling } = await import('../schedules/index.js');
      return void (await followScheduling(bot, read, command, to));
    }

    const actor: Actor = {
      userId: command.user_id,
      ...(command.team_id ? { teamId: command.team_id } : {}),
      channelId: command.channel_id,
      asked: who.commandText,
      timeZone: read.person.timeZone,
      via: 'command',
    };

    if (read.kind === 'form') {
      // Asked before the form opens, so that nobody fills one in only to be refused at the end.
      const refused = await bot.operations.authorize(actor, read.spec);
      if (refused) return void (await fail(refused));
      const { openForm } = await import('../forms/open.js');
      await openForm(bot, {
        triggerId: command.trigger_id,
        userId: command.user_id,
        ...(command.team_id ? { teamId: command.team_id } : {}),
        kind: read.form,
        fields: read.fields,
        origin: 'command',
        channel: command.channel_id,
        responseUrl: command.response_url,
        fromDefaults: read.fromDefaults,
      });
      return;
    }

    ran = true;
    const result = await bot.operations.run(actor, read.operation);
    const unsaid = withNotes(result, read.notes);
    await showResult(bot, result, { to, who });
    // Other replies have no place for notes: the person still learns what their names stood for.
    if (unsaid) await say(bot, to, escapeMrkdwn(unsaid));
  } catch (e) {
    // Before the runner, nothing has been sent or written: trying again is safe, and the person is told so.
    const storeFault = ran ? undefined : storeFaultMessage(e);
    if (storeFault) {
      bot.logger.error(
        { user: command.user_id, channel: command.channel_id, err: errText(e) },
        'the store failed; the command was not run',
      );
      return void (await fail({ ok: false, message: storeFault }));
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
