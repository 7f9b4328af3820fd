import type { UrlVerdict } from '../../api/address.js';
import type { ServiceAccountClients, ServiceClient, TokenCheck } from '../../api/index.js';
import type { Store } from '../../store/index.js';
import type { AuditLog } from '../audit.js';
import type { TenantInstall } from '../gate/index.js';
import { notReadProblem, TOKEN_SHAPE } from '../identity/connect.js';
import { boundTo, type ServicePlace, serviceUrlKey } from '../identity/vault.js';
import type { ServiceAccountOf } from '../operations/identity.js';
import type { Actor } from '../operations/operation.js';
import type { OpFailure } from '../outcome.js';
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

/** What a change of a tenant's account changed, for the audit and for whom the workspace tells. */
export interface AccountChange {
  /** The account it worked with before; absent: none. */
  previous?: ServiceAccount;
  /** Another URL or account than before: people's tokens checked against the old one are set aside. */
  moved: boolean;
  /** Those whose own tokens are set aside now (never sent to the new account): each is told, once. */
  setAside: string[];
}

export type SetupOutcome =
  | { ok: true; account: ServiceAccount; change: AccountChange }
  /** Nothing was kept: what is wrong, under the field it concerns. */
  | { ok: false; problems: Partial<Record<SetupField, string>> };

/** Who asks, from where, and on which surface of the gate (core/gate/surfaces.ts). */
export interface SetupAsker {
  /** The tenant (slack/tenant.ts: the workspace, or the organisation of an org-wide install). */
  teamId: string;
  userId: string;
  channelId?: string;
  surface: 'setup' | 'setup-form';
}

export interface TenantAccountsOptions {
  vault: TenantVault;
  audit: AuditLog;
  now: () => Date;
  /** The gate: whether the person may change the tenant's account now (its admins, as Slack says). */
  admits(asker: SetupAsker, install: TenantInstall): Promise<OpFailure | null>;
  /** The installation the tenant is (org-wide or not, who installed it); undefined when it is not installed. */
  installOf(tenant: string): Promise<Omit<TenantInstall, 'connected'> | undefined>;
  /** A typed service URL checked before anything is sent to it (api/address.ts `vetServiceUrl`). */
  vetUrl(url: string): Promise<UrlVerdict>;
  /** One cheap read with the token against that account, within the form's acknowledgement. */
  checkToken(place: AccountPlace, token: string): Promise<TokenCheck>;
  /**
   * Each account's client, whose calls carry its token, over connections shared by every tenant on the
   * same service URL (with the bot's bounds: timeouts, queue).
   */
  clients: ServiceAccountClients;
  /** The tokens people of a tenant connected: whose are set aside when its account moves. */
  people: Pick<Store, 'listTeamPersonTokens'>;
  /** How many tenants' clients are held at once (default 10,000, as installations): the least recently used go. */
  capacity?: number;
}

const KIND = 'service-account';

/** The setup surfaces' asker as the gate sees every actor. */
export function setupActor(a: SetupAsker): Omit<Actor, 'timeZone'> {
  return {
    userId: a.userId,
    teamId: a.teamId,
    channelId: a.channelId ?? '',
    asked: '/tsai setup',
    via: 'command',
    surface: a.surface,
  };
}

/** Where an account is, for people's tokens: since when the tenant works with it. */
export const placeOf = (a: ServiceAccount): ServicePlace => ({
  baseUrl: a.baseUrl,
  accountId: a.accountId,
  since: a.connectedAt,
});

/**
 * Each tenant's own service account ("Add to Slack"): changed only by its admins (the gate's admin
 * guarantee, whichever surface asks), its URL checked as untrusted input (api/address.ts), its token
 * checked with the service before it is kept (only an answer that reads the account counts), kept
 * encrypted in the tenants' vault and audited without its token: who changed it, when, from what. Every
 * service call of the tenant is made through `serviceOf`, so no operation, schedule, step or followed flow
 * of one tenant can reach another's account. When the account moves (another URL or account), the
 * tokens its people connected stay bound to the old one (core/identity/vault.ts `boundTo`): set aside,
 * never sent to the new address.
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

  /** Why this person may not change the tenant's account now; null: they may (the gate decides). */
  async refusal(asker: SetupAsker): Promise<OpFailure | null> {
    const install = await this.o.installOf(asker.teamId);
    if (!install)
      return { ok: false, message: 'Nothing was changed: the app is not installed here (any more).' };
    const connected = (await this.account(asker.teamId)) !== undefined;
    return this.o.admits(asker, { ...install, connected });
  }

  /**
   * Before the form opens (`/tsai setup`, its button): the gate's refusal, audited (`tenant.setup`), or
   * null. Sending the form asks the gate again.
   */
  async mayOpen(asker: SetupAsker): Promise<OpFailure | null> {
    const refused = await this.refusal(asker);
    if (refused) await this.audit(asker, 'tenant.setup', {}, 'refused', refused.message);
    return refused;
  }

  /** The setup form sent: who sends it, each field, the URL, then the token with the service, then kept. */
  async connect(asker: SetupAsker, form: AccountPlace & { token: string }): Promise<SetupOutcome> {
    if (!this.o.vault.canKeep)
      return {
        ok: false,
        problems: { token: 'The bot cannot keep secrets: its operator must set TSAI_SECRET_KEY.' },
      };
    const place = { baseUrl: form.baseUrl.trim().replace(/\/+$/, ''), accountId: form.accountId.trim() };
    const refused = await this.refusal(asker);
    if (refused) {
      await this.audit(asker, 'tenant.connect', this.connected(place), 'refused', refused.message);
      return { ok: false, problems: { token: refused.message } };
    }
    const token = form.token.trim().replace(/^Bearer\s+/i, '');
    const problems = formProblems(place, token);
    if (!problems.baseUrl) {
      const vetted = await this.o.vetUrl(place.baseUrl);
      if (!vetted.ok) problems.baseUrl = vetted.problem;
    }
    if (Object.keys(problems).length) {
      if (problems.baseUrl)
        await this.audit(asker, 'tenant.connect', this.connected(place), 'refused', problems.baseUrl);
      return { ok: false, problems };
    }
    const check = await this.o.checkToken(place, token);
    if (!check.ok) return this.notWorking(asker, place, check);
    const previous = await this.account(asker.teamId);
    const account: ServiceAccount = {
      ...place,
      connectedBy: asker.userId,
      connectedAt: this.o.now().getTime(),
      ...(check.role ? { role: check.role } : {}),
      ...(check.serviceUser ? { serviceUser: check.serviceUser } : {}),
    };
    await this.o.vault.keep(asker.teamId, KIND, { ...account }, token, account.connectedAt);
    this.drop(asker.teamId);
    const change = await this.changeOf(asker.teamId, previous, account);
    await this.audit(asker, 'tenant.connect', this.connected(place, change), 'ok');
    return { ok: true, account, change };
  }

  /** Whose tokens the account's move sets aside: those bound to another account or URL. */
  private async changeOf(
    tenant: string,
    previous: ServiceAccount | undefined,
    account: ServiceAccount,
  ): Promise<AccountChange> {
    const moved =
      previous !== undefined &&
      (serviceUrlKey(previous.baseUrl) !== serviceUrlKey(account.baseUrl) ||
        previous.accountId !== account.accountId);
    const setAside = moved
      ? (await this.o.people.listTeamPersonTokens(tenant))
          .filter((row) => row.version === row.latestVersion)
          .filter(
            (row) =>
              !boundTo(
                {
                  since: row.connectedAt,
                  accountId: row.accountId,
                  ...(row.serviceUrl ? { serviceUrl: row.serviceUrl } : {}),
                },
                placeOf(account),
              ),
          )
          .map((row) => row.userId)
      : [];
    return { ...(previous ? { previous } : {}), moved, setAside };
  }

  /** The token did not read the account: what the form says under which field, audited when the service answered. */
  private async notWorking(
    asker: SetupAsker,
    place: AccountPlace,
    check: Exclude<TokenCheck, { ok: true }>,
  ): Promise<SetupOutcome> {
    if (check.reason === 'unanswered')
      return {
        ok: false,
        problems: {
          baseUrl: `The service could not be reached to check the token, so nothing was kept: ${check.message} Check the URL, then send the form again.`,
        },
      };
    if (check.reason === 'refused') {
      await this.audit(
        asker,
        'tenant.connect',
        this.connected(place),
        'refused',
        'the service refused the token',
      );
      return {
        ok: false,
        problems: {
          token:
            "The service refused this token (invalid or expired), so nothing was kept. Make a new one in the service's user interface.",
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
    // Not a typo: what answered did not read the account with this token (a 403, a redirect).
    await this.audit(
      asker,
      'tenant.connect',
      this.connected(place),
      'refused',
      `the service did not answer the check (HTTP ${check.status})`,
    );
    const problem = notReadProblem(check.status, check.message);
    return { ok: false, problems: check.status === 403 ? { token: problem } : { baseUrl: problem } };
  }

  /** The client every service call of this tenant goes through, and where it is; undefined while none is connected. */
  async serviceOf(tenant: string): Promise<ServiceAccountOf | undefined> {
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
      return { client: held.client, place: placeOf(account) };
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
    return { client, place: placeOf(account) };
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

  /** A change of the account (`tenant.connect`), or a refusal to open its form (`tenant.setup`). */
  private audit(
    a: SetupAsker,
    operation: 'tenant.connect' | 'tenant.setup',
    params: Record<string, unknown>,
    outcome: 'ok' | 'refused',
    error?: string,
  ): Promise<void> {
    return this.o.audit.writeSurely({
      at: this.o.now().getTime(),
      userId: a.userId,
      teamId: a.teamId,
      ...(a.channelId ? { channelId: a.channelId } : {}),
      operation,
      params: { ...params, via: a.surface },
      outcome,
      ...(error ? { error } : {}),
    });
  }

  /** What a `tenant.connect` line says of the account given, and of the one it replaced. */
  private connected(place: AccountPlace, change?: AccountChange): Record<string, unknown> {
    return {
      url: place.baseUrl,
      account: place.accountId,
      ...(change?.previous
        ? { previous: { url: change.previous.baseUrl, account: change.previous.accountId } }
        : {}),
      ...(change?.moved ? { peopleTokensSetAside: change.setAside.length } : {}),
    };
  }
}

const ACCOUNT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** What is wrong with the account and token fields before anything is asked (the URL: `vetUrl`). */
function formProblems(place: AccountPlace, token: string): Partial<Record<SetupField, string>> {
  const problems: Partial<Record<SetupField, string>> = {};
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
