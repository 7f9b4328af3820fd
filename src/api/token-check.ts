import { CLIENT_DEFAULTS, type ClientOptionsForCheck } from './client.js';
import { ServiceError } from './errors.js';
import { Transport } from './transport.js';

/** What one cheap authenticated read with a token said of it. Never carries the token. */
export type TokenCheck =
  /**
   * The service took the token; `role` and `serviceUser` when its answer said so. `listed`: it answered
   * the list itself (a 403, 404 or 405 takes the token too, but says nothing of the account).
   */
  | { ok: true; role?: string; serviceUser?: string; listed?: boolean; status?: number }
  /** 401: the token is invalid or expired. */
  | { ok: false; reason: 'refused' }
  /** No answer that tells (network, timeout, 5xx, 429): nothing is known of the token. */
  | { ok: false; reason: 'unanswered'; message: string };

/**
 * Lists at most one workspace with `token`, in one attempt within `budgetMs` (the check runs inside a
 * Slack acknowledgement), on a connection of its own that is closed afterwards.
 *
 * The service authenticates before it routes, so a 403 (the role may not list), 404 or 405 (no such list
 * on this service) still says the token was taken; only a 401 says it was not.
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
  });
  try {
    const reply = await transport.send({
      method: 'GET',
      path: `/api/1.3/accounts/${encodeURIComponent(o.accountId)}/workspace`,
      query: { limit: '1' },
      what: 'the workspaces of the account',
    });
    return { ok: true, listed: true, ...identityIn(reply.body) };
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    if (e.status === 401) return { ok: false, reason: 'refused' };
    if (e.status === 403 || e.status === 404 || e.status === 405) return { ok: true, status: e.status };
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
