import type { SetupField } from '../../core/tenancy/accounts.js';
import type { Bot } from '../bot.js';
import { ackCheckedForm, type Click, clickOf, formOf, type Submission } from '../checked-form.js';
import type { FollowUps } from '../runtime/jobs.js';
import { SETUP_FIELDS } from './ids.js';
import { setupDoneModal } from './views.js';

/** Set up clicked (a reply's button, the Home's): acked at once; the form opens after, with its trigger. */
export async function ackSetupClick(
  { ack, body }: Pick<Click, 'ack' | 'body'>,
  followUps: Pick<FollowUps, 'run'>,
): Promise<void> {
  await ack();
  followUps.run({ kind: 'setup-open', ...clickOf(body) });
}

/**
 * The setup form sent: a surface of the gate. Checking who sends it (its admins, as Slack says now), its
 * URL and the account with the service is the form's validation, so it happens in the ack: a problem is
 * an error under its field (nothing kept, the form stays open); an account that works is kept, the form
 * says what the workspace now works with, and the workspace is told after (`setup-changed`).
 */
export async function ackSetupSubmission(
  { ack, body }: Pick<Submission, 'ack' | 'body'>,
  bot: Bot,
  followUps: Pick<FollowUps, 'run'>,
): Promise<void> {
  const { teamId, value } = formOf(body);
  const field = (f: SetupField) => value(SETUP_FIELDS[f].block, SETUP_FIELDS[f].input);
  const accounts = bot.accounts;
  const kept = await ackCheckedForm(ack, {
    check: async () => {
      if (!teamId || !accounts)
        return {
          ok: false,
          errors: {
            [SETUP_FIELDS.token.block]: 'Open the form from a workspace where the app is installed.',
          },
        };
      const outcome = await accounts.connect(
        { teamId, userId: body.user.id, surface: 'setup-form' },
        { baseUrl: field('baseUrl'), accountId: field('accountId'), token: field('token') },
      );
      if (outcome.ok) return { ok: true, value: outcome };
      const errors = Object.fromEntries(
        Object.entries(outcome.problems).map(([f, problem]) => [
          SETUP_FIELDS[f as SetupField].block,
          problem,
        ]),
      );
      return { ok: false, errors };
    },
    unkept: {
      block: SETUP_FIELDS.token.block,
      text: "The service account could not be kept: the bot's store did not answer, so nothing was saved. Send the form again in a moment.",
      logged: 'a service account could not be kept',
    },
    done: (outcome) => setupDoneModal(outcome.account),
    logger: bot.logger,
    who: { team: teamId },
  });
  if (!kept || !teamId) return;
  bot.logger.info(
    { team: teamId, user: body.user.id, account: kept.account.accountId, moved: kept.change.moved },
    'a workspace was connected to its service account',
  );
  const workspaceId = body.team?.id ?? body.user.team_id;
  followUps.run({
    kind: 'setup-changed',
    teamId,
    ...(workspaceId ? { workspaceId } : {}),
    by: body.user.id,
    account: kept.account,
    ...(kept.change.previous ? { previous: kept.change.previous } : {}),
    setAside: kept.change.setAside,
  });
}
