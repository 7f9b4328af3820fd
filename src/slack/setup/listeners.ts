import type {
  BlockAction,
  ButtonAction,
  SlackActionMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import type { SetupField, SetupOutcome } from '../../core/tenancy/accounts.js';
import { errText } from '../../log.js';
import type { Bot } from '../bot.js';
import type { FollowUps } from '../runtime/jobs.js';
import { teamOf } from '../tenant.js';
import { SETUP_FIELDS } from './ids.js';
import { setupDoneModal } from './views.js';

type Click = SlackActionMiddlewareArgs<BlockAction<ButtonAction>>;
type Submission = SlackViewMiddlewareArgs<ViewSubmitAction>;

/** Set up clicked (a reply's button, the Home's): acked at once; the form opens after, with its trigger. */
export async function ackSetupClick(
  { ack, body }: Pick<Click, 'ack' | 'body'>,
  followUps: Pick<FollowUps, 'run'>,
): Promise<void> {
  await ack();
  const teamId = teamOf(body);
  followUps.run({
    kind: 'setup-open',
    userId: body.user.id,
    ...(teamId ? { teamId } : {}),
    triggerId: body.trigger_id,
    ...(body.channel?.id ? { channelId: body.channel.id } : {}),
    ...(body.response_url ? { responseUrl: body.response_url } : {}),
  });
}

const NOT_KEPT =
  "The service account could not be kept: the bot's store did not answer, so nothing was saved. Send the form again in a moment.";

/**
 * The setup form sent. Checking the account with the service is the form's validation, so it happens in
 * the ack: a problem is an error under its field (nothing kept, the form stays open); an account that
 * works is kept, and the form says what the workspace now works with.
 */
export async function ackSetupSubmission(
  { ack, body }: Pick<Submission, 'ack' | 'body'>,
  bot: Bot,
): Promise<void> {
  const teamId = teamOf(body);
  const value = (f: SetupField) =>
    body.view.state.values[SETUP_FIELDS[f].block]?.[SETUP_FIELDS[f].input]?.value ?? '';
  let outcome: SetupOutcome;
  if (!teamId || !bot.accounts)
    outcome = {
      ok: false,
      problems: { token: 'Open the form from a workspace where the app is installed.' },
    };
  else
    try {
      outcome = await bot.accounts.connect(
        { teamId, userId: body.user.id },
        { baseUrl: value('baseUrl'), accountId: value('accountId'), token: value('token') },
      );
    } catch (e) {
      bot.logger.error({ team: teamId, err: errText(e) }, 'a service account could not be kept');
      outcome = { ok: false, problems: { token: NOT_KEPT } };
    }
  if (!outcome.ok) {
    const errors = Object.fromEntries(
      Object.entries(outcome.problems).map(([f, problem]) => [SETUP_FIELDS[f as SetupField].block, problem]),
    );
    return void (await ack({ response_action: 'errors', errors }));
  }
  await ack({ response_action: 'update', view: setupDoneModal(outcome.account) });
  bot.logger.info(
    { team: teamId, user: body.user.id, account: outcome.account.accountId },
    'a workspace was connected to its service account',
  );
}
