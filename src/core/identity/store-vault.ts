import type { PersonToken, Store, StoredPersonToken } from '../../store/index.js';
import {
  keyIdOf,
  keyring,
  type RowFacts,
  rowBinding,
  type SecretKeys,
  seal,
  sealedBinding,
  unseal,
} from './keys.js';
import { boundTo, type Connection, type IdentityVault, type PersonRef } from './vault.js';

export type VaultStore = Pick<
  Store,
  | 'getPersonToken'
  | 'latestPersonTokenVersion'
  | 'savePersonToken'
  | 'deletePersonToken'
  | 'resealPersonToken'
>;

/** How many times a save takes the next version when another write of the same person took it first. */
const SAVE_TRIES = 3;

/**
 * The vault over the store: tokens encrypted with the current key before they are written, bound to
 * everything their row says (`sealedBinding`), decrypted with whichever known key they are under. A row
 * counts only once it decrypts: what whoami and the Home say comes from a verified row, never from its
 * columns alone. A row under a key the bot no longer has, one whose facts were changed beside it, and an
 * older copy put back (its version below the person's mark) count as not connected: the person connects
 * again. A row under an old key or from before versions is sealed again, with the current key and the
 * next version, when it is read.
 */
export function createStoreVault(store: VaultStore, keys: SecretKeys): IdentityVault {
  const ring = keyring(keys);
  const currentId = keyIdOf(keys.current);

  const verified = async (p: PersonRef): Promise<{ row: StoredPersonToken; token: string } | undefined> => {
    const row = await store.getPersonToken(p.teamId, p.userId);
    if (!row || row.version !== row.latestVersion) return undefined;
    const key = ring.get(row.sealed.keyId);
    if (!key) return undefined;
    const token = unseal(
      key,
      row.sealed,
      row.version === 0 ? rowBinding(p.teamId, p.userId) : sealedBinding(row),
    );
    if (token === undefined) return undefined;
    if (row.version === 0 || row.sealed.keyId !== currentId) {
      const facts: RowFacts = { ...factsOf(row), version: row.version + 1 };
      await store.resealPersonToken(
        { ...p, fromVersion: row.version, version: facts.version },
        seal(keys.current, token, sealedBinding(facts)),
      );
    }
    return { row, token };
  };

  return {
    async tokenOf(p) {
      return (await verified(p))?.token;
    },
    async tokenFor(p, place) {
      const read = await verified(p);
      if (!read) return undefined;
      const connection = connectionOf(read.row);
      return boundTo(connection, place)
        ? { kind: 'token', token: read.token }
        : { kind: 'set-aside', connection };
    },
    async connection(p) {
      const read = await verified(p);
      return read ? connectionOf(read.row) : undefined;
    },
    async save(p, token, c) {
      for (let attempt = 0; attempt < SAVE_TRIES; attempt++) {
        const facts: RowFacts = {
          teamId: p.teamId,
          userId: p.userId,
          accountId: c.accountId,
          serviceUrl: c.serviceUrl ?? null,
          role: c.role ?? null,
          serviceUser: c.serviceUser ?? null,
          connectedAt: c.since,
          version: (await store.latestPersonTokenVersion(p.teamId, p.userId)) + 1,
        };
        const row: PersonToken = { ...facts, sealed: seal(keys.current, token, sealedBinding(facts)) };
        if (await store.savePersonToken(row)) return;
      }
      throw new Error('the token could not be kept: other connections of the same person kept writing');
    },
    forget: (p) => store.deletePersonToken(p.teamId, p.userId),
  };
}

function factsOf(row: StoredPersonToken): Omit<RowFacts, 'version'> {
  return {
    teamId: row.teamId,
    userId: row.userId,
    accountId: row.accountId,
    serviceUrl: row.serviceUrl ?? null,
    role: row.role,
    serviceUser: row.serviceUser,
    connectedAt: row.connectedAt,
  };
}

function connectionOf(row: PersonToken): Connection {
  return {
    since: row.connectedAt,
    accountId: row.accountId,
    ...(row.serviceUrl ? { serviceUrl: row.serviceUrl } : {}),
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
    tokenFor: async () => undefined,
    connection: async () => undefined,
    save: async () => {
      throw new Error('people cannot connect: TSAI_SECRET_KEY is not set');
    },
    forget: (p) => store.deletePersonToken(p.teamId, p.userId),
  };
}
