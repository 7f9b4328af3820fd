import type { PersonToken, Store } from '../../store/index.js';
import { keyIdOf, keyring, rowBinding, type SecretKeys, seal, unseal } from './keys.js';
import type { Connection, IdentityVault, PersonRef } from './vault.js';

export type VaultStore = Pick<
  Store,
  'getPersonToken' | 'savePersonToken' | 'deletePersonToken' | 'resealPersonToken'
>;

/**
 * The vault over the store: tokens encrypted with the current key before they are written, decrypted
 * with whichever known key they are under, and moved to the current key when read under an old one.
 * A row under a key the bot no longer has counts as not connected: the person connects again.
 */
export function createStoreVault(store: VaultStore, keys: SecretKeys): IdentityVault {
  const ring = keyring(keys);
  const currentId = keyIdOf(keys.current);

  const readable = async (p: PersonRef): Promise<PersonToken | undefined> => {
    const row = await store.getPersonToken(p.teamId, p.userId);
    return row && ring.has(row.sealed.keyId) ? row : undefined;
  };

  return {
    async tokenOf(p) {
      const row = await readable(p);
      if (!row) return undefined;
      const binding = rowBinding(p.teamId, p.userId);
      const token = unseal(ring.get(row.sealed.keyId)!, row.sealed, binding);
      if (token !== undefined && row.sealed.keyId !== currentId) {
        await store.resealPersonToken(
          { ...p, fromKeyId: row.sealed.keyId, connectedAt: row.connectedAt },
          seal(keys.current, token, binding),
        );
      }
      return token;
    },
    async connection(p) {
      const row = await readable(p);
      return row ? connectionOf(row) : undefined;
    },
    async save(p, token, c) {
      await store.savePersonToken({
        teamId: p.teamId,
        userId: p.userId,
        sealed: seal(keys.current, token, rowBinding(p.teamId, p.userId)),
        accountId: c.accountId,
        role: c.role ?? null,
        serviceUser: c.serviceUser ?? null,
        connectedAt: c.since,
      });
    },
    forget: (p) => store.deletePersonToken(p.teamId, p.userId),
  };
}

function connectionOf(row: PersonToken): Connection {
  return {
    since: row.connectedAt,
    accountId: row.accountId,
    ...(row.role ? { role: row.role } : {}),
    ...(row.serviceUser ? { serviceUser: row.serviceUser } : {}),
  };
}

/**
 * Without a key nobody can connect: nobody has a token, and forgetting deletes what an earlier run with
 * a key may have left (it cannot be read anyway).
 */
export function createLockedVault(store: Pick<Store, 'deletePersonToken'>): IdentityVault {
  return {
    tokenOf: async () => undefined,
    connection: async () => undefined,
    save: async () => {
      throw new Error('people cannot connect: TSAI_SECRET_KEY is not set');
    },
    forget: (p) => store.deletePersonToken(p.teamId, p.userId),
  };
}
