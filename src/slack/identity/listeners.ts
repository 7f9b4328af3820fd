import type {
  BlockAction,
  ButtonAction,
  SlackActionMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import type { ConnectOutcome } from '../../core/identity/index.js';
import { errText } from '../../log.js';
import type { Bot } from '../bot.js';
import type { FollowUps } from '../runtime/jobs.js';
import { teamOf } from '../tenant.js';
import { IDENTITY_ACTION, TOKEN_BLOCK, TOKEN_INPUT } from './ids.js';
import { connectedModal, formMeta } from './views.js';

type Click = SlackActionMiddlewareArgs<BlockAction<ButtonAction>>;
type Submission = SlackViewMiddlewareArgs<ViewSubmitAction>;

/** Connect or Disconnect clicked (a reply's button, the Home's): acked at once, done after. */
export async function ackIdentityClick(
  { ack, body, action }: Pick<Click, 'ack' | 'body' | 'action'>,
  followUps: Pick<FollowUps, 'run'>,
): Promise<void> {
  await ack();
  const teamId = teamOf(body);
  const asked = {
    userId: body.user.id,
    ...(teamId ? { teamId } : {}),
    ...(body.channel?.id ? { channelId: body.channel.id } : {}),
    ...(body.response_url ? { responseUrl: body.response_url } : {}),
  };
  if (action.action_id === IDENTITY_ACTION.disconnect)
    followUps.run({ kind: 'identity-disconnect', ...asked });
  else followUps.run({ kind: 'identity-open', triggerId: body.trigger_id, ...asked });
}

const NOT_SAVED =
  "The token could not be kept: the bot's store did not answer, so nothing was saved. Send the form again in a moment.";

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
  const teamId = teamOf(body);
  const meta = formMeta(body.view.private_metadata);
  const pasted = body.view.state.values[TOKEN_BLOCK]?.[TOKEN_INPUT]?.value ?? '';
  let outcome: ConnectOutcome;
  if (!teamId)
    outcome = { ok: false, problem: 'Connecting needs a Slack workspace: open the form from one.' };
  else {
    try {
      outcome = await bot.connections.connect(
        { teamId, userId: body.user.id, ...(meta.channelId ? { channelId: meta.channelId } : {}) },
        pasted,
      );
    } catch (e) {
      bot.logger.error({ user: body.user.id, err: errText(e) }, 'a connected token could not be kept');
      outcome = { ok: false, problem: NOT_SAVED };
    }
  }
  if (!outcome.ok)
    return void (await ack({ response_action: 'errors', errors: { [TOKEN_BLOCK]: outcome.problem } }));
  await ack({ response_action: 'update', view: connectedModal(outcome.connection) });
  bot.logger.info({ user: body.user.id, team: teamId }, 'a person connected their own service token');
  followUps.run({
    kind: 'identity-connected',
    userId: body.user.id,
    ...(teamId ? { teamId } : {}),
    ...meta,
  });
}
