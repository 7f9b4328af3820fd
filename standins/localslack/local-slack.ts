import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { changeAssistantContext, openAssistant } from './assistant-pane.js';
import { BotDelivery } from './bot-delivery.js';
import { channelRef, type LocalSlackContext } from './context.js';
import { handleControl } from './control.js';
import {
  DEFAULT_CHANNELS,
  DEFAULT_ENTERPRISES,
  DEFAULT_TEAMS,
  DEFAULT_USERGROUPS,
  DEFAULT_USERS,
} from './defaults.js';
import { openHome, sendEvent } from './event-delivery.js';
import { Faults } from './faults.js';
import { FunctionRuntime, viewOfRun } from './functions.js';
import { readBody, sendJson } from './http-io.js';
import { installApp, uninstallApp } from './install-flow.js';
import { Installs } from './installs.js';
import { refuseForeign, servedHosts } from './local-guard.js';
import type { LocalSlack, LocalSlackOptions, TokenStatus } from './local-slack-api.js';
import { clickButton, sendCommand, sendShortcut } from './message-actions.js';
import { handleAuthorize, OAuthCodes } from './oauth.js';
import { sendOptionsRequest } from './options-request.js';
import { RateLimiter } from './rate-limits.js';
import { messagesIn, snapshotOf } from './snapshot.js';
import { APP_ID, BOT_ID, BOT_USER_ID, SlackState, TEAM_ID } from './state.js';
import { deleteUserMessage, editUserMessage, postUserMessage } from './user-messages.js';
import { closeView, pickOptions, sendViewAction, submitView, typeIntoView } from './view-actions.js';
import { waitFor } from './wait-for.js';
import { handleApi, handleResponseUrl } from './web-api-server.js';

const TOKEN_STATUSES: readonly TokenStatus[] = ['active', 'revoked', 'inactive'];

function newContext(o: LocalSlackOptions): LocalSlackContext {
  const now = o.now ?? Date.now;
  const users = [...(o.users ?? DEFAULT_USERS)];
  if (!users.some((u) => u.id === BOT_USER_ID))
    users.push({ id: BOT_USER_ID, name: 'tsai', tz: 'UTC', isBot: true });
  const teams = [...(o.teams ?? [])];
  for (const t of DEFAULT_TEAMS) if (!teams.some((x) => x.id === t.id)) teams.unshift(t);
  const state = new SlackState(
    {
      teams,
      enterprises: o.enterprises ?? DEFAULT_ENTERPRISES,
      users,
      channels: o.channels ?? DEFAULT_CHANNELS,
      usergroups: o.usergroups ?? DEFAULT_USERGROUPS,
    },
    now,
  );
  Object.assign(state.app, o.app ?? {});
  const oauth = new OAuthCodes();
  if (o.oauth) oauth.app = { ...o.oauth };
  const ctx: LocalSlackContext = {
    options: o,
    state,
    calls: [],
    responses: [],
    events: [],
    faults: new Faults(),
    limiter: new RateLimiter(now, o.rateLimits),
    bot: new BotDelivery(o.signingSecret, o.ackTimeoutMs ?? 3000, o.botEndpoint),
    triggerTtlMs: o.triggerTtlMs ?? 3000,
    eventQueue: Promise.resolve(),
    installs: new Installs(state, o.botToken),
    oauth,
    url: '',
    functions: new FunctionRuntime(o.functions ?? {}, now, (event, user) => sendEvent(ctx, event, { user })),
  };
  return ctx;
}

async function route(ctx: LocalSlackContext, slack: LocalSlack, req: IncomingMessage, res: ServerResponse) {
  const u = new URL(req.url ?? '/', 'http://localhost');
  const raw = await readBody(req);
  const api = /^\/api\/([\w.]+)$/.exec(u.pathname);
  if (api) return handleApi(ctx, api[1]!, raw, req, u.searchParams, res);
  if (u.pathname === '/oauth/v2/authorize') return handleAuthorize(ctx, req, u, raw, res);
  if (u.pathname.startsWith('/_local/')) {
    const refused = refuseForeign(req, servedHosts(new URL(ctx.url).hostname, Number(new URL(ctx.url).port)));
    if (refused) return sendJson(res, refused.status, { error: refused.error });
    return handleControl(slack, req, u, raw, res);
  }
  const resp = /^\/response\/([\w-]+)$/.exec(u.pathname);
  if (resp && req.method === 'POST') return handleResponseUrl(ctx, resp[1]!, raw, res);
  sendJson(res, 404, { ok: false, error: 'not_found' });
}

export async function startLocalSlack(o: LocalSlackOptions): Promise<LocalSlack> {
  if (!o.signingSecret || !o.botToken) throw new Error('startLocalSlack needs signingSecret and botToken');
  const ctx = newContext(o);
  const server = createServer((req, res) => {
    route(ctx, slack, req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { ok: false, error: 'internal_error', detail: String(err) });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, o.host ?? '127.0.0.1', () => resolve());
  });
  ctx.url = `http://${o.host ?? '127.0.0.1'}:${(server.address() as AddressInfo).port}`;
  const slack = localSlackOf(ctx, () => closeServer(server));
  return slack;
}

function closeServer(server: ReturnType<typeof createServer>): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** The LocalSlack methods over one context: user actions, then the platform's controls. */
function localSlackOf(ctx: LocalSlackContext, close: () => Promise<void>): LocalSlack {
  const { state, faults, limiter, options: o } = ctx;
  const changed = <T>(v: T): T => {
    state.changed();
    return v;
  };
  const slack: LocalSlack = {
    url: ctx.url,
    apiUrl: `${ctx.url}/api/`,
    botUserId: BOT_USER_ID,
    botId: BOT_ID,
    teamId: TEAM_ID,
    appId: APP_ID,
    state,
    calls: ctx.calls,
    responses: ctx.responses,
    events: ctx.events,
    setBotEndpoint: (u) => ctx.bot.setEndpoint(u),
    sendCommand: (a) => sendCommand(ctx, a),
    clickButton: (a) => clickButton(ctx, a),
    typeIntoView: (a) => typeIntoView(ctx, a),
    pickOptions: (a) => pickOptions(ctx, a),
    sendViewAction: (a) => sendViewAction(ctx, a),
    submitView: (a) => submitView(ctx, a),
    closeView: (a) => closeView(ctx, a),
    sendShortcut: (a) => sendShortcut(ctx, a),
    sendOptionsRequest: (a) => sendOptionsRequest(ctx, a),
    sendEvent: (event, eo) => sendEvent(ctx, event, eo),
    openHome: (a) => openHome(ctx, a),
    runFunction: (a) => ctx.functions.execute(a),
    runWorkflow: (a) => changed(ctx.functions.runWorkflow(a.user, a.workflow)),
    execution: (id) => ctx.functions.executions.get(id),
    workflow: (id) => ctx.functions.workflows.get(id),
    workflows: () =>
      [...ctx.functions.workflows.values()].reverse().map((run) => viewOfRun(ctx.functions, run)),
    functions: () => ctx.functions.definitions,
    setFunctions(definitions) {
      ctx.functions.definitions = definitions;
      state.changed();
    },
    postUserMessage: (a) => postUserMessage(ctx, a),
    editUserMessage: (a) => editUserMessage(ctx, a),
    deleteUserMessage: (a) => deleteUserMessage(ctx, a),
    openAssistant: (a) => openAssistant(ctx, a),
    changeAssistantContext: (a) => changeAssistantContext(ctx, a),
    signedPost: (path, rawBody, so) => ctx.bot.post(path, rawBody, so),
    messages: (channel, mo) => messagesIn(state, channel, mo),
    topView: (user) => state.topView(user),
    snapshot: (viewer) => snapshotOf(state, ctx.installs, viewer),
    injectFault: (f) => changed(faults.add(f)),
    listFaults: () => faults.describe(),
    clearFaults: (filter) => changed(faults.clear(filter)),
    failNext(method, f) {
      slack.injectFault({ method, ...f });
    },
    setRateLimits: (rl) => changed(limiter.set(rl)),
    rateLimits: () => limiter.describe(),
    setTokenStatus(status) {
      if (!TOKEN_STATUSES.includes(status))
        throw new Error(`local slack: token status is active, revoked or inactive, not "${status}"`);
      ctx.installs.default.status = status;
      state.changed();
    },
    tokenStatus: () => ctx.installs.default.status,
    configureOAuth(app) {
      ctx.oauth.app = { ...app };
      state.changed();
    },
    installApp: (a) => installApp(ctx, a),
    uninstallApp: (target) => uninstallApp(ctx, target),
    installs: () => ctx.installs.all.map((i) => structuredClone(i)),
    setChannelState(channel, cs) {
      const ch = channelRef(ctx, channel);
      if (ch.isIm) throw new Error('local slack: the bot is always in its DMs, and DMs are never archived');
      if (cs.botMember !== undefined) ch.botMember = cs.botMember;
      if (cs.archived !== undefined) ch.archived = cs.archived;
      state.changed();
      const { messages: _m, ...rest } = ch;
      return structuredClone(rest);
    },
    configureApp(settings) {
      Object.assign(state.app, settings);
      return changed({ ...state.app });
    },
    waitFor: (predicate, timeoutMs, label) => waitFor(ctx, slack, predicate, timeoutMs, label),
    on(_event, fn) {
      state.on('change', fn);
      return () => state.off('change', fn);
    },
    reset() {
      ctx.calls.length = 0;
      ctx.responses.length = 0;
      ctx.events.length = 0;
      faults.clear();
      limiter.set(o.rateLimits ?? false);
      ctx.installs.reset();
      ctx.functions.reset();
      state.reset();
    },
    close,
  };
  return slack;
}
