import type { BotDelivery } from './bot-delivery.js';
import type { Faults } from './faults.js';
import type { FunctionRuntime } from './functions.js';
import type { LocalSlackOptions, TokenStatus } from './local-slack-api.js';
import type { RateLimiter } from './rate-limits.js';
import { APP_ID, type SlackState, TEAM_DOMAIN, TEAM_ID } from './state.js';
import type { ApiCall, EventDelivery, OpenView, ResponseUrlCall } from './types.js';

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
  tokenStatus: TokenStatus;
  /** The message events told to the app, one after the other, in the order of their changes. */
  eventQueue: Promise<void>;
  /** Set once the server listens. */
  url: string;
}

export const TEAM = { id: TEAM_ID, domain: TEAM_DOMAIN };

/** The user object of an interaction payload. */
export function userRef(ctx: LocalSlackContext, id: string) {
  const u = ctx.state.users.get(id);
  if (!u) throw new Error(`local slack: unknown user "${id}"`);
  return { id: u.id, username: u.name, name: u.name, team_id: TEAM_ID };
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

/** The fields every interaction payload carries, whatever its type. */
export function interactionBase(type: string, user: ReturnType<typeof userRef>): Record<string, unknown> {
  return {
    type,
    user,
    api_app_id: APP_ID,
    token: 'local-verification-token',
    team: TEAM,
    enterprise: null,
    is_enterprise_install: false,
  };
}
