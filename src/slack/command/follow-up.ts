import type { SlashCommand } from '@slack/bolt';
import { storeFaultMessage } from '../../core/durable.js';
import { interpretCommand, withNotes } from '../../core/interpret.js';
import type { Actor, OperationResult } from '../../core/operations/operation.js';
import type { OpFailure } from '../../core/outcome.js';
import { errText } from '../../log.js';
import { type Asked, commandLineOf, invocationOfAsked } from '../asked.js';
import type { Bot } from '../bot.js';
import { personOf } from '../person.js';
import { say, tellUser } from '../reply.js';
import { teamOf } from '../tenant.js';
import { errorMessage, helpMessage } from '../views/messages.js';
import { context, escapeMrkdwn } from '../views/mrkdwn.js';
import { showResult } from './show.js';

/** `/tsai` after the ack: the command as any surface asks it, answered through its response_url. */
export async function followCommand(command: SlashCommand, bot: Bot): Promise<void> {
  await followAsked(bot, askedOfCommand(command));
}

/** A slash command as the one command path takes it. */
export function askedOfCommand(command: SlashCommand): Asked {
  return {
    text: command.text,
    userId: command.user_id,
    ...(command.user_name ? { userName: command.user_name } : {}),
    ...(teamOf(command) ? { teamId: teamOf(command)! } : {}),
    channelId: command.channel_id,
    via: 'command',
    to: { userId: command.user_id, channelId: command.channel_id, responseUrls: [command.response_url] },
    triggerId: command.trigger_id,
  };
}

/**
 * What came of a typed command, for a surface that must know whether a corrected version of it may still
 * run: `refused`, its wording was refused and nothing was done; `done`, anything else.
 */
export type AskedOutcome = 'refused' | 'done';

/**
 * What came of a typed command, for the surface that asked (a message's reactions, the assistant pane's
 * status): `misread`, its wording was refused and nothing was done; `refused`, the gate or the policy
 * refused it before anything was sent; `failed`, the service or the bot failed it; `answered`, it was
 * answered or done at once; `started`, a flow the bot follows was created; `filed`, a request now waits for
 * its approvers.
 */
export type Came =
  | { kind: 'misread' | 'refused' | 'failed' | 'answered' }
  | { kind: 'started'; flowId: string }
  | { kind: 'filed'; requestId: string };

/** What came of a refusal: the gate's or the policy's own, or a failure. */
const failed = (f: OpFailure): Came => ({
  kind: f.refusedBy || f.refusal || f.connect ? 'refused' : 'failed',
});

/** What came of what the runner returned. */
function cameOf(bot: Bot, result: OperationResult): Came {
  if (!result.ok) return failed(result);
  if (result.kind === 'approval-filed') return { kind: 'filed', requestId: result.request.id };
  if (result.kind === 'service' && result.flow && bot.tracker)
    return { kind: 'started', flowId: result.flow.id };
  return { kind: 'answered' };
}

/**
 * A typed command, whichever surface asked (`/tsai`, a mention, the Messages tab): core reads it once
 * (`interpretCommand`); this shows help or the usage error, opens the form when arguments are missing (or
 * offers a button that opens it, where nothing lets a form open at once), or hands the operation to the
 * runner and shows the outcome where the person asked.
 */
export async function followAsked(bot: Bot, asked: Asked): Promise<Came> {
  const { to } = asked;
  const who = invocationOfAsked(asked);
  const fail = async (failure: OpFailure): Promise<Came> => {
    await tellUser(bot, to, errorMessage(failure, who));
    return failed(failure);
  };
  let ran = false;
  try {
    const read = await interpretCommand(bot.store, {
      text: asked.text,
      ...(asked.teamId ? { teamId: asked.teamId } : {}),
      channelId: asked.channelId,
      now: bot.now,
      person: personOf(bot, asked),
    });
    if (read.kind === 'refused') {
      const message = errorMessage(read.failure, who);
      // The message that asked can be edited: a corrected command is read again, once (mentions/).
      if (asked.correctable)
        message.blocks.push(context('Edit your message to correct it, and I will read it again, once.'));
      await tellUser(bot, to, message);
      return { kind: 'misread' };
    }
    if (read.kind === 'help') return await answered(tellUser(bot, to, helpMessage(read.topic)));
    if (read.kind === 'identity') {
      const { followIdentityCommand } = await import('../identity/index.js');
      return await answered(followIdentityCommand(bot, read.action, asked));
    }
    if (read.kind === 'scheduling') {
      const { followScheduling } = await import('../schedules/index.js');
      return await answered(followScheduling(bot, read, asked));
    }

    const actor: Actor = {
      userId: asked.userId,
      ...(asked.teamId ? { teamId: asked.teamId } : {}),
      channelId: asked.channelId,
      ...(to.threadTs ? { threadTs: to.threadTs } : {}),
      asked: commandLineOf(asked.text),
      timeZone: read.person.timeZone,
      via: asked.via,
      surface: asked.surface ?? asked.via,
    };

    if (read.kind === 'form') {
      // Asked before the form opens, so that nobody fills one in only to be refused at the end.
      const refused = await bot.operations.authorize(actor, read.spec);
      if (refused) return await fail(refused);
      const form = {
        userId: asked.userId,
        ...(asked.teamId ? { teamId: asked.teamId } : {}),
        kind: read.form,
        fields: read.fields,
        channel: asked.channelId,
        ...(to.threadTs ? { threadTs: to.threadTs } : {}),
        fromDefaults: read.fromDefaults,
      };
      if (!asked.triggerId) {
        const { offerForm } = await import('../forms/index.js');
        return await answered(offerForm(bot, form, { to, via: asked.via }));
      }
      const { openForm } = await import('../forms/open.js');
      await openForm(bot, {
        ...form,
        triggerId: asked.triggerId,
        origin: 'command',
        ...(to.responseUrls[0] ? { responseUrl: to.responseUrls[0] } : {}),
      });
      return { kind: 'answered' };
    }

    ran = true;
    const result = await bot.operations.run(actor, read.operation);
    const unsaid = withNotes(result, read.notes);
    await showResult(bot, result, { to, who });
    // Other replies have no place for notes: the person still learns what their names stood for.
    if (unsaid) await say(bot, to, escapeMrkdwn(unsaid));
    return cameOf(bot, result);
  } catch (e) {
    // Before the runner, nothing has been sent or written: trying again is safe, and the person is told so.
    const storeFault = ran ? undefined : storeFaultMessage(e);
    const where = { user: asked.userId, channel: asked.channelId, via: asked.via };
    if (storeFault) {
      bot.logger.error({ ...where, err: errText(e) }, 'the store failed; the command was not run');
      await fail({ ok: false, message: storeFault });
      return { kind: 'failed' };
    }
    bot.logger.error({ ...where, err: errText(e, { stack: true }) }, 'command failed inside the bot');
    await fail({
      ok: false,
      message:
        "Something went wrong inside the bot (the error is in its log). If the command creates something, check the service's Activity view before trying again.",
    });
    return { kind: 'failed' };
  }
}

/** Whatever the answer was, the command was answered. */
async function answered(answer: Promise<unknown>): Promise<Came> {
  await answer;
  return { kind: 'answered' };
}
