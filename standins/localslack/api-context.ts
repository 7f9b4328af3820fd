import type { Installs, LocalInstall } from './installs.js';
import type { ChannelState, SlackState } from './state.js';
import type { MessageChange } from './types.js';

type Json = Record<string, unknown>;
export type ApiResult = Json & { ok: boolean };

/** What one Web API call is answered from: the workspace, and the installation whose token made it. */
export interface ApiContext {
  state: SlackState;
  baseUrl: string;
  triggerTtlMs: number;
  /** Tells the app of a change to a message, as Slack's event subscriptions do (the bot's own included). */
  tell?: (change: MessageChange) => void;
  /** The installation whose token made the call: what it sees, and whom it posts as. */
  install: LocalInstall;
  installs: Installs;
}

/** One Web API method. */
export type Handler = (args: Json, ctx: ApiContext) => ApiResult;

/** Slack's failure answer, with what was wrong when it says so. */
export const fail = (error: string, messages?: string[]): ApiResult =>
  messages?.length ? { ok: false, error, response_metadata: { messages } } : { ok: false, error };

export function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/**
 * The conversation a call names, as the calling installation sees it: a channel of one of its workspaces,
 * or the DM with a person of one of them (opened as Slack does); undefined otherwise.
 */
export function conversation(ctx: ApiContext, id: unknown): ChannelState | undefined {
  if (typeof id === 'string' && ctx.state.users.has(id) && !ctx.installs.seesUser(ctx.install, id))
    return undefined;
  const ch = ctx.state.channel(id);
  return ch && ctx.installs.sees(ctx.install, ch) ? ch : undefined;
}
