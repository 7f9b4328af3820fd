import type { Store, StoredTenantSecret, TenantSecretKind } from '../../store/index.js';
import { keyIdOf, keyring, type SecretKeys, seal, tenantBinding, unseal } from '../identity/keys.js';

export type TenantVaultStore = Pick<
  Store,
  | 'getTenantSecret'
  | 'latestTenantSecretVersion'
  | 'saveTenantSecret'
  | 'deleteTenantSecret'
  | 'resealTenantSecret'
>;

/** A tenant's secret in clear, with what its row says beside it. */
export interface OpenedSecret {
  facts: Record<string, unknown>;
  secret: string;
  savedAt: number;
  /** Which write it is: a new one (a reinstall, a new account) has another. */
  version: number;
}

/**
 * What each tenant (an installation of the app) keeps secret: the bot token of its installation, the
 * service account its admins connected. Readable in clear only through here.
 */
export interface TenantVault {
  /** Whether secrets can be kept (TSAI_SECRET_KEY is set). */
  readonly canKeep: boolean;
  /** The secret and its facts, or undefined when there is none (or it cannot be read: see below). */
  open(tenant: string, kind: TenantSecretKind): Promise<OpenedSecret | undefined>;
  /** Keeps it encrypted, replacing an earlier one; returns the version it was kept as. */
  keep(
    tenant: string,
    kind: TenantSecretKind,
    facts: Record<string, unknown>,
    secret: string,
    at: number,
  ): Promise<number>;
  /** Deletes it; true when there was one. */
  forget(tenant: string, kind: TenantSecretKind): Promise<boolean>;
}

/** How many times a keep takes the next version when another write of the same secret took it first. */
const KEEP_TRIES = 3;

/**
 * The vault over the store, as people's tokens are kept (core/identity/store-vault.ts): encrypted with the
 * current key (AES-256-GCM) before the store sees it, bound to everything its row says (`tenantBinding`),
 * decrypted with whichever known key it is under. A row counts only once it decrypts: one under a key the
 * bot no longer has, one whose facts were changed beside it, or an older copy put back (its version below
 * the mark) counts as no secret at all. A row under an old key is sealed again with the current one when read.
 */
export function createTenantVault(store: TenantVaultStore, keys: SecretKeys): TenantVault {
  const ring = keyring(keys);
  const currentId = keyIdOf(keys.current);
  const bindingOf = (row: Omit<StoredTenantSecret, 'sealed' | 'latestVersion'>) => tenantBinding(row);
  return {
    canKeep: true,
    async open(tenant, kind) {
      const row = await store.getTenantSecret(tenant, kind);
      if (!row || row.version !== row.latestVersion) return undefined;
      const key = ring.get(row.sealed.keyId);
      if (!key) return undefined;
      const secret = unseal(key, row.sealed, bindingOf(row));
      if (secret === undefined) return undefined;
      if (row.sealed.keyId !== currentId) {
        const version = row.version + 1;
        await store.resealTenantSecret(
          { tenant, kind, fromVersion: row.version, version },
          seal(keys.current, secret, bindingOf({ ...row, version })),
        );
        return { facts: row.facts, secret, savedAt: row.savedAt, version };
      }
      return { facts: row.facts, secret, savedAt: row.savedAt, version: row.version };
    },
    async keep(tenant, kind, facts, secret, at) {
      // The facts as the store will hand them back: the binding is over what a read will see.
      const kept = JSON.parse(JSON.stringify(facts)) as Record<string, unknown>;
      for (let attempt = 0; attempt < KEEP_TRIES; attempt++) {
        const version = (await store.latestTenantSecretVersion(tenant, kind)) + 1;
        const row = { tenant, kind, facts: kept, savedAt: at, version };
        if (await store.saveTenantSecret({ ...row, sealed: seal(keys.current, secret, bindingOf(row)) }))
          return version;
      }
      throw new Error('the secret could not be kept: other writes of the same one kept coming first');
    },
    forget: (tenant, kind) => store.deleteTenantSecret(tenant, kind),
  };
}

/** Without a key nothing can be kept or read; forgetting still deletes what a run with a key left. */
export function createLockedTenantVault(store: Pick<Store, 'deleteTenantSecret'>): TenantVault {
  return {
    canKeep: false,
    open: async () => undefined,
    keep: async () => {
      throw new Error('tenants cannot be kept: TSAI_SECRET_KEY is not set');
    },
    forget: (tenant, kind) => store.deleteTenantSecret(tenant, kind),
  };
}
