import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { commandText } from './command-text.js';
import { handleControl } from './control.js';
import { DEFAULT_CHANNELS, DEFAULT_USERGROUPS, DEFAULT_USERS } from './defaults.js';
import { applyResponse } from './respond.js';
import { nowSeconds, signSlackRequest } from './signing.js';
import { APP_ID, BOT_ID, BOT_USER_ID, SlackState, TEAM_DOMAIN, TEAM_ID } from './state.js';
import { applySubmissionAck, clientSideErrors } from './submission.js';
import type {
  ApiCall,
  Delivery,
  LocalChannel,
  LocalMessage,
  LocalSlackSnapshot,
  LocalUser,
  LocalUsergroup,
  OpenView,
  ResponseUrlCall,
} from './types.js';
import { actionPayload, buildStateValues, findElement } from './views.js';
import { type ApiContext, callApi, messagePayload, normaliseArgs, viewPayload } from './webapi.js';

type Json = Record<string, unknown>;

export interface LocalSlackOptions {
  signingSecret: string;
  botToken: string;
  /** Full URL of the bot's events endpoint, e.g. `http://127.0.0.1:3000/slack/events`. */
  botEndpoint?: string;
  users?: LocalUser[];
  channels?: LocalChannel[];
  usergroups?: LocalUsergroup[];
  port?: number;
  host?: string;
  /** trigger_id lifetime; Slack's is 3000 ms. */
  triggerTtlMs?: number;
  /** How long the stand-in waits for the bot's ack; Slack's deadline is 3000 ms. */
  ackTimeoutMs?: number;
  /**
   * The command's "Escape channels, users, and links" (`should_escape`) setting; default false, as in a
   * manifest that omits it. `&`, `<`, `>` are always entity-encoded, as Slack does.
   */
  shouldEscape?: boolean;
  /** Clock for trigger_id and response_url expiry (ms). Request signing always uses the real clock. */
  now?: () => number;
}

export interface SignedPostOptions {
  /** Seconds; `null` omits the header. Default: now. */
  timestamp?: number | null;
  /** `null` omits the header; a string is sent as is. Default: the correct signature. */
  signature?: string | null;
  contentType?: string;
}

export type WaitPredicate<T> = (slack: LocalSlack) => T | undefined | null | false;

export interface LocalSlack {
  /** Base URL; the Web API is at `${url}/api/`. */
  readonly url: string;
  readonly apiUrl: string;
  readonly botUserId: string;
  readonly botId: string;
  readonly teamId: string;
  readonly appId: string;
  readonly state: SlackState;
  /** Every Web API call in order; the token is never recorded. */
  readonly calls: ApiCall[];
  /** Every POST to a response_url in order. */
  readonly responses: ResponseUrlCall[];
  setBotEndpoint(url: string): void;
  /** `text` is what the user typed; it is encoded as Slack does (see `shouldEscape`) unless `rawText`. */
  sendCommand(o: {
    user: string;
    channel: string;
    text: string;
    command?: string;
    shouldEscape?: boolean;
    rawText?: boolean;
  }): Promise<Delivery>;
  clickButton(o: {
    user: string;
    channel: string;
    messageTs: string;
    actionId: string;
    blockId?: string;
    value?: unknown;
  }): Promise<Delivery>;
  sendViewAction(o: {
    user: string;
    viewId: string;
    actionId: string;
    blockId: string;
    value?: unknown;
  }): Promise<Delivery>;
  submitView(o: {
    user: string;
    viewId: string;
    values?: Record<string, Record<string, unknown>>;
  }): Promise<Delivery>;
  /** The user closes (cancels) the top modal; sends view_closed when the view asked for notify_on_close. */
  closeView(o: { user: string; viewId: string }): Promise<Delivery | undefined>;
  /** Stores what the user typed into a view without sending anything (input blocks, as in Slack). */
  typeIntoView(o: { user: string; viewId: string; blockId: string; actionId: string; value: unknown }): void;
  sendShortcut(o: { user: string; callbackId: string; channel?: string }): Promise<Delivery>;
  sendOptionsRequest(o: {
    user: string;
    actionId: string;
    blockId: string;
    value: string;
    viewId?: string;
    channel?: string;
    messageTs?: string;
  }): Promise<Delivery>;
  /** A user writes a plain message (the bot receives no event; the stand-in has no Events API). */
  postUserMessage(o: { user: string; channel: string; text: string; threadTs?: string }): LocalMessage;
  signedPost(path: string, rawBody: string, o?: SignedPostOptions): Promise<Delivery>;
  /** Messages `user` sees in `channel` (top level, or one thread when threadTs is given). */
  messages(channel: string, o?: { user?: string; threadTs?: string }): LocalMessage[];
  topView(user: string): OpenView | undefined;
  snapshot(viewer?: string): LocalSlackSnapshot;
  /** The next Web API call to `method` fails with `error` (or HTTP `status`, e.g. 429 with Retry-After 1). */
  failNext(method: string, f: { error?: string; status?: number; retryAfter?: number }): void;
  waitFor<T>(predicate: WaitPredicate<T>, timeoutMs?: number, label?: string): Promise<T>;
  on(event: 'change', fn: (version: number) => void): () => void;
  reset(): void;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(res: ServerResponse, status: number, json: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(json));
}

function parseArgs(raw: string, contentType: string | undefined, query: URLSearchParams): Json | undefined {
  const args: Json = Object.fromEntries(query);
  if (!raw) return args;
  if (contentType?.includes('application/json')) {
    try {
      const j = JSON.parse(raw);
      return j && typeof j === 'object' ? { ...args, ...j } : undefined;
    } catch {
      return undefined;
    }
  }
  return { ...args, ...Object.fromEntries(new URLSearchParams(raw)) };
}

export async function startLocalSlack(o: LocalSlackOptions): Promise<LocalSlack> {
  if (!o.signingSecret || !o.botToken) throw new Error('startLocalSlack needs signingSecret and botToken');
  const now = o.now ?? Date.now;
  const users = [...(o.users ?? DEFAULT_USERS)];
  if (!users.some((u) => u.id === BOT_USER_ID))
    users.push({ id: BOT_USER_ID, name: 'tsai', tz: 'UTC', isBot: true });
  const state = new SlackState(
    { users, channels: o.channels ?? DEFAULT_CHANNELS, usergroups: o.usergroups ?? DEFAULT_USERGROUPS },
    now,
  );
  const calls: ApiCall[] = [];
  const responses: ResponseUrlCall[] = [];
  const faults = new Map<string, { error?: string; status?: number; retryAfter?: number }>();
  const triggerTtlMs = o.triggerTtlMs ?? 3000;
  const ackTimeoutMs = o.ackTimeoutMs ?? 3000;
  let botEndpoint = o.botEndpoint;
  let url = '';

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { ok: false, error: 'internal_error', detail: String(err) });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const u = new URL(req.url ?? '/', 'http://localhost');
    const raw = await readBody(req);
    const api = /^\/api\/([\w.]+)$/.exec(u.pathname);
    if (api) return handleApi(api[1]!, raw, req, u.searchParams, res);
    if (u.pathname.startsWith('/_local/')) return handleControl(slack, req, u, raw, res);
    const resp = /^\/response\/([\w-]+)$/.exec(u.pathname);
    if (resp && req.method === 'POST') return handleResponseUrl(resp[1]!, raw, res);
    sendJson(res, 404, { ok: false, error: 'not_found' });
  }

  function handleApi(
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
    const { args, badJson } = normaliseArgs(parsed);
    const record = (response: Json) => {
      calls.push({ method, args, response, at: Date.now() });
      state.changed();
    };
    let response: Json;
    if (token === undefined || token === '') response = { ok: false, error: 'not_authed' };
    else if (token !== o.botToken) response = { ok: false, error: 'invalid_auth' };
    else if (badJson)
      response = { ok: false, error: badJson === 'blocks' ? 'invalid_blocks_format' : 'invalid_arguments' };
    else {
      const fault = faults.get(method);
      if (fault) {
        faults.delete(method);
        if (fault.status && fault.status !== 200) {
          record({ ok: false, error: `http_${fault.status}` });
          const headers: Record<string, string> = fault.retryAfter
            ? { 'retry-after': String(fault.retryAfter) }
            : {};
          return sendJson(res, fault.status, { ok: false, error: fault.error ?? 'ratelimited' }, headers);
        }
        response = { ok: false, error: fault.error ?? 'internal_error' };
      } else {
        const ctx: ApiContext = { state, baseUrl: url, triggerTtlMs };
        response = callApi(method, args, ctx);
      }
    }
    record(response);
    sendJson(res, 200, response);
  }

  function handleResponseUrl(id: string, raw: string, res: ServerResponse) {
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      body = undefined;
    }
    const out = applyResponse(state, state.responseTargets.get(id), body);
    responses.push({
      id,
      body: body ?? raw,
      status: out.status,
      error: out.json.ok ? undefined : String(out.json.error),
      at: Date.now(),
    });
    state.changed();
    sendJson(res, out.status, out.json);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, o.host ?? '127.0.0.1', () => resolve());
  });
  const addr = server.address() as AddressInfo;
  url = `http://${o.host ?? '127.0.0.1'}:${addr.port}`;

  const userRef = (id: string) => {
    const u = state.users.get(id);
    if (!u) throw new Error(`local slack: unknown user "${id}"`);
    return { id: u.id, username: u.name, name: u.name, team_id: TEAM_ID };
  };
  const channelRef = (id: string) => {
    const ch = state.channels.get(id);
    if (!ch) throw new Error(`local slack: unknown channel "${id}"`);
    return ch;
  };
  const team = { id: TEAM_ID, domain: TEAM_DOMAIN };
  const responseUrl = (id: string) => `${url}/response/${id}`;

  async function post(path: string, rawBody: string, so: SignedPostOptions = {}): Promise<Delivery> {
    if (!botEndpoint)
      throw new Error('local slack: no bot endpoint set (startLocalSlack({botEndpoint}) or setBotEndpoint)');
    const target = new URL(path, botEndpoint);
    const ts = so.timestamp === undefined ? nowSeconds() : so.timestamp;
    const headers: Record<string, string> = {
      'content-type': so.contentType ?? 'application/x-www-form-urlencoded',
      'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
    };
    if (ts !== null) headers['x-slack-request-timestamp'] = String(ts);
    const sig =
      so.signature === undefined ? signSlackRequest(o.signingSecret, rawBody, ts ?? 0) : so.signature;
    if (sig !== null) headers['x-slack-signature'] = sig;
    try {
      const r = await fetch(target, {
        method: 'POST',
        headers,
        body: rawBody,
        signal: AbortSignal.timeout(ackTimeoutMs),
      });
      const body = await r.text();
      let json: unknown;
      if (body) {
        try {
          json = JSON.parse(body);
        } catch {
          json = undefined;
        }
      }
      return { status: r.status, body, json, delivered: true };
    } catch (err) {
      const timeout = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      return { status: 0, body: timeout ? 'operation_timeout' : 'dispatch_failed', delivered: false };
    }
  }

  const deliverPayload = (payload: Json) =>
    post(
      new URL(botEndpoint ?? 'http://x/').pathname,
      new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
    );

  function systemMessage(channel: string, user: string, text: string) {
    state.addMessage({ channel, user: 'USLACKBOT', text, ephemeralTo: user, kind: 'system', via: 'slack' });
  }

  const slack: LocalSlack = {
    url,
    apiUrl: `${url}/api/`,
    botUserId: BOT_USER_ID,
    botId: BOT_ID,
    teamId: TEAM_ID,
    appId: APP_ID,
    state,
    calls,
    responses,
    setBotEndpoint(u) {
      botEndpoint = u;
    },

    async sendCommand({ user, channel, text: typed, command = '/tsai', shouldEscape, rawText }) {
      const u = userRef(user);
      const ch = channelRef(channel);
      // Slack shows the invocation only to its author until an in_channel reply reveals it to everyone.
      const cmd = state.addMessage({
        channel: ch.id,
        user: u.id,
        text: `${command} ${typed}`.trim(),
        ephemeralTo: u.id,
        kind: 'command',
        via: 'user',
      });
      const text = rawText ? typed : commandText(typed, state, shouldEscape ?? o.shouldEscape ?? false);
      const triggerId = state.issueTrigger(u.id);
      const rUrl = responseUrl(state.issueResponseUrl({ user: u.id, channel: ch.id, commandTs: cmd.ts }));
      const body = new URLSearchParams({
        token: 'local-verification-token',
        team_id: TEAM_ID,
        team_domain: TEAM_DOMAIN,
        channel_id: ch.id,
        channel_name: ch.isIm ? 'directmessage' : ch.name,
        user_id: u.id,
        user_name: u.name,
        command,
        text,
        api_app_id: APP_ID,
        is_enterprise_install: 'false',
        response_url: rUrl,
        trigger_id: triggerId,
      }).toString();
      const d = await post(new URL(botEndpoint ?? 'http://x/').pathname, body);
      const out: Delivery = { ...d, triggerId, responseUrl: rUrl };
      if (d.status !== 200) {
        const why = d.status === 0 ? d.body : 'http_service_error';
        systemMessage(ch.id, u.id, `${command} failed with the error "${why}"`);
      } else if (d.body) {
        // A non-empty ack is shown as a reply, exactly like a response_url post.
        const reply = d.json && typeof d.json === 'object' ? d.json : { text: d.body };
        const target = [...state.responseTargets.values()].find((t) => t.commandTs === cmd.ts);
        if (target) {
          target.uses--; // the ack does not count against the response_url's five uses
          applyResponse(state, target, reply);
        }
      }
      return out;
    },

    async clickButton({ user, channel, messageTs, actionId, blockId, value }) {
      const u = userRef(user);
      const ch = channelRef(channel);
      const m = state.message(ch.id, messageTs);
      if (!m || (m.ephemeralTo !== undefined && m.ephemeralTo !== u.id))
        throw new Error(`local slack: ${user} sees no message ${messageTs} in ${channel}`);
      const ref = findElement(m.blocks, actionId, blockId);
      if (!ref)
        throw new Error(`local slack: message ${messageTs} has no element with action_id "${actionId}"`);
      const triggerId = state.issueTrigger(u.id);
      const rUrl = responseUrl(state.issueResponseUrl({ user: u.id, channel: ch.id, messageTs: m.ts }));
      const ephemeral = m.ephemeralTo !== undefined;
      const payload: Json = {
        type: 'block_actions',
        user: u,
        api_app_id: APP_ID,
        token: 'local-verification-token',
        container: { type: 'message', message_ts: m.ts, channel_id: ch.id, is_ephemeral: ephemeral },
        trigger_id: triggerId,
        team,
        enterprise: null,
        is_enterprise_install: false,
        channel: { id: ch.id, name: ch.name },
        ...(ephemeral ? {} : { message: messagePayload(m) }),
        state: { values: buildStateValues(m.blocks) },
        response_url: rUrl,
        actions: [actionPayload(ref, value, state.nextTs())],
      };
      const d = await deliverPayload(payload);
      return { ...d, triggerId, responseUrl: rUrl };
    },

    typeIntoView({ user, viewId, blockId, actionId, value }) {
      const ov = state.findView({ viewId });
      if (!ov || ov.user !== user) throw new Error(`local slack: ${user} has no open view ${viewId}`);
      ov.values[blockId] ??= {};
      ov.values[blockId]![actionId] = value;
      state.changed();
    },

    async sendViewAction({ user, viewId, actionId, blockId, value }) {
      const u = userRef(user);
      const ov = state.findView({ viewId });
      if (!ov || ov.user !== u.id) throw new Error(`local slack: ${user} has no open view ${viewId}`);
      const ref = findElement(ov.view.blocks, actionId, blockId);
      if (!ref) throw new Error(`local slack: view ${viewId} has no element ${blockId}/${actionId}`);
      if (value !== undefined && ref.element.type !== 'button' && ref.element.type !== 'overflow') {
        ov.values[blockId] ??= {};
        ov.values[blockId]![actionId] = value;
      }
      const triggerId = state.issueTrigger(u.id);
      const payload: Json = {
        type: 'block_actions',
        user: u,
        api_app_id: APP_ID,
        token: 'local-verification-token',
        container: { type: 'view', view_id: ov.id },
        trigger_id: triggerId,
        team,
        enterprise: null,
        is_enterprise_install: false,
        view: viewPayload(ov),
        actions: [actionPayload(ref, value, state.nextTs())],
      };
      state.changed();
      const d = await deliverPayload(payload);
      return { ...d, triggerId };
    },

    async submitView({ user, viewId, values = {} }) {
      const u = userRef(user);
      const stack = state.stack(u.id);
      const ov = stack[stack.length - 1];
      if (!ov || ov.id !== viewId) throw new Error(`local slack: view ${viewId} is not ${user}'s top modal`);
      for (const [b, byAction] of Object.entries(values)) {
        ov.values[b] = { ...(ov.values[b] ?? {}), ...byAction };
      }
      const clientErrors = clientSideErrors(ov);
      if (clientErrors) {
        ov.errors = clientErrors;
        state.changed();
        return { status: 0, body: '', delivered: false, errors: clientErrors };
      }
      const triggerId = state.issueTrigger(u.id);
      const payload: Json = {
        type: 'view_submission',
        team,
        user: u,
        api_app_id: APP_ID,
        token: 'local-verification-token',
        trigger_id: triggerId,
        view: viewPayload(ov),
        response_urls: [],
        enterprise: null,
        is_enterprise_install: false,
      };
      const d = await deliverPayload(payload);
      const out: Delivery = { ...d, triggerId };
      if (d.status !== 200) {
        out.errors = { _: 'We had some trouble connecting. Try again?' };
        return out;
      }
      const errors = applySubmissionAck(state, stack, ov, d);
      if (errors) out.errors = errors;
      state.changed();
      return out;
    },

    async closeView({ user, viewId }) {
      const u = userRef(user);
      const stack = state.stack(u.id);
      const ov = stack[stack.length - 1];
      if (!ov || ov.id !== viewId) throw new Error(`local slack: view ${viewId} is not ${user}'s top modal`);
      if (ov.view.clear_on_close === true) stack.length = 0;
      else stack.pop();
      state.changed();
      if (ov.view.notify_on_close !== true) return undefined;
      return deliverPayload({
        type: 'view_closed',
        team,
        user: u,
        api_app_id: APP_ID,
        token: 'local-verification-token',
        view: viewPayload(ov),
        is_cleared: ov.view.clear_on_close === true,
        is_enterprise_install: false,
        enterprise: null,
      });
    },

    async sendShortcut({ user, callbackId }) {
      const u = userRef(user);
      const triggerId = state.issueTrigger(u.id);
      const d = await deliverPayload({
        type: 'shortcut',
        token: 'local-verification-token',
        action_ts: state.nextTs(),
        team,
        user: { id: u.id, username: u.username, team_id: TEAM_ID },
        callback_id: callbackId,
        trigger_id: triggerId,
        is_enterprise_install: false,
        enterprise: null,
      });
      return { ...d, triggerId };
    },

    async sendOptionsRequest({ user, actionId, blockId, value, viewId, channel, messageTs }) {
      const u = userRef(user);
      const ov = viewId ? state.findView({ viewId }) : undefined;
      if (viewId && !ov) throw new Error(`local slack: no view ${viewId}`);
      const container = ov
        ? { type: 'view', view_id: ov.id }
        : { type: 'message', message_ts: messageTs, channel_id: channel, is_ephemeral: false };
      return deliverPayload({
        type: 'block_suggestion',
        user: u,
        container,
        api_app_id: APP_ID,
        token: 'local-verification-token',
        action_id: actionId,
        block_id: blockId,
        value,
        team,
        enterprise: null,
        is_enterprise_install: false,
        ...(ov ? { view: viewPayload(ov) } : { channel: { id: channel } }),
      });
    },

    postUserMessage({ user, channel, text, threadTs }) {
      const u = userRef(user);
      const ch = channelRef(channel);
      return state.addMessage({ channel: ch.id, user: u.id, text, threadTs, kind: 'message', via: 'user' });
    },

    signedPost: (path, rawBody, so) => post(path, rawBody, so),

    messages(channel, mo = {}) {
      const ch = state.channels.get(channel);
      if (!ch) return [];
      if (!mo.user) return ch.messages.filter((m) => (mo.threadTs ? m.threadTs === mo.threadTs : true));
      return state.visibleMessages(channel, mo.user, mo.threadTs);
    },

    topView: (user) => state.topView(user),

    snapshot(viewer) {
      const copy = <T>(v: T): T => structuredClone(v);
      return {
        version: state.version,
        teamId: TEAM_ID,
        botUserId: BOT_USER_ID,
        users: copy([...state.users.values()]),
        channels: [...state.channels.values()].map((c) =>
          copy({
            ...c,
            messages: c.messages.filter(
              (m) => !viewer || m.ephemeralTo === undefined || m.ephemeralTo === viewer,
            ),
          }),
        ),
        views: viewer ? copy(state.views.get(viewer) ?? []) : [],
        home: viewer ? copy(state.home.get(viewer)) : undefined,
      };
    },

    failNext(method, f) {
      faults.set(method, f);
    },

    waitFor<T>(predicate: WaitPredicate<T>, timeoutMs = 5000, label?: string): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const check = (): boolean => {
          let v: T | undefined | null | false;
          try {
            v = predicate(slack);
          } catch (err) {
            done();
            reject(err);
            return true;
          }
          if (v !== undefined && v !== null && v !== false) {
            done();
            resolve(v);
            return true;
          }
          return false;
        };
        const onChange = () => {
          check();
        };
        const timer = setTimeout(() => {
          done();
          const recent = calls
            .slice(-8)
            .map((c) => `${c.method}${c.response.ok ? '' : `(${String(c.response.error)})`}`)
            .join(', ');
          const resp = responses
            .slice(-4)
            .map((r) => `${r.status}${r.error ? ` ${r.error}` : ''}`)
            .join(', ');
          reject(
            new Error(
              `local slack waitFor(${label ?? predicate.toString().slice(0, 160)}) timed out after ${timeoutMs} ms; ` +
                `last Web API calls: [${recent || 'none'}]; last response_url posts: [${resp || 'none'}]`,
            ),
          );
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          state.off('change', onChange);
        };
        if (!check()) state.on('change', onChange);
      });
    },

    on(_event, fn) {
      state.on('change', fn);
      return () => state.off('change', fn);
    },

    reset() {
      calls.length = 0;
      responses.length = 0;
      faults.clear();
      state.reset();
    },

    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
  return slack;
}
