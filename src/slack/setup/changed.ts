import type { ServiceAccount } from '../../core/tenancy/accounts.js';
import { errText } from '../../log.js';
import type { Bot } from '../bot.js';
import { tellUser } from '../reply.js';
import type { JobOf } from '../runtime/jobs.js';
import { connectActions } from '../views/connect.js';
import { code, type KnownBlock, mention, section, slackTime } from '../views/mrkdwn.js';

/** How many of the workspace's people are looked through for its admins, and how many admins are told. */
const MEMBERS_READ = 5_000;
const ADMINS_TOLD = 50;

const where = (a: ServiceAccount) => `account ${code(a.accountId)} at ${code(a.baseUrl)}`;

/**
 * A tenant's service account was changed: every change is told in the workspace, to its admins by direct
 * message (those Slack names now: an org-wide install's organisation admins and owners, else the
 * workspace's), so that a change none of them made does not go unseen; and each person whose own token
 * it set aside (it was checked against the former account or URL, and is never sent to the new one) is
 * told once, privately, to connect again. The audit line was written when it was kept.
 */
export async function followSetupChanged(job: JobOf<'setup-changed'>, bot: Bot): Promise<void> {
  const when = slackTime(job.account.connectedAt, '{date_short_pretty} {time}');
  const before = job.previous ? ` (before: ${where(job.previous)})` : '';
  const aside = job.setAside.length
    ? ` The own tokens of ${job.setAside.length === 1 ? '1 person' : `${job.setAside.length} people`} were for the former one: they are set aside, never sent to the new one, and each was asked to connect again.`
    : '';
  const told = `:information_source: ${mention(job.by)} connected this Slack workspace to ${where(job.account)}${before}, ${when}. Every command here now goes to it.${aside} \`/tsai setup\` shows it; its admins change it there.`;
  const admins = await adminsOf(bot, job).catch((e: unknown) => {
    bot.logger.warn(
      { team: job.teamId, err: errText(e) },
      "could not list the workspace's admins to tell them",
    );
    return [] as string[];
  });
  for (const userId of admins.filter((u) => u !== job.by).slice(0, ADMINS_TOLD))
    await tellUser(bot, { userId, responseUrls: [] }, { text: told, blocks: [section(told)] });
  const yours = `:warning: ${mention(job.by)} connected this Slack workspace to another service account, ${where(job.account)}, ${when}${before}. Your own token was checked against the former one, so it is set aside: it is never sent to the new one, and nothing you ask is sent with it until you connect again with a token of the new account.`;
  const blocks: KnownBlock[] = [section(yours), connectActions('reconnect')];
  for (const userId of job.setAside)
    await tellUser(bot, { userId, responseUrls: [] }, { text: yours, blocks });
  bot.logger.info(
    { team: job.teamId, by: job.by, admins: admins.length, setAside: job.setAside.length },
    "a workspace's service account changed: its admins and the people whose tokens were set aside were told",
  );
}

type Member = NonNullable<Awaited<ReturnType<Bot['slack']['users']['list']>>['members']>[number];

/**
 * The tenant's admins as Slack says now: of an org-wide install, the organisation's admins and owners
 * among the members of the workspace the change was made from; of a workspace install, its admins and
 * owners. Never a bot, a deactivated account or a guest.
 */
async function adminsOf(bot: Bot, job: JobOf<'setup-changed'>): Promise<string[]> {
  const installed = await bot.installations?.find(job.teamId);
  const orgWide = installed?.isEnterpriseInstall === true;
  const isAdmin = (m: Member) =>
    orgWide
      ? m.enterprise_user?.is_admin === true || m.enterprise_user?.is_owner === true
      : m.is_admin === true || m.is_owner === true || m.is_primary_owner === true;
  const admins: string[] = [];
  let cursor: string | undefined;
  let read = 0;
  do {
    const page = await bot.slack.users.list({
      limit: 200,
      ...(cursor ? { cursor } : {}),
      ...(orgWide && job.workspaceId ? { team_id: job.workspaceId } : {}),
    });
    for (const m of page.members ?? []) {
      read++;
      if (m.id && !m.is_bot && !m.deleted && !m.is_restricted && !m.is_ultra_restricted && isAdmin(m))
        admins.push(m.id);
    }
    cursor = page.response_metadata?.next_cursor || undefined;
  } while (cursor && read < MEMBERS_READ);
  return admins;
}
