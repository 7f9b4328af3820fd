import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { commandText } from './command-text.js';
import { handleControl } from './control.js';
import { DEFAULT_CHANNELS, DEFAULT_USERGROUPS, DEFAULT_USERS } from './defaults.js';
import { type FaultSpec, Faults, type InjectedFault, RESPONSE_URL } from './faults.js';
import { type RateLimitConfig, RateLimiter, type RateLimitOptions } from './rate-limits.js';
import { applyResponse } from './respond.js';
import {
  isExternalSelect,
  minQueryLength,
  optionsOfAnswer,
  rememberOffered,
  resolveChoice,
} from './selects.js';
import { nowSeconds, signSlackRequest } from './signing.js';
import { APP_ID, BOT_ID, BOT_USER_ID, SlackState, TEAM_DOMAIN, TEAM_ID } from './state.js';
import { applySubmissionAck, clientSideErrors } from './submission.js';
import type {
  ApiCall,
  AppSettings,
  Delivery,
  EventDelivery,
  LocalChannel,
  LocalMessage,
  LocalSlackSnapshot,
  LocalUser,
  LocalUsergroup,
  OpenView,
  ResponseUrlCall,
} from './types.js';
import { optionsResponseProblems } from './validate.js';
import { actionPayload, buildStateValues, type ElementRef, findElement } from './views.js';
import { type ApiContext, callApi, messagePayload, normaliseArgs, viewPayload } from './webapi.js';

type Json = Record<string, unknown>;

const randomId = (n: number) => randomBytes(n).toString('hex').toUpperCase().slice(0, n);

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
  /** Clock for trigger_id and response_url expiry and rate limits (ms). Request signing always uses the real clock. */
  now?: () => number;
  /** Slack's rate limits (off by default): `true` for Slack's figures, or options replacing some. */
  rateLimits?: boolean | RateLimitOptions;
  /** The app's manifest settings: Home and Messages tabs (both on by default). */
  app?: Partial<AppSettings>;
}

/** How the workspace regards the bot's token: `revoked` answers `token_revoked`, `inactive` `account_inactive`. */
export type TokenStatus = 'active' | 'revoked' | 'inactive';

export interface SendEventOptions {
  /** Default: a fresh `Ev…` id. Reuse one with `retryNum` to redeliver an event as Slack's retries do. */
  eventId?: string;
  /** Sent as X-Slack-Retry-Num (with X-Slack-Retry-Reason, default `http_timeout`). */
  retryNum?: number;
  retryReason?: string;
}

export interface SignedPostOptions {
  /** Seconds; `null` omits the header. Default: now. */
  timestamp?: number | null;
  /** `null` omits the header; a string is sent as is. Default: the correct signature. */
  signature?: string | null;
  contentType?: string;
  /** More headers, e.g. X-Slack-Retry-Num. */
  headers?: Record<string, string>;
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
  /** Every Events API delivery in order. */
  readonly events: EventDelivery[];
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
  /**
   * Stores what the user typed into a view without sending anything (input blocks, as in Slack). For a
   * type-ahead select the value is an offered option's value (or the option), a list for the multi select.
   */
  typeIntoView(o: { user: string; viewId: string; blockId: string; actionId: string; value: unknown }): void;
  /**
   * The user picks options the app offered in a type-ahead select of a view (`external_select`: one
   * value, `multi_external_select`: any number; `[]` clears). Stored with the app's text, so state.values
   * carries `selected_option(s)` as Slack sends them; where Slack would send block_actions (actions
   * blocks, accessories, `dispatch_action` inputs) it is delivered and returned.
   */
  pickOptions(o: {
    user: string;
    viewId: string;
    blockId: string;
    actionId: string;
    values: string[];
  }): Promise<Delivery | undefined>;
  sendShortcut(o: { user: string; callbackId: string; channel?: string }): Promise<Delivery>;
  /**
   * The user types `value` into a type-ahead select: Slack's block_suggestion, from a view (`viewId`) or a
   * message (`channel` + `messageTs`). Below the element's `min_query_length` nothing is sent
   * (`delivered: false`), as in Slack. The app's options come back in `options` (and, for a view, become
   * pickable); an answer breaking Slack's option limits gives `errors._`.
   */
  sendOptionsRequest(o: {
    user: string;
    actionId: string;
    blockId: string;
    value: string;
    viewId?: string;
    channel?: string;
    messageTs?: string;
  }): Promise<Delivery>;
  /** An Events API delivery: a signed JSON `event_callback` envelope around `event`. */
  sendEvent(event: Record<string, unknown>, o?: SendEventOptions): Promise<Delivery>;
  /** The user opens the app's Home (or Messages) tab: `app_home_opened`, sent on every visit as Slack does. */
  openHome(o: { user: string; tab?: 'home' | 'messages' }): Promise<Delivery>;
  /** A user writes a plain message (no `message` event is delivered). */
  postUserMessage(o: { user: string; channel: string; text: string; threadTs?: string }): LocalMessage;
  signedPost(path: string, rawBody: string, o?: SignedPostOptions): Promise<Delivery>;
  /** Messages `user` sees in `channel` (top level, or one thread when threadTs is given). */
  messages(channel: string, o?: { user?: string; threadTs?: string }): LocalMessage[];
  topView(user: string): OpenView | undefined;
  snapshot(viewer?: string): LocalSlackSnapshot;
  /**
   * Makes Web API calls (or response_url posts, `method: 'response_url'`) fail: the next `times` (default
   * 1, or `always` until cleared) matching calls, optionally only for one `channel` or `user`, answer a
   * platform error (HTTP 200 `{ok:false,error}`), a 429 with Retry-After, or a 5xx. Tried in the order added.
   */
  injectFault(f: FaultSpec): InjectedFault;
  listFaults(): InjectedFault[];
  /** Removes all faults, or those with this id or method; returns how many. */
  clearFaults(filter?: { id?: number; method?: string }): number;
  /** `injectFault({ method, ...f })` for the next call only. */
  failNext(method: string, f: { error?: string; status?: number; retryAfter?: number }): void;
  /** Turns Slack's rate limits on (`true` or options) or off; counting starts afresh. */
  setRateLimits(o: boolean | RateLimitOptions): RateLimitConfig;
  rateLimits(): RateLimitConfig;
  /** Revokes (or deactivates, or restores) the bot's token: every call answers with its error meanwhile. */
  setTokenStatus(status: TokenStatus): void;
  tokenStatus(): TokenStatus;
  /** Adds the bot to a channel or removes it, archives or unarchives the channel. */
  setChannelState(channel: string, s: { botMember?: boolean; archived?: boolean }): LocalChannel;
  /** The app's manifest settings (kept across `reset`). */
  configureApp(s: Partial<AppSettings>): AppSettings;
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
  Object.assign(state.app, o.app ?? {});
  const calls: ApiCall[] = [];
  const responses: ResponseUrlCall[] = [];
  const events: EventDelivery[] = [];
  const faults = new Faults();
  const limiter = new RateLimiter(now, o.rateLimits);
  let tokenStatus: TokenStatus = 'active';
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
    const answer = (status: number, response: Json, extra: Partial<ApiCall> = {}, headers = {}) => {
      calls.push({ method, args, response, status, ...extra, at: Date.now() });
      state.changed();
      sendJson(res, status, response, headers);
    };
    if (token === undefined || token === '') return answer(200, { ok: false, error: 'not_authed' });
    if (token !== o.botToken) return answer(200, { ok: false, error: 'invalid_auth' });
    if (tokenStatus !== 'active')
      return answer(200, {
        ok: false,
        error: tokenStatus === 'revoked' ? 'token_revoked' : 'account_inactive',
      });
    if (badJson)
      return answer(200, {
        ok: false,
        error: badJson === 'blocks' ? 'invalid_blocks_format' : 'invalid_arguments',
      });
    const fault = faults.take(method, args.channel, args.user_id ?? args.user ?? args.channel);
    if (fault) return answer(fault.status, fault.body, { fault: fault.id }, fault.headers);
    const postTo = method === 'chat.postMessage' ? postingChannel(args.channel) : undefined;
    const limited = limiter.take(method, postTo);
    if (limited)
      return answer(
        429,
        { ok: false, error: 'ratelimited' },
        { rateLimited: true, retryAfter: limited.retryAfter },
        { 'retry-after': String(limited.retryAfter) },
      );
    const ctx: ApiContext = { state, baseUrl: url, triggerTtlMs };
    answer(200, callApi(method, args, ctx));
  }

  /** The conversation a chat.postMessage goes to (a user ID means their DM), without opening one. */
  function postingChannel(channel: unknown): string | undefined {
    if (typeof channel !== 'string') return undefined;
    return state.users.has(channel) ? `D${channel}` : channel;
  }

  function handleResponseUrl(id: string, raw: string, res: ServerResponse) {
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      body = undefined;
    }
    const target = state.responseTargets.get(id);
    const fault = faults.take(RESPONSE_URL, target?.channel, target?.user);
    const out = fault ? { status: fault.status, json: fault.body } : applyResponse(state, target, body);
    responses.push({
      id,
      body: body ?? raw,
      status: out.status,
      error: out.json.ok ? undefined : String(out.json.error),
      ...(fault ? { fault: fault.id } : {}),
      at: Date.now(),
    });
    state.changed();
    sendJson(res, out.status, out.json, fault?.headers);
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
      ...so.headers,
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

  const endpointPath = () => new URL(botEndpoint ?? 'http://x/').pathname;
  const deliverPayload = (payload: Json) =>
    post(endpointPath(), new URLSearchParams({ payload: JSON.stringify(payload) }).toString());

  /** A modal in the user's stack or their Home view. */
  function viewOf(user: string, viewId: string): OpenView {
    const ov = state.findView({ viewId });
    if (!ov || ov.user !== user) throw new Error(`local slack: ${user} has no open view ${viewId}`);
    return ov;
  }

  /** Whether Slack sends block_actions when this element changes. */
  const dispatches = (ref: ElementRef) => ref.blockType !== 'input' || ref.block.dispatch_action === true;

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
    events,
    setBotEndpoint(u) {
      botEndpoint = u;
    },

    async sendCommand({ user, channel, text: typed, command = '/tsai', shouldEscape, rawText }) {
      const u = userRef(user);
      const ch = channelRef(channel);
      if (ch.archived) throw new Error(`local slack: #${ch.name} is archived; nobody can type there`);
      if (!state.canSee(ch, u.id)) throw new Error(`local slack: ${user} is not in ${channel}`);
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
      const d = await post(endpointPath(), body);
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
      const ov = viewOf(user, viewId);
      const ref = findElement(ov.view.blocks, actionId, blockId);
      ov.values[blockId] ??= {};
      ov.values[blockId]![actionId] = ref ? resolveChoice(ov, ref, value) : value;
      state.changed();
    },

    async pickOptions({ user, viewId, blockId, actionId, values }) {
      const ov = viewOf(user, viewId);
      const ref = findElement(ov.view.blocks, actionId, blockId);
      if (!ref || !isExternalSelect(ref.element))
        throw new Error(`local slack: view ${viewId} has no type-ahead select ${blockId}/${actionId}`);
      const single = ref.element.type === 'external_select' && values.length <= 1;
      const chosen = resolveChoice(ov, ref, single ? (values[0] ?? null) : values);
      if (dispatches(ref)) return slack.sendViewAction({ user, viewId, blockId, actionId, value: chosen });
      ov.values[blockId] ??= {};
      ov.values[blockId]![actionId] = chosen;
      state.changed();
      return undefined;
    },

    async sendViewAction({ user, viewId, actionId, blockId, value }) {
      const u = userRef(user);
      const ov = viewOf(u.id, viewId);
      const ref = findElement(ov.view.blocks, actionId, blockId);
      if (!ref) throw new Error(`local slack: view ${viewId} has no element ${blockId}/${actionId}`);
      const chosen = resolveChoice(ov, ref, value);
      if (chosen !== undefined && ref.element.type !== 'button' && ref.element.type !== 'overflow') {
        ov.values[blockId] ??= {};
        ov.values[blockId]![actionId] = chosen;
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
        actions: [actionPayload(ref, chosen, state.nextTs())],
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
        for (const [a, v] of Object.entries(byAction)) {
          const ref = findElement(ov.view.blocks, a, b);
          ov.values[b] ??= {};
          ov.values[b]![a] = ref ? resolveChoice(ov, ref, v) : v;
        }
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
      let ov: OpenView | undefined;
      let ref: ElementRef | undefined;
      let where: Json;
      if (viewId) {
        ov = viewOf(u.id, viewId);
        ref = findElement(ov.view.blocks, actionId, blockId);
        where = { container: { type: 'view', view_id: ov.id }, view: viewPayload(ov) };
      } else {
        if (!channel)
          throw new Error('local slack: an options request needs a viewId, or a channel and messageTs');
        const ch = channelRef(channel);
        const m = messageTs ? state.message(ch.id, messageTs) : undefined;
        if (!m || (m.ephemeralTo !== undefined && m.ephemeralTo !== u.id))
          throw new Error(`local slack: ${user} sees no message ${messageTs} in ${channel}`);
        ref = findElement(m.blocks, actionId, blockId);
        where = {
          container: {
            type: 'message',
            message_ts: m.ts,
            channel_id: ch.id,
            is_ephemeral: m.ephemeralTo !== undefined,
          },
          channel: { id: ch.id, name: ch.isIm ? 'directmessage' : ch.name },
        };
      }
      if (!ref || !isExternalSelect(ref.element))
        throw new Error(`local slack: no type-ahead select ${blockId}/${actionId} there`);
      if (value.length < minQueryLength(ref.element)) return { status: 0, body: '', delivered: false };
      const d = await deliverPayload({
        type: 'block_suggestion',
        user: u,
        ...where,
        api_app_id: APP_ID,
        token: 'local-verification-token',
        action_id: ref.actionId,
        block_id: ref.blockId,
        value,
        team,
        enterprise: null,
        is_enterprise_install: false,
      });
      if (d.status !== 200)
        return { ...d, options: [], errors: { _: 'the app did not answer with options' } };
      const problems = optionsResponseProblems(d.json);
      if (problems.length > 0) return { ...d, options: [], errors: { _: problems.join('; ') } };
      const options = optionsOfAnswer(d.json);
      if (ov) {
        rememberOffered(ov, ref, options);
        state.changed();
      }
      return { ...d, options };
    },

    async sendEvent(event, eo = {}) {
      const eventId = eo.eventId ?? `Ev${randomId(10)}`;
      const envelope = {
        token: 'local-verification-token',
        team_id: TEAM_ID,
        context_team_id: TEAM_ID,
        api_app_id: APP_ID,
        event: { event_ts: state.nextTs(), ...event },
        type: 'event_callback',
        event_id: eventId,
        event_time: nowSeconds(),
        authorizations: [
          {
            enterprise_id: null,
            team_id: TEAM_ID,
            user_id: BOT_USER_ID,
            is_bot: true,
            is_enterprise_install: false,
          },
        ],
        is_ext_shared_channel: false,
        event_context: `4-${randomId(16)}`,
      };
      const retry: Record<string, string> =
        eo.retryNum === undefined
          ? {}
          : {
              'x-slack-retry-num': String(eo.retryNum),
              'x-slack-retry-reason': eo.retryReason ?? 'http_timeout',
            };
      const d = await post(endpointPath(), JSON.stringify(envelope), {
        contentType: 'application/json',
        headers: retry,
      });
      events.push({
        eventId,
        event: envelope.event,
        ...(eo.retryNum === undefined ? {} : { retryNum: eo.retryNum }),
        status: d.status,
        at: Date.now(),
      });
      state.changed();
      return { ...d, eventId };
    },

    openHome({ user, tab = 'home' }) {
      const u = userRef(user);
      if (tab === 'home' && !state.app.homeTabEnabled)
        throw new Error('local slack: the app has no Home tab (home_tab_enabled is off)');
      if (tab === 'messages' && !state.app.messagesTabEnabled)
        throw new Error('local slack: the app has no Messages tab (messages_tab_enabled is off)');
      const dm = state.channel(u.id)!;
      const home = state.home.get(u.id);
      return slack.sendEvent({
        type: 'app_home_opened',
        user: u.id,
        channel: dm.id,
        tab,
        ...(home ? { view: viewPayload(home) } : {}),
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
        channels: [...state.channels.values()]
          .filter((c) => !viewer || state.canSee(c, viewer))
          .map((c) =>
            copy({
              ...c,
              messages: c.messages.filter(
                (m) => !viewer || m.ephemeralTo === undefined || m.ephemeralTo === viewer,
              ),
            }),
          ),
        views: viewer ? copy(state.views.get(viewer) ?? []) : [],
        home: viewer ? copy(state.home.get(viewer)) : undefined,
        app: { ...state.app },
      };
    },

    injectFault(f) {
      const added = faults.add(f);
      state.changed();
      return added;
    },
    listFaults: () => faults.describe(),
    clearFaults(filter) {
      const n = faults.clear(filter);
      state.changed();
      return n;
    },
    failNext(method, f) {
      slack.injectFault({ method, ...f });
    },

    setRateLimits(rl) {
      const out = limiter.set(rl);
      state.changed();
      return out;
    },
    rateLimits: () => limiter.describe(),

    setTokenStatus(status) {
      if (!['active', 'revoked', 'inactive'].includes(status))
        throw new Error(`local slack: token status is active, revoked or inactive, not "${status}"`);
      tokenStatus = status;
      state.changed();
    },
    tokenStatus: () => tokenStatus,

    setChannelState(channel, cs) {
      const ch = channelRef(channel);
      if (ch.isIm) throw new Error('local slack: the bot is always in its DMs, and DMs are never archived');
      if (cs.botMember !== undefined) ch.botMember = cs.botMember;
      if (cs.archived !== undefined) ch.archived = cs.archived;
      state.changed();
      const { messages: _m, ...rest } = ch;
      return structuredClone(rest);
    },

    configureApp(settings) {
      Object.assign(state.app, settings);
      state.changed();
      return { ...state.app };
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
      events.length = 0;
      faults.clear();
      limiter.set(o.rateLimits ?? false);
      tokenStatus = 'active';
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
