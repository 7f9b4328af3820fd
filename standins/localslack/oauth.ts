import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LocalSlackContext } from './context.js';
import type { InstallTarget } from './installs.js';
import { APP_ID } from './state.js';

type Json = Record<string, unknown>;

/** The app's OAuth settings, as its Basic Information and OAuth & Permissions pages hold them. */
export interface OAuthApp {
  clientId: string;
  clientSecret: string;
  /** The app's redirect URL, used when the authorize request names none. */
  redirectUrl?: string;
}

interface Grant {
  target: InstallTarget;
  user: string;
  scopes: string[];
  /** The redirect_uri the authorize request named: the exchange must name the same. */
  redirectUri?: string;
  issuedAt: number;
  used: boolean;
}

/** A code is good once, for ten minutes, as Slack's are. */
const CODE_TTL_MS = 10 * 60_000;

/** The codes Slack's authorize page hands out, each exchanged once by `oauth.v2.access`. */
export class OAuthCodes {
  private readonly grants = new Map<string, Grant>();
  app: OAuthApp | undefined;

  issue(grant: Omit<Grant, 'used'>): string {
    const code = `${Date.now()}.${randomBytes(16).toString('hex')}`;
    this.grants.set(code, { ...grant, used: false });
    return code;
  }

  /** The grant of a code still good, without using it. */
  find(code: unknown, now: number): Grant | undefined {
    const g = typeof code === 'string' ? this.grants.get(code) : undefined;
    return !g || g.used || now - g.issuedAt > CODE_TTL_MS ? undefined : g;
  }
}

/**
 * `oauth.v2.access`: the app exchanges the code Slack's redirect carried, with its client ID and secret,
 * for the installation's bot token. The answer is Slack's: the bot token, its user and ID, the workspace
 * (null for an org-wide install), the organisation, `is_enterprise_install`, the installer.
 */
export function oauthAccess(ctx: LocalSlackContext, a: Json): Json & { ok: boolean } {
  const app = ctx.oauth.app;
  if (!app || a.client_id !== app.clientId) return { ok: false, error: 'invalid_client_id' };
  if (a.client_secret !== app.clientSecret) return { ok: false, error: 'bad_client_secret' };
  const grant = ctx.oauth.find(a.code, ctx.state.now());
  if (!grant) return { ok: false, error: 'invalid_code' };
  if (grant.redirectUri !== undefined && a.redirect_uri !== grant.redirectUri)
    return { ok: false, error: 'bad_redirect_uri' };
  grant.used = true;
  const install = ctx.installs.install(grant.target, {
    installerId: grant.user,
    scopes: grant.scopes,
    now: ctx.state.now(),
  });
  ctx.state.changed();
  const team = install.teamId ? ctx.state.teams.get(install.teamId) : undefined;
  const enterprise = install.enterpriseId ? ctx.state.enterprises.get(install.enterpriseId) : undefined;
  return {
    ok: true,
    app_id: APP_ID,
    authed_user: { id: grant.user },
    scope: grant.scopes.join(','),
    token_type: 'bot',
    access_token: install.token,
    bot_user_id: install.botUserId,
    team: install.isEnterpriseInstall || !team ? null : { id: team.id, name: team.name },
    enterprise: enterprise ? { id: enterprise.id, name: enterprise.name } : null,
    is_enterprise_install: install.isEnterpriseInstall,
  };
}

/** What someone chooses on the authorize page: where to install, as whom, and whether they allow it. */
export interface AuthorizeChoice {
  user: string;
  target: InstallTarget;
  /** Cancel instead of Allow. */
  deny?: boolean;
}

/**
 * Slack's authorize page (`/oauth/v2/authorize`): GET shows where the app can be installed and as whom;
 * POST is the choice, answered with the redirect to the app, carrying a code and the app's state (or
 * `error=access_denied`). An unknown client ID or a missing redirect is refused on the page itself.
 */
export function handleAuthorize(
  ctx: LocalSlackContext,
  req: IncomingMessage,
  u: URL,
  raw: string,
  res: ServerResponse,
) {
  const q = req.method === 'POST' ? new URLSearchParams(raw) : u.searchParams;
  const app = ctx.oauth.app;
  if (!app || q.get('client_id') !== app.clientId)
    return html(res, 400, '<h1>This app cannot be installed</h1><p>Slack does not know its client ID.</p>');
  const redirectUri = q.get('redirect_uri') ?? undefined;
  const redirect = redirectUri ?? app.redirectUrl;
  if (!redirect)
    return html(res, 400, '<h1>This app cannot be installed</h1><p>It has no redirect URL configured.</p>');
  if (req.method !== 'POST') return html(res, 200, authorizePage(ctx, q));
  const target = targetOf(q.get('target') ?? '');
  const user = q.get('user') ?? '';
  const state = q.get('state');
  const back = new URL(redirect);
  if (q.get('decision') === 'deny') back.searchParams.set('error', 'access_denied');
  else {
    if (!target || !ctx.state.users.has(user))
      return html(res, 400, '<h1>Choose a workspace and a person</h1>');
    const scopes = (q.get('scope') ?? '').split(',').filter(Boolean);
    back.searchParams.set(
      'code',
      ctx.oauth.issue({ target, user, scopes, redirectUri, issuedAt: ctx.state.now() }),
    );
  }
  if (state !== null) back.searchParams.set('state', state);
  res.writeHead(302, { location: back.toString() });
  res.end();
}

function targetOf(v: string): InstallTarget | undefined {
  if (/^E[A-Z0-9]+$/.test(v)) return { enterpriseId: v };
  if (/^T[A-Z0-9]+$/.test(v)) return { teamId: v };
  return undefined;
}

const escapeHtml = (t: string) => t.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function html(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Local Slack: install an app</title>
<style>body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem}label{display:block;margin:.8rem 0 .2rem}select{width:100%;padding:.3rem}button{margin:1rem .5rem 0 0;padding:.5rem 1rem}</style></head><body>${body}</body></html>`,
  );
}

/** The page: the app's scopes, where to install it (each workspace, each organisation as a whole), as whom. */
function authorizePage(ctx: LocalSlackContext, q: URLSearchParams): string {
  const { state } = ctx;
  const hidden = ['client_id', 'scope', 'user_scope', 'redirect_uri', 'state']
    .filter((k) => q.has(k))
    .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(q.get(k) ?? '')}">`)
    .join('');
  const targets = [
    ...[...state.teams.values()].map(
      (t) => `<option value="${escapeHtml(t.id)}">${escapeHtml(t.name)} (workspace)</option>`,
    ),
    ...[...state.enterprises.values()].map(
      (e) => `<option value="${escapeHtml(e.id)}">${escapeHtml(e.name)} (the whole organisation)</option>`,
    ),
  ].join('');
  const people = [...state.users.values()]
    .filter((u) => !u.isBot)
    .map(
      (u) =>
        `<option value="${escapeHtml(u.id)}">${escapeHtml(u.realName ?? u.name)} (${escapeHtml(state.teamOf(u.id).name)})</option>`,
    )
    .join('');
  const scopes = (q.get('scope') ?? '')
    .split(',')
    .filter(Boolean)
    .map((s) => `<li><code>${escapeHtml(s)}</code></li>`)
    .join('');
  return `<h1>tsai is requesting permission to access a Slack workspace</h1>
<form method="post" action="/oauth/v2/authorize">${hidden}
<label for="target">Where to install it</label><select id="target" name="target">${targets}</select>
<label for="user">Installing as</label><select id="user" name="user">${people}</select>
<p>It will be able to:</p><ul>${scopes}</ul>
<button type="submit" name="decision" value="allow" id="allow">Allow</button>
<button type="submit" name="decision" value="deny" id="deny">Cancel</button>
</form>`;
}
