/** A token as the store keeps it: encrypted by the caller, bound to its row; never in clear. */
export interface SealedSecret {
  /** base64 */
  ciphertext: string;
  /** base64, 12 bytes */
  iv: string;
  /** base64, the 16-byte GCM tag */
  tag: string;
  /** Which key it is under (hex of the first bytes of the key's SHA-256). */
  keyId: string;
}

/**
 * What a tenant (one installation of the app: a Slack workspace, or a whole Enterprise Grid organisation
 * for an org-wide install) keeps secret: the bot token Slack gave it when it was installed, and the service
 * account its admins connected it to.
 */
export type TenantSecretKind = 'installation' | 'service-account';

export interface TenantSecret {
  /** The tenant's key: the enterprise ID of an org-wide install, else the team ID. */
  tenant: string;
  kind: TenantSecretKind;
  /**
   * What the row says beside its secret (JSON-safe: IDs, names, who and when), under the ciphertext's
   * integrity check: the caller binds it into the authenticated data.
   */
  facts: Record<string, unknown>;
  sealed: SealedSecret;
  /** ms */
  savedAt: number;
  /** Which write of this tenant's secret of this kind this is; the mark only grows. */
  version: number;
}

/** A row as read: with its mark, the version of the last write or delete of that tenant and kind. */
export interface StoredTenantSecret extends TenantSecret {
  /** A row whose `version` is below it was put back from an older copy. */
  latestVersion: number;
}

/** The store's side of tenants' secrets; the caller encrypts them before they get here. */
export interface TenantSecretStore {
  getTenantSecret(tenant: string, kind: TenantSecretKind): Promise<StoredTenantSecret | null>;
  /** The mark: the version of the last write or delete of this tenant's secret of this kind (0: none). */
  latestTenantSecretVersion(tenant: string, kind: TenantSecretKind): Promise<number>;
  /**
   * Keeps the secret, replacing the one there was, and moves the mark to its version: only when that
   * version is above the mark (false: another write took it first).
   */
  saveTenantSecret(secret: TenantSecret): Promise<boolean>;
  /** Deletes it and moves the mark past it; true when there was one. */
  deleteTenantSecret(tenant: string, kind: TenantSecretKind): Promise<boolean>;
  /**
   * Puts the same secret under another key, as `version`: only while the row is still at `fromVersion`
   * (a write in between wins). True when it was replaced.
   */
  resealTenantSecret(
    o: { tenant: string; kind: TenantSecretKind; fromVersion: number; version: number },
    sealed: SealedSecret,
  ): Promise<boolean>;
  /** How many tenants keep a secret of this kind (installations, for the operators' figures). */
  countTenantSecrets(kind: TenantSecretKind): Promise<number>;
}
