import type { BotDelivery } from './bot-delivery.js';
import type { Faults } from './faults.js';
import type { FunctionRuntime } from './functions.js';
import type { Installs, LocalInstall } from './installs.js';
import type { LocalSlackOptions } from './local-slack-api.js';
import type { OAuthCodes } from './oauth.js';
import type { RateLimiter } from './rate-limits.js';
import { APP_ID, type SlackState } from './state.js';
import type {
  ApiCall,
  EventDelivery,
  LocalEnterprise,
  LocalTeam,
  OpenView,
  ResponseUrlCall,
} from './types.js';

/** Everything one local Slack holds: what its server answers from and what its user actions change. */
export interface LocalSlackContext {
  readonly options: LocalSlackOptions;
  readonly state: SlackState;
  readonly calls: ApiCall[];
  readonly responses: ResponseUrlCall[];
  readonly events: EventDelivery[];
  readonly faults: Faults;
  readonly limiter: RateLimiter;
  readonly bot: BotDelivery;
  /** The app's manifest functions, their executions and the workflows that run them. */
  readonly functions: FunctionRuntime;
  readonly triggerTtlMs: number;
  /** The message events told to the app, one after the other, in the order of their changes. */
  eventQueue: Promise<void>;
  /** Every installation of the app, the stand-in's own bot token's first. */
  readonly installs: Installs;
  /** "Add to Slack": the codes Slack's authorize page hands out, exchanged by `oauth.v2.access`. */
  readonly oauth: OAuthCodes;
  /** Set once the server listens. */
  url: string;
}

/** The user object of an interaction payload. */
export function userRef(ctx: LocalSlackContext, id: string) {
  const u = ctx.state.users.get(id);
  if (!u) throw new Error(`local slack: unknown user "${id}"`);
  return { id: u.id, username: u.name, name: u.name, team_id: ctx.state.teamOf(u.id).id };
}

/** Where a person's request happens: their workspace, its organisation, and the installation that serves it. */
export interface RequestPlace {
  team: LocalTeam;
  enterprise?: LocalEnterprise;
  install: LocalInstall;
}

/** The installation that serves what `userId` does, from the workspace they act in (or `teamId`). */
export function placeOf(ctx: LocalSlackContext, userId: string, teamId?: string): RequestPlace {
  // A workspace the stand-in does not model (a shared channel's other team, as tests name it) is served by
  // the stand-in's own installation, as it was before workspaces were modelled.
  const team = teamId
    ? (ctx.state.teams.get(teamId) ?? { id: teamId, name: teamId, domain: 'other' })
    : ctx.state.teamOf(userId);
  const install = ctx.installs.serving(team.id) ?? (teamId ? ctx.installs.default : undefined);
  if (!install)
    throw new Error(
      `local slack: the app is not installed in ${team.name} (${team.id}); Slack would not show it there`,
    );
  const enterprise = team.enterpriseId ? ctx.state.enterprises.get(team.enterpriseId) : undefined;
  return { team, ...(enterprise ? { enterprise } : {}), install };
}

export function channelRef(ctx: LocalSlackContext, id: string) {
  const ch = ctx.state.channels.get(id);
  if (!ch) throw new Error(`local slack: unknown channel "${id}"`);
  return ch;
}

/** A modal in the user's stack or their Home view. */
export function viewOf(ctx: LocalSlackContext, user: string, viewId: string): OpenView {
  const ov = ctx.state.findView({ viewId });
  if (!ov || ov.user !== user) throw new Error(`local slack: ${user} has no open view ${viewId}`);
  return ov;
}

export function responseUrl(ctx: LocalSlackContext, id: string): string {
  return `${ctx.url}/response/${id}`;
}

/**
 * The fields every interaction payload carries, whatever its type: the workspace and organisation it
 * happens in, and whether the installation serving it is org-wide (whose payloads Slack sends with
 * `team: null` when the surface is the organisation's).
 */
export function interactionBase(
  ctx: LocalSlackContext,
  type: string,
  user: ReturnType<typeof userRef>,
  teamId?: string,
): Record<string, unknown> {
  const p = placeOf(ctx, user.id, teamId);
  return {
    type,
    user: teamId ? { ...user, team_id: teamId } : user,
    api_app_id: APP_ID,
    token: 'local-verification-token',
    team: {
      id: p.team.id,
      domain: p.team.domain,
      ...(p.enterprise ? { enterprise_id: p.enterprise.id } : {}),
    },
    enterprise: p.enterprise ? { id: p.enterprise.id, name: p.enterprise.name } : null,
    is_enterprise_install: p.install.isEnterpriseInstall,
  };
}
