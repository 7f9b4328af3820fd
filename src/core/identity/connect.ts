import type { TokenCheck } from '../../api/index.js';
import type { AuditLog } from '../audit.js';
import { boundTo, type Connection, type IdentityVault, type PersonRef, type ServicePlace } from './vault.js';

/** A person as a surface knows them: who, and where they asked from (for the audit line). */
export interface Asker extends PersonRef {
  channelId?: string;
}

/** Whom a person's service calls act as. */
export type Standing =
  | { kind: 'connected'; connection: Connection }
  /** Connected, but for another service account or URL than the workspace's now: never sent to it. */
  | { kind: 'set-aside'; connection: Connection }
  /** Not connected: the bot's shared token acts for them. */
  | { kind: 'shared' }
  /** Not connected, and nothing acts for them (TSAI_REQUIRE_USER_TOKEN). */
  | { kind: 'none' };

export type ConnectOutcome =
  | { ok: true; connection: Connection }
  /** Nothing was saved; `problem` says why, for the form's field. */
  | { ok: false; problem: string };

/** The service account a person's tokens are checked against and sent to, and the one read that checks one. */
export interface PersonService {
  place: ServicePlace;
  checkToken(token: string): Promise<TokenCheck>;
}

export interface ConnectionsOptions {
  vault: IdentityVault;
  /** False without TSAI_SECRET_KEY: tokens cannot be kept. */
  canConnect: boolean;
  /** Everyone must act with their own token. */
  requireUserToken: boolean;
  /**
   * The service account of a person's tenant: the bot's one, or ("Add to Slack") the one its admins
   * connected; undefined while the tenant has connected none.
   */
  serviceOf(teamId: string): Promise<PersonService | undefined>;
  audit: AuditLog;
  now: () => Date;
}

export const CONNECT_UNAVAILABLE =
  "Connecting your own service token is not available: the bot's operator must set TSAI_SECRET_KEY first (docs/security.md).";

/** What a service token looks like: printable ASCII without spaces (it goes in an HTTP header). */
export const TOKEN_SHAPE = /^[\x21-\x7e]{8,4096}$/;

/**
 * Connecting a person's own service token: checked with the service before it is kept, kept only in the
 * vault, audited without it. Disconnecting deletes it. The token never appears in what this returns.
 */
export class Connections {
  constructor(private readonly o: ConnectionsOptions) {}

  get canConnect(): boolean {
    return this.o.canConnect;
  }

  async standing(p: PersonRef): Promise<Standing> {
    const connection = await this.o.vault.connection(p);
    if (connection) {
      const service = await this.o.serviceOf(p.teamId);
      return service && !boundTo(connection, service.place)
        ? { kind: 'set-aside', connection }
        : { kind: 'connected', connection };
    }
    return this.o.requireUserToken ? { kind: 'none' } : { kind: 'shared' };
  }

  async connect(p: Asker, pasted: string): Promise<ConnectOutcome> {
    if (!this.o.canConnect) return { ok: false, problem: CONNECT_UNAVAILABLE };
    const token = pasted.trim().replace(/^Bearer\s+/i, '');
    if (!TOKEN_SHAPE.test(token))
      return {
        ok: false,
        problem:
          "That is not a service token: paste the token as the service's user interface shows it (one line, no spaces).",
      };
    const service = await this.o.serviceOf(p.teamId);
    if (!service)
      return {
        ok: false,
        problem:
          'This Slack workspace is not connected to a service account yet, so there is nothing to connect your token to. One of its admins connects it first with `/tsai setup`.',
      };
    const { accountId, baseUrl } = service.place;
    const check = await service.checkToken(token);
    if (!check.ok && check.reason === 'refused') {
      await this.audit(
        p,
        'identity.connect',
        'refused',
        'the service refused the token (invalid or expired)',
        accountId,
      );
      return {
        ok: false,
        problem:
          "The service refused this token (invalid or expired), so it was not saved. Make a new one in the service's user interface and paste it here.",
      };
    }
    if (!check.ok && check.reason === 'not-read') {
      await this.audit(
        p,
        'identity.connect',
        'refused',
        `the service did not answer the check (HTTP ${check.status})`,
        accountId,
      );
      return { ok: false, problem: notReadProblem(check.status, check.message) };
    }
    if (!check.ok)
      return {
        ok: false,
        problem: `The token could not be checked, so it was not saved: ${check.message} Send the form again.`,
      };
    const connection: Connection = {
      since: this.o.now().getTime(),
      accountId,
      serviceUrl: baseUrl,
      ...(check.role ? { role: check.role } : {}),
      ...(check.serviceUser ? { serviceUser: check.serviceUser } : {}),
    };
    await this.o.vault.save(p, token, connection);
    await this.audit(p, 'identity.connect', 'ok', undefined, accountId);
    return { ok: true, connection };
  }

  /** True when there was a token to delete. */
  async disconnect(p: Asker): Promise<boolean> {
    const had = await this.o.vault.forget(p);
    if (had) await this.audit(p, 'identity.disconnect', 'ok');
    return had;
  }

  private audit(
    p: Asker,
    operation: string,
    outcome: 'ok' | 'refused',
    error?: string,
    account?: string,
  ): Promise<void> {
    return this.o.audit.writeSurely({
      at: this.o.now().getTime(),
      userId: p.userId,
      teamId: p.teamId,
      ...(p.channelId ? { channelId: p.channelId } : {}),
      operation,
      params: account ? { account } : {},
      outcome,
      ...(error ? { error } : {}),
    });
  }
}

/**
 * What a token the service answered without reading the account (a 403, a 404, a redirect) means, for the
 * form's field: only the read itself says that a token works.
 */
export function notReadProblem(status: number, said: string): string {
  if (status === 403)
    return `The service did not let this token read the account (HTTP 403), so it was not saved: ${said} A token whose role may read the account's workspaces is needed.`;
  if (status === 404)
    return `The service at this URL knows no such account (HTTP 404), so nothing was saved: ${said}`;
  if (status >= 300 && status < 400)
    return `The service's address answered with a redirect (HTTP ${status}), which the bot does not follow, so nothing was saved: give the address the service is at.`;
  return `The service did not answer the check (HTTP ${status}), so nothing was saved: ${said}`;
}
