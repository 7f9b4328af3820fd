import type { Connection, IdentityVault, PersonRef } from '../../src/core/identity/vault.js';

/** An IdentityVault in memory, for tests: what a person connected with, and nothing encrypted. */
export class MemoryVault implements IdentityVault {
  private readonly kept = new Map<string, { token: string; connection: Connection }>();

  async tokenOf(p: PersonRef): Promise<string | undefined> {
    return this.kept.get(key(p))?.token;
  }

  async connection(p: PersonRef): Promise<Connection | undefined> {
    return this.kept.get(key(p))?.connection;
  }

  async save(p: PersonRef, token: string, connection: Connection): Promise<void> {
    this.kept.set(key(p), { token, connection });
  }

  async forget(p: PersonRef): Promise<boolean> {
    return this.kept.delete(key(p));
  }

  /** Connects a person as the Connect form would after checking the token. */
  connect(p: PersonRef, token: string, since: number): Promise<void> {
    return this.save(p, token, { since, accountId: 'test-account' });
  }
}

function key(p: PersonRef): string {
  return `${p.teamId}:${p.userId}`;
}
