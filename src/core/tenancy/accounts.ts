import type { ServiceAccountClients, ServiceClient, TokenCheck } from '../../api/index.js';
import type { AuditLog } from '../audit.js';
import { TOKEN_SHAPE } from '../identity/connect.js';
import type { TenantVault } from './vault.js';

/** Where a tenant's service account is: what its admins typed into the setup form. */
export interface AccountPlace {
  baseUrl: string;
  accountId: string;
}

/** A tenant's service account as the bot keeps it, without its token. */
export interface ServiceAccount extends AccountPlace {
  /** Who connected it, and when (ms). */
  connectedBy: string;
  connectedAt: number;
  /** The token's role and user, when the service said so. */
  role?: string;
  serviceUser?: string;
}

/** The setup form's fields, each of which a problem may be under. */
export type SetupField = 'baseUrl' | 'accountId' | 'token';

export type SetupOutcome =
  | { ok: true; account: ServiceAccount }
  /** Nothing was kept: what is wrong, under the field it concerns. */
  | { ok: false; problems: Partial<Record<SetupField, string>> };

/** Who asks, from where. */
export interface SetupAsker {
  /** The tenant (slack/tenant.ts: the workspace, or the organisation of an org-wide install). */
  teamId: string;
  userId: string;
  channelId?: string;
}

export interface TenantAccountsOptions {
  vault: TenantVault;
  audit: AuditLog;
  now: () => Date;
  /** Whether this person is one of the tenant's admins, who alone connect its service account. */
  isAdmin(tenant: string, userId: string): Promise<boolean>;
  /** One cheap read with the token against that account, within the form's acknowledgement. */
  checkToken(place: AccountPlace, token: string): Promise<TokenCheck>;
  /**
   * Each account's client, whose calls carry its token, over connections shared by every tenant on the
   * same service URL (with the bot's bounds: timeouts, queue).
   */
  clients: ServiceAccountClients;
  /** How many tenants' clients are held at once (default 10,000, as installations): the least recently used go. */
  capacity?: number;
}

const KIND = 'service-account';

/** Whom to ask when someone who is not an admin tries. */
export const SETUP_ADMINS =
  'Only the admins of this Slack workspace (or organisation) and the person who installed the app connect it to the service.';

/**
 * Each tenant's own service account ("Add to Slack"): connected by its admins, checked with the service
 * before it is kept (as a person's token is, core/identity/connect.ts), kept encrypted in the tenants'
 * vault, audited without its token. Every service call of the tenant is made through `serviceOf`, so no
 * operation, schedule, step or followed flow of one tenant can reach another's account.
 *
 * Each call reads the account again (one row, decrypted), so a reconnection on any thread or replica is
 * used from the next call on; the client is kept per tenant and version, made when first needed, and the
 * least recently used dropped past `capacity`. A client holds no connection of its own: every tenant on one
 * service URL shares one pool, so many tenants cost no socket each.
 */
export class TenantAccounts {
  private readonly clients = new Map<string, { version: number; client: ServiceClient }>();

  constructor(private readonly o: TenantAccountsOptions) {}

  /** The tenant's account, or undefined while none is connected (or it cannot be read). */
  async account(tenant: string): Promise<ServiceAccount | undefined> {
    const opened = await this.o.vault.open(tenant, KIND);
    return opened ? accountOf(opened.facts) : undefined;
  }

  mayConnect(tenant: string, userId: string): Promise<boolean> {
    return this.o.isAdmin(tenant, userId);
  }

  /** The setup form sent: each field checked, then the token with the service, then kept. */
  async connect(asker: SetupAsker, form: AccountPlace & { token: string }): Promise<SetupOutcome> {
    if (!this.o.vault.canKeep)
      return {
        ok: false,
        problems: { token: 'The bot cannot keep secrets: its operator must set TSAI_SECRET_KEY.' },
      };
    if (!(await this.o.isAdmin(asker.teamId, asker.userId)))
      return { ok: false, problems: { token: SETUP_ADMINS } };
    const place = { baseUrl: form.baseUrl.trim().replace(/\/+$/, ''), accountId: form.accountId.trim() };
    const token = form.token.trim().replace(/^Bearer\s+/i, '');
    const problems = formProblems(place, token);
    if (Object.keys(problems).length) return { ok: false, problems };
    const check = await this.o.checkToken(place, token);
    if (!check.ok) {
      const refused = check.reason === 'refused';
      if (refused) await this.audit(asker, place, 'refused', 'the service refused the token');
      return {
        ok: false,
        problems: refused
          ? {
              token:
                "The service refused this token (invalid or expired), so nothing was kept. Make a new one in the service's user interface.",
            }
          : {
              baseUrl: `The service could not be reached to check the token, so nothing was kept: ${check.message} Check the URL, then send the form again.`,
            },
      };
    }
    if (check.status === 404)
      return {
        ok: false,
        problems: {
          accountId: `The service at this URL knows no account ${place.accountId}: check the account ID (and the URL).`,
        },
      };
    const account: ServiceAccount = {
      ...place,
      connectedBy: asker.userId,
      connectedAt: this.o.now().getTime(),
      ...(check.role ? { role: check.role } : {}),
      ...(check.serviceUser ? { serviceUser: check.serviceUser } : {}),
    };
    await this.o.vault.keep(asker.teamId, KIND, { ...account }, token, account.connectedAt);
    this.drop(asker.teamId);
    await this.audit(asker, place, 'ok');
    return { ok: true, account };
  }

  /** The client every service call of this tenant goes through; undefined while none is connected. */
  async serviceOf(tenant: string): Promise<ServiceClient | undefined> {
    const opened = await this.o.vault.open(tenant, KIND);
    const account = opened && accountOf(opened.facts);
    if (!opened || !account) {
      this.drop(tenant);
      return undefined;
    }
    const held = this.clients.get(tenant);
    if (held?.version === opened.version) {
      this.clients.delete(tenant);
      this.clients.set(tenant, held);
      return held.client;
    }
    this.drop(tenant);
    const client = this.o.clients.of({
      baseUrl: account.baseUrl,
      accountId: account.accountId,
      token: opened.secret,
    });
    this.clients.set(tenant, { version: opened.version, client });
    while (this.clients.size > (this.o.capacity ?? 10_000)) {
      const oldest = this.clients.keys().next().value;
      if (oldest === undefined) break;
      this.drop(oldest);
    }
    return client;
  }

  /** Closes every client (the bot stops). */
  async close(): Promise<void> {
    const all = [...this.clients.values()];
    this.clients.clear();
    await Promise.allSettled([...all.map((c) => c.client.close()), this.o.clients.close()]);
  }

  private drop(tenant: string): void {
    const held = this.clients.get(tenant);
    this.clients.delete(tenant);
    if (held) void held.client.close().catch(() => undefined);
  }

  private audit(
    a: SetupAsker,
    place: AccountPlace,
    outcome: 'ok' | 'refused',
    error?: string,
  ): Promise<void> {
    return this.o.audit.writeSurely({
      at: this.o.now().getTime(),
      userId: a.userId,
      teamId: a.teamId,
      ...(a.channelId ? { channelId: a.channelId } : {}),
      operation: 'tenant.connect',
      params: { url: place.baseUrl, account: place.accountId },
      outcome,
      ...(error ? { error } : {}),
    });
  }
}

const ACCOUNT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** What is wrong with the form's fields before the service is asked anything. */
function formProblems(place: AccountPlace, token: string): Partial<Record<SetupField, string>> {
  const problems: Partial<Record<SetupField, string>> = {};
  let url: URL | undefined;
  try {
    url = new URL(place.baseUrl);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
    problems.baseUrl = "That is not the service's address: give its URL, e.g. https://tsai.example.com";
  else if (url.username || url.password)
    problems.baseUrl = 'Leave the user and password out of the URL: the token goes in its own field.';
  if (!ACCOUNT_ID.test(place.accountId))
    problems.accountId =
      "That is not an account ID: letters, digits, - or _, as the service's user interface shows it, e.g. 1000000000000000001";
  if (!TOKEN_SHAPE.test(token))
    problems.token =
      "That is not a service token: paste it as the service's user interface shows it (one line, no spaces).";
  return problems;
}

function accountOf(f: Record<string, unknown>): ServiceAccount | undefined {
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const baseUrl = str(f.baseUrl);
  const accountId = str(f.accountId);
  const connectedBy = str(f.connectedBy);
  if (!baseUrl || !accountId || !connectedBy || typeof f.connectedAt !== 'number') return undefined;
  return {
    baseUrl,
    accountId,
    connectedBy,
    connectedAt: f.connectedAt,
    ...(str(f.role) ? { role: str(f.role)! } : {}),
    ...(str(f.serviceUser) ? { serviceUser: str(f.serviceUser)! } : {}),
  };
}
