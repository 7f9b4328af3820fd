import { addressAllowlist, vettedLookup } from './address.js';
import { CLIENT_DEFAULTS, type ClientOptionsForCheck } from './client.js';
import { ServiceError } from './errors.js';
import { Transport } from './transport.js';

/** What one cheap authenticated read with a token said of it. Never carries the token. */
export type TokenCheck =
  /** The service answered the read (2xx): the token works; `role` and `serviceUser` when it said so. */
  | { ok: true; role?: string; serviceUser?: string }
  /** 401: the token is invalid or expired. */
  | { ok: false; reason: 'refused' }
  /**
   * The service answered, but not with the read: `status` 403 (the token's role may not read the
   * account), 404 (no such account at this URL), a redirect (not followed) or another 4xx. The token is
   * not taken as working: only the read itself says it works.
   */
  | { ok: false; reason: 'not-read'; status: number; message: string }
  /** No answer that tells (network, timeout, 5xx, 429), or the URL leads where it may not: nothing is known. */
  | { ok: false; reason: 'unanswered'; message: string };

/**
 * Lists at most one workspace of the account with `token` (the cheapest authenticated read of the
 * service's API), in one attempt within `budgetMs` (the check runs inside a Slack acknowledgement), on a
 * connection of its own that is closed afterwards. Only a 2xx answer counts: a 403 may come from a proxy
 * or another service that never looked at the token, and a redirect is never followed (a token sent on to
 * another host is a token given away). A URL a tenant's admin typed is connected to only at an address
 * it may reach (address.ts), checked as the connection is made.
 */
export async function checkServiceToken(
  o: ClientOptionsForCheck,
  token: string,
  budgetMs: number,
): Promise<TokenCheck> {
  const transport = new Transport({
    baseUrl: o.baseUrl,
    token,
    connectTimeoutMs: Math.min(o.connectTimeoutMs ?? CLIENT_DEFAULTS.connectTimeoutMs, budgetMs),
    requestTimeoutMs: budgetMs,
    maxAttempts: 1,
    maxRetryTimeMs: 0,
    retryBaseDelayMs: 0,
    maxConnections: 1,
    maxQueued: 0,
    maxQueueWaitMs: 0,
    ...(o.typed ? { lookup: vettedLookup(addressAllowlist(o.typed.allowed)) } : {}),
  });
  try {
    const reply = await transport.send({
      method: 'GET',
      path: `/api/1.3/accounts/${encodeURIComponent(o.accountId)}/workspace`,
      query: { limit: '1' },
      what: 'the workspaces of the account',
    });
    return { ok: true, ...identityIn(reply.body) };
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    if (e.status === 401) return { ok: false, reason: 'refused' };
    if (e.status !== undefined && e.status >= 300 && e.status < 500 && e.status !== 408 && e.status !== 429)
      return { ok: false, reason: 'not-read', status: e.status, message: e.userMessage };
    return { ok: false, reason: 'unanswered', message: e.userMessage };
  } finally {
    await transport.close();
  }
}

const ROLES = ['Owner', 'Manager', 'User'];

/** The role and the user, when the list's answer names them (`role`, `user` or `user.name`/`user.role`). */
function identityIn(body: unknown): { role?: string; serviceUser?: string } {
  if (!body || typeof body !== 'object') return {};
  const b = body as Record<string, unknown>;
  const user = b.user && typeof b.user === 'object' ? (b.user as Record<string, unknown>) : undefined;
  const role = [b.role, user?.role].find((r): r is string => typeof r === 'string' && ROLES.includes(r));
  const name = [typeof b.user === 'string' ? b.user : undefined, user?.name].find(
    (n): n is string => typeof n === 'string' && /^[\w .@-]{1,80}$/.test(n),
  );
  return { ...(role ? { role } : {}), ...(name ? { serviceUser: name } : {}) };
}
