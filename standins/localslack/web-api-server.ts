import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LocalSlackContext } from './context.js';
import { RESPONSE_URL } from './faults.js';
import { parseArgs, sendJson } from './http-io.js';
import { tellApp } from './message-events.js';
import { oauthAccess } from './oauth.js';
import { applyResponse } from './respond.js';
import type { ApiCall } from './types.js';
import { type ApiContext, callApi, normaliseArgs } from './webapi.js';

type Json = Record<string, unknown>;

/** One Web API call: the token, then injected faults, then rate limits, then the method itself. */
export function handleApi(
  ctx: LocalSlackContext,
  method: string,
  raw: string,
  req: IncomingMessage,
  q: URLSearchParams,
  res: ServerResponse,
) {
  const parsed = parseArgs(raw, req.headers['content-type'], q);
  if (!parsed) return sendJson(res, 200, { ok: false, error: 'invalid_json' });
  const auth = req.headers.authorization;
  const token = auth?.startsWith('Bearer ') ? auth.slice(7) : parsed.token;
  delete parsed.token;
  // The app's client secret is a secret like a token: it is never recorded.
  const secret = parsed.client_secret;
  delete parsed.client_secret;
  const { args, badJson } = normaliseArgs(parsed);
  const answer = (status: number, response: Json, extra: Partial<ApiCall> = {}, headers = {}) => {
    ctx.calls.push({ method, args, response, status, ...extra, at: Date.now() });
    ctx.state.changed();
    sendJson(res, status, response, headers);
  };
  // The app's own credentials, not a token: the exchange of an installation's code.
  if (method === 'oauth.v2.access') return answer(200, oauthAccess(ctx, { ...args, client_secret: secret }));
  if (token === undefined || token === '') return answer(200, { ok: false, error: 'not_authed' });
  // A function execution's own token works until it expires or its step completes; it acts for the
  // installation that serves the person who ran the workflow.
  const execution = ctx.functions.executionToken(String(token));
  if (execution?.refused) return answer(200, { ok: false, error: execution.refused });
  const install = execution ? ctx.installs.default : ctx.installs.byToken(String(token));
  if (!install) return answer(200, { ok: false, error: 'invalid_auth' });
  if (install.status !== 'active')
    return answer(200, {
      ok: false,
      error: install.status === 'revoked' ? 'token_revoked' : 'account_inactive',
    });
  if (badJson)
    return answer(200, {
      ok: false,
      error: badJson === 'blocks' ? 'invalid_blocks_format' : 'invalid_arguments',
    });
  const fault = ctx.faults.take(method, args.channel, args.user_id ?? args.user ?? args.channel);
  if (fault) return answer(fault.status, fault.body, { fault: fault.id }, fault.headers);
  const postTo = method === 'chat.postMessage' ? postingChannel(ctx, args.channel) : undefined;
  const limited = ctx.limiter.take(method, postTo);
  if (limited)
    return answer(
      429,
      { ok: false, error: 'ratelimited' },
      { rateLimited: true, retryAfter: limited.retryAfter },
      { 'retry-after': String(limited.retryAfter) },
    );
  if (method === 'functions.completeSuccess' || method === 'functions.completeError')
    return answer(200, ctx.functions.call(method, args));
  const apiCtx: ApiContext = {
    state: ctx.state,
    baseUrl: ctx.url,
    triggerTtlMs: ctx.triggerTtlMs,
    tell: (change) => tellApp(ctx, change),
    install,
    installs: ctx.installs,
  };
  answer(200, callApi(method, args, apiCtx));
}

/** The conversation a chat.postMessage goes to (a user ID means their DM), without opening one. */
function postingChannel(ctx: LocalSlackContext, channel: unknown): string | undefined {
  if (typeof channel !== 'string') return undefined;
  return ctx.state.users.has(channel) ? `D${channel}` : channel;
}

export function handleResponseUrl(ctx: LocalSlackContext, id: string, raw: string, res: ServerResponse) {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    body = undefined;
  }
  const target = ctx.state.responseTargets.get(id);
  const fault = ctx.faults.take(RESPONSE_URL, target?.channel, target?.user);
  const out = fault ? { status: fault.status, json: fault.body } : applyResponse(ctx.state, target, body);
  ctx.responses.push({
    id,
    body: body ?? raw,
    status: out.status,
    error: out.json.ok ? undefined : String(out.json.error),
    ...(fault ? { fault: fault.id } : {}),
    at: Date.now(),
  });
  ctx.state.changed();
  sendJson(res, out.status, out.json, fault?.headers);
}
