import type { TokenCheck } from '../../api/index.js';
import type { AuditLog } from '../audit.js';
import type { Connection, IdentityVault, PersonRef } from './vault.js';

/** A person as a surface knows them: who, and where they asked from (for the audit line). */
export interface Asker extends PersonRef {
  channelId?: string;
}

/** Whom a person's service calls act as. */
export type Standing =
  | { kind: 'connected'; connection: Connection }
  /** Not connected: the bot's shared token acts for them. */
  | { kind: 'shared' }
  /** Not connected, and nothing acts for them (TSAI_REQUIRE_USER_TOKEN). */
  | { kind: 'none' };

export type ConnectOutcome =
  | { ok: true; connection: Connection }
  /** Nothing was saved; `problem` says why, for the form's field. */
  | { ok: false; problem: string };

export interface ConnectionsOptions {
  vault: IdentityVault;
  /** False without TSAI_SECRET_KEY: tokens cannot be kept. */
  canConnect: boolean;
  /** Everyone must act with their own token. */
  requireUserToken: boolean;
  /** The service account tokens are checked against. */
  accountId: string;
  /** One cheap read with the token (the service client's `checkServiceToken`). */
  checkToken(token: string): Promise<TokenCheck>;
  /**
   * "Add to Slack": the service account of the person's tenant, whose tokens are checked against it
   * instead of `accountId`; undefined while the tenant has connected none.
   */
  tenantAccount?(
    teamId: string,
  ): Promise<{ accountId: string; checkToken(token: string): Promise<TokenCheck> } | undefined>;
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
    if (connection) return { kind: 'connected', connection };
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
    const tenant = this.o.tenantAccount ? await this.o.tenantAccount(p.teamId) : undefined;
    if (this.o.tenantAccount && !tenant)
      return {
        ok: false,
        problem:
          'This Slack workspace is not connected to a service account yet, so there is nothing to connect your token to. One of its admins connects it first with `/tsai setup`.',
      };
    const accountId = tenant?.accountId ?? this.o.accountId;
    const check = await (tenant ? tenant.checkToken(token) : this.o.checkToken(token));
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
    if (!check.ok)
      return {
        ok: false,
        problem: `The token could not be checked, so it was not saved: ${check.message} Send the form again.`,
      };
    const connection: Connection = {
      since: this.o.now().getTime(),
      accountId,
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
    account = this.o.accountId,
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
