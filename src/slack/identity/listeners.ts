import type { Bot } from '../bot.js';
import { ackCheckedForm, type Click, clickOf, formOf, type Submission } from '../checked-form.js';
import type { FollowUps } from '../runtime/jobs.js';
import { IDENTITY_ACTION, TOKEN_BLOCK, TOKEN_INPUT } from './ids.js';
import { connectedModal, formMeta } from './views.js';

/** Connect or Disconnect clicked (a reply's button, the Home's): acked at once, done after. */
export async function ackIdentityClick(
  { ack, body, action }: Pick<Click, 'ack' | 'body' | 'action'>,
  followUps: Pick<FollowUps, 'run'>,
): Promise<void> {
  await ack();
  const { triggerId, ...asked } = clickOf(body);
  if (action.action_id === IDENTITY_ACTION.disconnect)
    followUps.run({ kind: 'identity-disconnect', ...asked });
  else followUps.run({ kind: 'identity-open', triggerId, ...asked });
}

/**
 * The Connect form sent. Checking the token is the form's validation, so it happens in the ack: a token
 * the service refuses is an error under the field (nothing kept, the form stays open); a working one is
 * kept and the form shows what the person is now connected as.
 */
export async function ackConnectSubmission(
  { ack, body }: Pick<Submission, 'ack' | 'body'>,
  bot: Bot,
  followUps: Pick<FollowUps, 'run'>,
): Promise<void> {
  const { teamId, value } = formOf(body);
  const meta = formMeta(body.view.private_metadata);
  const connected = await ackCheckedForm(ack, {
    check: async () => {
      if (!teamId)
        return {
          ok: false,
          errors: { [TOKEN_BLOCK]: 'Connecting needs a Slack workspace: open the form from one.' },
        };
      const person = {
        teamId,
        userId: body.user.id,
        ...(meta.channelId ? { channelId: meta.channelId } : {}),
      };
      const outcome = await bot.connections.connect(person, value(TOKEN_BLOCK, TOKEN_INPUT));
      return outcome.ok
        ? { ok: true, value: outcome.connection }
        : { ok: false, errors: { [TOKEN_BLOCK]: outcome.problem } };
    },
    unkept: {
      block: TOKEN_BLOCK,
      text: "The token could not be kept: the bot's store did not answer, so nothing was saved. Send the form again in a moment.",
      logged: 'a connected token could not be kept',
    },
    done: connectedModal,
    logger: bot.logger,
    who: { user: body.user.id },
  });
  if (!connected) return;
  bot.logger.info({ user: body.user.id, team: teamId }, 'a person connected their own service token');
  followUps.run({
    kind: 'identity-connected',
    userId: body.user.id,
    ...(teamId ? { teamId } : {}),
    ...meta,
  });
}
