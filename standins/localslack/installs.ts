import { randomBytes } from 'node:crypto';
import type { TokenStatus } from './local-slack-api.js';
import { BOT_ID, BOT_USER_ID, type SlackState, TEAM_ID } from './state.js';
import type { LocalChannel } from './types.js';

/**
 * One installation of the app: in a workspace, or (Enterprise Grid) org-wide in an organisation, which
 * then serves every one of its workspaces. Its bot token works for what its workspaces hold, and only
 * that: another workspace's channels and people do not exist for it, as in Slack.
 */
export interface LocalInstall {
  token: string;
  /** A workspace install's workspace. */
  teamId?: string;
  /** An org-wide install's organisation (or the organisation of a workspace install's workspace). */
  enterpriseId?: string;
  isEnterpriseInstall: boolean;
  botUserId: string;
  botId: string;
  /** Who installed it (`authed_user`). */
  installerId?: string;
  scopes: string[];
  /** Its token's standing: revoked with the installation, or for a while by a test (`setTokenStatus`). */
  status: TokenStatus;
  /** Still installed: false once removed or installed again over; a token refused for a while is not that. */
  installed: boolean;
  installedAt: number;
}

/** Where an installation goes: a workspace, or an organisation as a whole. */
export type InstallTarget = { teamId: string } | { enterpriseId: string };

const rid = (prefix: string, n = 8) => prefix + randomBytes(n).toString('hex').toUpperCase().slice(0, n);

/**
 * Every installation of the app. The bot token the stand-in is started with is the installation in its
 * own workspace (T0LOCAL), as when the app was installed by hand and its token pasted into one
 * deployment; "Add to Slack" (oauth.ts) adds more. Installing again where the app is installed keeps its
 * bot user and revokes the old token.
 */
export class Installs {
  readonly all: LocalInstall[] = [];

  constructor(
    private readonly state: SlackState,
    private readonly defaultToken: string,
  ) {
    this.reset();
  }

  reset(): void {
    this.all.length = 0;
    this.all.push({
      token: this.defaultToken,
      teamId: TEAM_ID,
      isEnterpriseInstall: false,
      botUserId: BOT_USER_ID,
      botId: BOT_ID,
      scopes: [],
      status: 'active',
      installed: true,
      installedAt: 0,
    });
  }

  /** The installation of the stand-in's own bot token. */
  get default(): LocalInstall {
    return this.all[0]!;
  }

  byToken(token: string): LocalInstall | undefined {
    return this.all.find((i) => i.token === token);
  }

  /** The live installation where `target` is (a workspace's own, or its organisation's). */
  at(target: InstallTarget): LocalInstall | undefined {
    return this.all.find(
      (i) =>
        i.installed &&
        ('teamId' in target
          ? !i.isEnterpriseInstall && i.teamId === target.teamId
          : i.isEnterpriseInstall && i.enterpriseId === target.enterpriseId),
    );
  }

  /**
   * The installation that serves what happens in a workspace: its organisation's org-wide install, else
   * its own. Undefined when the app is not installed there: Slack would not show its command.
   */
  serving(teamId: string): LocalInstall | undefined {
    const enterpriseId = this.state.teams.get(teamId)?.enterpriseId;
    return (enterpriseId ? this.at({ enterpriseId }) : undefined) ?? this.at({ teamId });
  }

  install(target: InstallTarget, o: { installerId?: string; scopes: string[]; now: number }): LocalInstall {
    const before = this.at(target);
    if (before) Object.assign(before, { status: 'revoked', installed: false });
    // Installed there before (and removed since): the same bot user comes back, as in Slack.
    const earlier = this.all.findLast((i) =>
      'teamId' in target
        ? !i.isEnterpriseInstall && i.teamId === target.teamId
        : i.isEnterpriseInstall && i.enterpriseId === target.enterpriseId,
    );
    const team = 'teamId' in target ? this.state.teams.get(target.teamId) : undefined;
    if ('teamId' in target && !team) throw new Error(`local slack: no workspace ${target.teamId}`);
    if ('enterpriseId' in target && !this.state.enterprises.has(target.enterpriseId))
      throw new Error(`local slack: no organisation ${target.enterpriseId}`);
    const orgWide = 'enterpriseId' in target;
    const install: LocalInstall = {
      token: `xoxb-local-${randomBytes(12).toString('hex')}`,
      ...(team ? { teamId: team.id } : {}),
      ...(orgWide
        ? { enterpriseId: target.enterpriseId }
        : team?.enterpriseId
          ? { enterpriseId: team.enterpriseId }
          : {}),
      isEnterpriseInstall: orgWide,
      // An org-wide bot is a person of the organisation, with an organisation-wide ID (W…), as Slack's are.
      botUserId: earlier?.botUserId ?? rid(orgWide ? 'W0BOT' : 'U0BOT'),
      botId: earlier?.botId ?? rid('B0'),
      ...(o.installerId ? { installerId: o.installerId } : {}),
      scopes: o.scopes,
      status: 'active',
      installed: true,
      installedAt: o.now,
    };
    this.all.push(install);
    return install;
  }

  /** The workspaces an installation acts in. */
  teamsOf(i: LocalInstall): string[] {
    if (!i.isEnterpriseInstall) return i.teamId ? [i.teamId] : [];
    return [...this.state.teams.values()].filter((t) => t.enterpriseId === i.enterpriseId).map((t) => t.id);
  }

  /** Whether an installation's token can see a conversation: one of its workspaces is in it. */
  sees(i: LocalInstall, ch: LocalChannel): boolean {
    const mine = this.teamsOf(i);
    return this.state.teamsOf(ch).some((t) => mine.includes(t));
  }

  /**
   * Whether an installation's token can see a person: they are in one of its workspaces, or (Slack
   * Connect) in a channel one of them shares with the person's own.
   */
  seesUser(i: LocalInstall, userId: string): boolean {
    const u = this.state.users.get(userId);
    if (!u) return false;
    if (u.isBot) return true;
    const mine = this.teamsOf(i);
    const theirs = this.state.teamOf(userId).id;
    if (mine.includes(theirs)) return true;
    return [...this.state.channels.values()].some((ch) => {
      const teams = this.state.teamsOf(ch);
      return !ch.isIm && teams.includes(theirs) && teams.some((t) => mine.includes(t));
    });
  }

  /** The bot user IDs of every installation, for naming their messages. */
  botUserIds(): string[] {
    return [...new Set(this.all.map((i) => i.botUserId))];
  }
}
