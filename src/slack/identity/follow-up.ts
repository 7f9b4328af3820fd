import type { IdentityAction } from '../../core/grammar/types.js';
import { CONNECT_UNAVAILABLE, type PersonRef } from '../../core/identity/index.js';
import { errText } from '../../log.js';
import type { Asked as AskedCommand } from '../asked.js';
import type { Bot } from '../bot.js';
import { announceChange } from '../changes.js';
import { type Audience, say, tellUser } from '../reply.js';
import type { JobOf } from '../runtime/jobs.js';
import { slackFailure, slackFailureText } from '../slack-errors.js';
import { connectActions } from '../views/connect.js';
import { escapeMrkdwn } from '../views/mrkdwn.js';
import { type ConnectFormMeta, connectedText, connectModal, standingMessage } from './views.js';

interface Asked {
  person: PersonRef | undefined;
  to: Audience;
}

const NO_TEAM = 'Connecting needs a Slack workspace: use `/tsai connect` in one of its channels.';

/** `connect`, `disconnect` or `whoami` typed on any surface, after the ack. */
export async function followIdentityCommand(
  bot: Bot,
  action: IdentityAction,
  command: AskedCommand,
): Promise<void> {
  const asked: Asked = {
    person: command.teamId ? { teamId: command.teamId, userId: command.userId } : undefined,
    to: command.to,
  };
  const meta: ConnectFormMeta = {
    channelId: command.channelId,
    ...(command.to.responseUrls[0] ? { responseUrl: command.to.responseUrls[0] } : {}),
  };
  if (action === 'connect')
    return command.triggerId
      ? openConnectForm(bot, asked, command.triggerId, meta)
      : offerConnectForm(bot, asked);
  if (action === 'setup') return (await import('../setup/index.js')).followSetupCommand(bot, command);
  if (action === 'disconnect') return disconnect(bot, asked);
  return whoami(bot, asked);
}

/** Opens the form at once (its trigger lasts 3 seconds); says so where the person asked. */
async function openConnectForm(bot: Bot, asked: Asked, triggerId: string, meta: ConnectFormMeta) {
  if (!bot.connections.canConnect) return void (await say(bot, asked.to, escapeMrkdwn(CONNECT_UNAVAILABLE)));
  if (!asked.person) return void (await say(bot, asked.to, NO_TEAM));
  try {
    await bot.slack.views.open({ trigger_id: triggerId, view: connectModal(meta) });
  } catch (e) {
    bot.logger.warn({ user: asked.to.userId, err: errText(e) }, 'could not open the Connect form');
    const why = escapeMrkdwn(slackFailureText(slackFailure(e)));
    return void (await say(
      bot,
      asked.to,
      `The Connect form did not open: ${why}. Nothing was saved; type \`/tsai connect\` again.`,
    ));
  }
  if (asked.to.responseUrls.length > 0)
    await say(
      bot,
      asked.to,
      'The Connect form is open: paste your own service token there. It goes to the bot only, never to the channel.',
    );
}

/**
 * Asked in a message, which gives the bot no trigger to open a form with: a Connect button, only for the
 * person, opens it (its click brings one).
 */
async function offerConnectForm(bot: Bot, asked: Asked) {
  if (!bot.connections.canConnect) return void (await say(bot, asked.to, escapeMrkdwn(CONNECT_UNAVAILABLE)));
  if (!asked.person) return void (await say(bot, asked.to, NO_TEAM));
  await say(
    bot,
    asked.to,
    'Click *Connect* to paste your own service token in a private form: it goes to the bot only, never to a conversation.',
    [connectActions('connect')],
  );
}

async function disconnect(bot: Bot, asked: Asked) {
  if (!asked.person) return void (await say(bot, asked.to, NO_TEAM));
  const had = await bot.connections.disconnect({
    ...asked.person,
    ...(asked.to.channelId ? { channelId: asked.to.channelId } : {}),
  });
  const standing = await bot.connections.standing(asked.person);
  const first = had
    ? 'Your service token is deleted.'
    : 'You had no service token connected, so there was nothing to delete.';
  const message = standingMessage(standing, bot.connections.canConnect);
  await tellUser(bot, asked.to, {
    ...message,
    text: `${first} ${message.text}`,
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text: first } }, ...message.blocks],
  });
  if (had) announceChange(bot, { teamId: asked.person.teamId, userIds: [asked.person.userId] });
}

async function whoami(bot: Bot, asked: Asked) {
  if (!asked.person) return void (await say(bot, asked.to, NO_TEAM));
  const standing = await bot.connections.standing(asked.person);
  await tellUser(bot, asked.to, standingMessage(standing, bot.connections.canConnect));
}

const audienceOf = (job: { userId: string; channelId?: string; responseUrl?: string }): Audience => ({
  userId: job.userId,
  ...(job.channelId ? { channelId: job.channelId } : {}),
  responseUrls: job.responseUrl ? [job.responseUrl] : [],
});

const personOf = (job: { userId: string; teamId?: string }): PersonRef | undefined =>
  job.teamId ? { teamId: job.teamId, userId: job.userId } : undefined;

/** A Connect button: the same form. */
export async function followConnectClick(job: JobOf<'identity-open'>, bot: Bot): Promise<void> {
  await openConnectForm(bot, { person: personOf(job), to: audienceOf(job) }, job.triggerId, {
    ...(job.channelId ? { channelId: job.channelId } : {}),
    ...(job.responseUrl ? { responseUrl: job.responseUrl } : {}),
  });
}

/** A Disconnect button (with its confirmation): as `/tsai disconnect`. */
export async function followDisconnectClick(job: JobOf<'identity-disconnect'>, bot: Bot): Promise<void> {
  await disconnect(bot, { person: personOf(job), to: audienceOf(job) });
}

/** Connected through the form: told where they asked (the form already said it), and their Home shows it. */
export async function followConnected(job: JobOf<'identity-connected'>, bot: Bot): Promise<void> {
  const person = personOf(job);
  if (!person) return;
  announceChange(bot, { teamId: person.teamId, userIds: [person.userId] });
  if (!job.responseUrl) return;
  const connection = await bot.identity.connection(person);
  if (connection) await say(bot, audienceOf(job), connectedText(connection));
}
