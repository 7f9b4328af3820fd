import { type ApiContext, type ApiResult, conversation, fail, type Handler, str } from './api-context.js';
import { ASSISTANT_METHODS, clearStatusOnReply } from './assistant-api.js';
import { REACTION_METHODS } from './reactions.js';
import { APP_ID, BOT_ID, TEAM_DOMAIN, TEAM_ID } from './state.js';
import type { LocalChannel, LocalMessage, LocalUser, OpenView } from './types.js';
import { UPDATE_TEXT_MAX, validateMessage, validateView } from './validate.js';
import { assignIds, buildStateValues, listElements, viewWithIds } from './views.js';

type Json = Record<string, unknown>;

/** The view object Slack returns from views.* and sends in interaction payloads. */
export function viewPayload(ov: OpenView): Json {
  const modal = ov.view.type !== 'home';
  return {
    id: ov.id,
    team_id: ov.appTeamId ?? TEAM_ID,
    type: ov.view.type,
    // A Home tab has no title, buttons or stack.
    ...(modal ? { title: ov.view.title, submit: ov.view.submit ?? null, close: ov.view.close ?? null } : {}),
    blocks: ov.view.blocks,
    private_metadata: ov.view.private_metadata ?? '',
    callback_id: ov.view.callback_id ?? '',
    external_id: ov.externalId ?? '',
    state: { values: buildStateValues(ov.view.blocks, ov.values) },
    hash: ov.hash,
    clear_on_close: ov.view.clear_on_close ?? false,
    notify_on_close: ov.view.notify_on_close ?? false,
    root_view_id: ov.rootViewId,
    ...(modal ? { previous_view_id: ov.previousViewId ?? null } : {}),
    app_id: APP_ID,
    app_installed_team_id: ov.appTeamId ?? TEAM_ID,
    bot_id: BOT_ID,
  };
}

/** A message object as the Web API and interaction payloads carry it; `thread`: a parent's reply fields. */
export function messagePayload(m: LocalMessage, thread: Json = {}): Json {
  const out: Json = { type: 'message', ts: m.ts, text: m.text, user: m.user, team: TEAM_ID, ...thread };
  if (m.botId) {
    out.bot_id = m.botId;
    out.app_id = APP_ID;
  }
  if (m.blocks) out.blocks = m.blocks;
  if (m.threadTs) out.thread_ts = m.threadTs;
  if (m.edits > 0) out.edited = { user: m.user, ts: m.ts };
  return out;
}

/** Keeps typed values whose block_id/action_id still exist, as Slack does across views.update. */
export function keepValues(old: OpenView['values'], blocks: unknown): OpenView['values'] {
  const out: OpenView['values'] = {};
  for (const ref of listElements(blocks)) {
    const v = old[ref.blockId]?.[ref.actionId];
    if (v !== undefined) {
      out[ref.blockId] ??= {};
      out[ref.blockId]![ref.actionId] = v;
    }
  }
  return out;
}

export function tzInfo(tz: string, at = new Date()): { tz: string; tz_label: string; tz_offset: number } {
  const part = (o: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('en-US', { timeZone: tz, ...o })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value ?? '';
  const m = /^GMT(?:([+-])(\d{1,2})(?::(\d{2}))?)?$/.exec(part({ timeZoneName: 'longOffset' }));
  const offset = m?.[1] ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60) : 0;
  return { tz, tz_label: part({ timeZoneName: 'long' }), tz_offset: offset };
}

/**
 * The user as `users.info` returns it; like Slack, `locale` only when the caller asked for it. `is_admin`
 * and `is_owner` are of the user's own workspace (a Slack Connect guest from another organisation is
 * answered with theirs); on Enterprise Grid `enterprise_user` says their organisation and their standing
 * in it, which is not a workspace's.
 */
export function userObject(
  u: LocalUser,
  o: { includeLocale?: boolean; enterprise?: { id: string; name: string } } = {},
): Json {
  return {
    id: u.id,
    team_id: u.teamId ?? TEAM_ID,
    name: u.name,
    real_name: u.realName ?? u.name,
    deleted: u.deleted ?? false,
    is_bot: u.isBot ?? false,
    is_admin: u.isAdmin ?? false,
    is_owner: u.isOwner ?? false,
    is_primary_owner: false,
    is_restricted: u.guest !== undefined,
    is_ultra_restricted: u.guest === 'single-channel',
    is_app_user: false,
    ...(o.enterprise
      ? {
          enterprise_user: {
            id: u.id,
            enterprise_id: o.enterprise.id,
            enterprise_name: o.enterprise.name,
            is_admin: u.orgAdmin ?? false,
            is_owner: u.orgOwner ?? false,
            is_primary_owner: false,
            teams: [u.teamId ?? TEAM_ID],
          },
        }
      : {}),
    ...tzInfo(u.tz),
    ...(o.includeLocale && u.locale ? { locale: u.locale } : {}),
    profile: { real_name: u.realName ?? u.name, display_name: u.name, team: u.teamId ?? TEAM_ID },
  };
}

/** The organisation of the user's workspace, for `enterprise_user`; none off Grid. */
function enterpriseOf(ctx: ApiContext, u: LocalUser): { enterprise?: { id: string; name: string } } {
  const id = ctx.state.teams.get(u.teamId ?? TEAM_ID)?.enterpriseId;
  const e = id ? ctx.state.enterprises.get(id) : undefined;
  return e ? { enterprise: { id: e.id, name: e.name } } : {};
}

/**
 * Why the bot may not post in a conversation: a private one it is not in does not exist for it,
 * an archived one takes no messages, a public one it is not in needs it to join first, unless the app
 * has `chat:write.public`.
 */
function postingRefused(ctx: ApiContext, ch: LocalChannel): ApiResult | undefined {
  const { state } = ctx;
  if (!ctx.installs.sees(ctx.install, ch)) return fail('channel_not_found');
  if (ch.isPrivate && !state.botIn(ch)) return fail('channel_not_found');
  if (ch.archived) return fail('is_archived');
  if (!state.botMayPost(ch)) return fail('not_in_channel');
  return undefined;
}

/** A message the bot posts through the Web API, as the state records it: from the calling installation's bot. */
function botMessage(ctx: ApiContext, ch: LocalChannel, a: Json) {
  return {
    channel: ch.id,
    user: ctx.install.botUserId,
    botId: ctx.install.botId,
    text: String(a.text ?? ''),
    blocks: a.blocks as unknown[] | undefined,
    kind: 'message' as const,
    via: 'api' as const,
  };
}

function openView(ctx: ApiContext, user: string, view: Json, previous?: OpenView): OpenView {
  const id = ctx.state.newViewId();
  const appTeamId = ctx.install.isEnterpriseInstall ? ctx.state.teamOf(user).id : ctx.install.teamId;
  return {
    id,
    ...(appTeamId ? { appTeamId } : {}),
    externalId: str(view.external_id),
    hash: ctx.state.newHash(),
    user,
    view,
    values: {},
    rootViewId: previous?.rootViewId ?? id,
    previousViewId: previous?.id,
  };
}

function externalIdTaken(ctx: ApiContext, view: Json): boolean {
  return (
    str(view.external_id) !== undefined && ctx.state.findView({ externalId: view.external_id }) !== undefined
  );
}

const handlers: Record<string, Handler> = {
  'api.test': (args) => ({ ok: true, args }),

  'auth.test': (_a, ctx) => {
    const i = ctx.install;
    const team = i.teamId ? ctx.state.teams.get(i.teamId) : undefined;
    const enterprise = i.enterpriseId ? ctx.state.enterprises.get(i.enterpriseId) : undefined;
    return {
      ok: true,
      url: `${ctx.baseUrl}/`,
      team: i.isEnterpriseInstall ? (enterprise?.name ?? '') : (team?.name ?? 'Local Slack'),
      user: 'tsai',
      team_id: i.isEnterpriseInstall ? (i.enterpriseId ?? '') : (i.teamId ?? TEAM_ID),
      user_id: i.botUserId,
      bot_id: i.botId,
      ...(i.enterpriseId ? { enterprise_id: i.enterpriseId } : {}),
      is_enterprise_install: i.isEnterpriseInstall,
    };
  },

  'chat.postMessage': (a, ctx) => {
    const { state, tell } = ctx;
    const ch = conversation(ctx, a.channel);
    if (!ch) return fail('channel_not_found');
    const refused = postingRefused(ctx, ch);
    if (refused) return refused;
    const bad = validateMessage(a.text, a.blocks);
    if (bad) return fail(bad.error, bad.messages);
    const threadTs = str(a.thread_ts);
    if (threadTs && !state.message(ch.id, threadTs)) return fail('thread_not_found');
    const m = state.addMessage({
      ...botMessage(ctx, ch, a),
      threadTs,
      broadcast: threadTs ? a.reply_broadcast === true || a.reply_broadcast === 'true' : undefined,
    });
    if (threadTs) clearStatusOnReply(ctx, ch, threadTs);
    tell?.({ kind: 'posted', message: m });
    return { ok: true, channel: ch.id, ts: m.ts, message: messagePayload(m) };
  },

  'chat.postEphemeral': (a, ctx) => {
    const { state } = ctx;
    const ch = conversation(ctx, a.channel);
    if (!ch) return fail('channel_not_found');
    const refused = postingRefused(ctx, ch);
    if (refused) return refused;
    // chat:write.public lets an app post in a public channel it is not in, not whisper there: Slack answers
    // not_in_channel (slackapi/node-slack-sdk#977).
    if (!state.botIn(ch)) return fail('not_in_channel');
    const user = str(a.user);
    if (!user || !state.users.has(user) || !ctx.installs.seesUser(ctx.install, user))
      return fail('user_not_found');
    if (ch.members && !ch.members.includes(user)) return fail('user_not_in_channel');
    const bad = validateMessage(a.text, a.blocks);
    if (bad) return fail(bad.error, bad.messages);
    const m = state.addMessage({ ...botMessage(ctx, ch, a), threadTs: str(a.thread_ts), ephemeralTo: user });
    return { ok: true, message_ts: m.ts };
  },

  'chat.update': (a, ctx) => {
    const { state, tell } = ctx;
    const ch = conversation(ctx, a.channel);
    if (!ch || (ch.isPrivate && !state.botIn(ch))) return fail('channel_not_found');
    if (ch.archived) return fail('is_inactive');
    if (!state.botMayPost(ch)) return fail('not_in_channel');
    const m = typeof a.ts === 'string' ? state.message(ch.id, a.ts) : undefined;
    if (!m || m.ephemeralTo !== undefined) return fail('message_not_found');
    if (m.user !== ctx.install.botUserId) return fail('cant_update_message');
    const text = a.text ?? (a.blocks === undefined ? undefined : m.text);
    const bad = validateMessage(text, a.blocks ?? m.blocks, UPDATE_TEXT_MAX);
    if (bad) return fail(bad.error, bad.messages);
    const previous = structuredClone(m);
    if (a.text !== undefined) m.text = String(a.text);
    if (a.blocks !== undefined) m.blocks = assignIds(a.blocks);
    m.edits++;
    state.changed();
    tell?.({ kind: 'edited', message: m, previous, editedTs: state.nextTs() });
    return { ok: true, channel: ch.id, ts: m.ts, text: m.text, message: messagePayload(m) };
  },

  'chat.getPermalink': (a, ctx) => {
    const { state, baseUrl } = ctx;
    const ch = conversation(ctx, a.channel);
    if (!ch) return fail('channel_not_found');
    const ts = str(a.message_ts);
    if (!ts || !state.message(ch.id, ts)) return fail('message_not_found');
    return { ok: true, channel: ch.id, permalink: `${baseUrl}/archives/${ch.id}/p${ts.replace('.', '')}` };
  },

  'views.open': (a, ctx) => {
    const trig = ctx.state.useTrigger(a.trigger_id ?? a.interactivity_pointer, ctx.triggerTtlMs);
    if ('error' in trig) return fail(trig.error);
    if (!ctx.installs.seesUser(ctx.install, trig.user)) return fail('invalid_trigger_id');
    const bad = validateView(a.view, 'modal');
    if (bad) return fail(bad.error, bad.messages);
    const view = viewWithIds(a.view as Json);
    if (externalIdTaken(ctx, view)) return fail('duplicate_external_id');
    const ov = openView(ctx, trig.user, view);
    // A new modal replaces whatever stack the user had open, as in Slack's client.
    ctx.state.views.set(trig.user, [ov]);
    ctx.state.changed();
    return { ok: true, view: viewPayload(ov) };
  },

  'views.push': (a, ctx) => {
    const trig = ctx.state.useTrigger(a.trigger_id ?? a.interactivity_pointer, ctx.triggerTtlMs);
    if ('error' in trig) return fail(trig.error);
    if (!ctx.installs.seesUser(ctx.install, trig.user)) return fail('invalid_trigger_id');
    const bad = validateView(a.view, 'modal');
    if (bad) return fail(bad.error, bad.messages);
    const stack = ctx.state.stack(trig.user);
    if (stack.length === 0) return fail('not_found', ['no modal is open to push onto']);
    if (stack.length >= 3) return fail('push_limit_reached');
    const view = viewWithIds(a.view as Json);
    if (externalIdTaken(ctx, view)) return fail('duplicate_external_id');
    const ov = openView(ctx, trig.user, view, stack[stack.length - 1]);
    stack.push(ov);
    ctx.state.changed();
    return { ok: true, view: viewPayload(ov) };
  },

  'views.update': (a, ctx) => {
    if (a.view_id === undefined && a.external_id === undefined) return fail('invalid_arguments');
    const ov = ctx.state.findView({ viewId: a.view_id, externalId: a.external_id });
    if (!ov || !ctx.installs.seesUser(ctx.install, ov.user)) return fail('not_found');
    if (str(a.hash) && a.hash !== ov.hash) return fail('hash_conflict');
    const bad = validateView(a.view, ov.view.type === 'home' ? 'home' : 'modal');
    if (bad) return fail(bad.error, bad.messages);
    const view = viewWithIds(a.view as Json);
    ov.values = keepValues(ov.values, view.blocks);
    ov.view = view;
    ov.externalId = str(view.external_id) ?? ov.externalId;
    ov.hash = ctx.state.newHash();
    ov.errors = undefined;
    ctx.state.changed();
    return { ok: true, view: viewPayload(ov) };
  },

  'views.publish': (a, ctx) => {
    if (!ctx.state.app.homeTabEnabled) return fail('not_enabled');
    const user = str(a.user_id);
    if (!user || !ctx.state.users.has(user) || !ctx.installs.seesUser(ctx.install, user))
      return fail('user_not_found');
    const bad = validateView(a.view, 'home');
    if (bad) return fail(bad.error, bad.messages);
    const prev = ctx.state.home.get(user);
    if (prev && str(a.hash) && a.hash !== prev.hash) return fail('hash_conflict');
    const view = viewWithIds(a.view as Json);
    const ov = prev ?? openView(ctx, user, view);
    ov.values = prev ? keepValues(prev.values, view.blocks) : {};
    ov.view = view;
    ov.hash = ctx.state.newHash();
    ctx.state.home.set(user, ov);
    ctx.state.changed();
    return { ok: true, view: viewPayload(ov) };
  },

  'users.info': (a, ctx) => {
    const u = typeof a.user === 'string' ? ctx.state.users.get(a.user) : undefined;
    if (!u || !ctx.installs.seesUser(ctx.install, u.id)) return fail('user_not_found');
    return {
      ok: true,
      user: userObject(u, {
        includeLocale: a.include_locale === true || a.include_locale === 'true',
        ...enterpriseOf(ctx, u),
      }),
    };
  },

  // The members of the installation's workspaces (of one, `team_id`, for an org-wide install), a page at a time.
  'users.list': (a, ctx) => {
    const teams = ctx.installs.teamsOf(ctx.install);
    const only = typeof a.team_id === 'string' ? a.team_id : undefined;
    if (only && !teams.includes(only)) return fail('team_access_not_granted');
    const members = [...ctx.state.users.values()].filter(
      (u) =>
        !u.isBot && (only ? ctx.state.teamOf(u.id).id === only : teams.includes(ctx.state.teamOf(u.id).id)),
    );
    const from = typeof a.cursor === 'string' && /^\d+$/.test(a.cursor) ? Number(a.cursor) : 0;
    const limit = Math.min(1000, Math.max(1, Number(a.limit) || 200));
    const page = members.slice(from, from + limit);
    const next = from + limit < members.length ? String(from + limit) : '';
    return {
      ok: true,
      members: page.map((u) => userObject(u, enterpriseOf(ctx, u))),
      response_metadata: { next_cursor: next },
    };
  },

  'usergroups.users.list': (a, { state }) => {
    const g = typeof a.usergroup === 'string' ? state.usergroups.get(a.usergroup) : undefined;
    if (!g) return fail('no_such_subteam');
    return { ok: true, users: [...g.users] };
  },

  'conversations.info': (a, ctx) => {
    const { state } = ctx;
    const ch = typeof a.channel === 'string' ? state.channels.get(a.channel) : undefined;
    if (!ch || !ctx.installs.sees(ctx.install, ch) || (ch.isPrivate && !state.botIn(ch)))
      return fail('channel_not_found');
    return {
      ok: true,
      channel: {
        id: ch.id,
        name: ch.name,
        is_channel: !ch.isIm && !ch.isPrivate,
        is_group: !!ch.isPrivate && !ch.isIm,
        is_im: !!ch.isIm,
        is_private: !!ch.isPrivate,
        is_member: state.botIn(ch),
        is_archived: ch.archived === true,
        context_team_id: state.teamsOf(ch)[0] ?? TEAM_ID,
      },
    };
  },
  ...REACTION_METHODS,
  ...ASSISTANT_METHODS,
};

/** Fields WebClient sends JSON-stringified inside a form body. */
const JSON_FIELDS = [
  'blocks',
  'attachments',
  'view',
  'metadata',
  'unfurls',
  'outputs',
  'prompts',
  'loading_messages',
];

export function normaliseArgs(raw: Json): { args: Json; badJson?: string } {
  const args: Json = { ...raw };
  for (const k of JSON_FIELDS) {
    const v = args[k];
    if (typeof v === 'string') {
      try {
        args[k] = JSON.parse(v);
      } catch {
        return { args, badJson: k };
      }
    }
  }
  return { args };
}

export type { ApiContext, ApiResult };

export function callApi(method: string, args: Json, ctx: ApiContext): ApiResult {
  const h = handlers[method];
  if (!h) return fail('unknown_method');
  return h(args, ctx);
}

export const SUPPORTED_METHODS = Object.keys(handlers);
export { TEAM_DOMAIN };
