import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { PersonToken, SealedSecret } from '../../store/index.js';

/** The keys people's tokens are kept under (TSAI_SECRET_KEY, TSAI_SECRET_KEYS_PREVIOUS): 32 bytes each. */
export interface SecretKeys {
  /** Encrypts every token saved or re-encrypted. */
  current: Uint8Array;
  /** Still decrypt tokens saved under them; such a token moves to `current` when next read. */
  previous: readonly Uint8Array[];
}

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A key's name beside each ciphertext: the first 8 bytes of its SHA-256, in hex. Not the key. */
export function keyIdOf(key: Uint8Array): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/**
 * What a ciphertext of the first rows (version 0) is bound to: the person only. Such a row is read once,
 * then sealed again with `sealedBinding`.
 */
export function rowBinding(teamId: string, userId: string): Buffer {
  return Buffer.from(`tsai-person-token\u0000${teamId}\u0000${userId}`, 'utf8');
}

/** What a row says beside its ciphertext, all of it under the ciphertext's integrity check. */
export type RowFacts = Omit<PersonToken, 'sealed'>;

/**
 * What a ciphertext is bound to: the person, the account and service URL, role and service user the check
 * found, when they connected, and which write of their token this is. Copied to another person's row, or
 * with any of these changed beside it (pointed at another URL, say), it no longer decrypts; an older copy
 * of the same person's row carries an older version, which the store's mark tells apart. Rows kept before
 * the URL was bound keep the binding they were sealed with.
 */
export function sealedBinding(f: RowFacts): Buffer {
  const fields = [
    f.serviceUrl ? 'tsai-person-token/v3' : 'tsai-person-token/v2',
    f.teamId,
    f.userId,
    f.accountId,
    ...(f.serviceUrl ? [f.serviceUrl] : []),
    f.role ?? '',
    f.serviceUser ?? '',
    String(f.connectedAt),
    String(f.version),
  ];
  // Each field's length first, so that no two different rows join to the same bytes.
  return Buffer.from(fields.map((x) => `${Buffer.byteLength(x, 'utf8')}:${x}`).join('\u0000'), 'utf8');
}

/** What a tenant's secret row says beside its ciphertext, all of it under the ciphertext's integrity check. */
export interface TenantRowFacts {
  tenant: string;
  kind: string;
  /** JSON-safe facts of the row (IDs, names, who and when). */
  facts: Record<string, unknown>;
  savedAt: number;
  version: number;
}

/**
 * What a tenant's ciphertext is bound to: the tenant, the kind of secret, every fact beside it (as JSON
 * with its keys in order, so the same facts always make the same bytes), when it was saved and which
 * write it is. Moved to another tenant or kind, or with a fact changed beside it, it does not decrypt.
 */
export function tenantBinding(f: TenantRowFacts): Buffer {
  const fields = [
    'tsai-tenant-secret/v1',
    f.tenant,
    f.kind,
    canonicalJson(f.facts),
    String(f.savedAt),
    String(f.version),
  ];
  return Buffer.from(fields.map((x) => `${Buffer.byteLength(x, 'utf8')}:${x}`).join('\u0000'), 'utf8');
}

/** JSON with every object's keys sorted, so that equal values give equal text whatever the keys' order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

/** Encrypts with a fresh random IV every time; an IV is never used twice with the same key. */
export function seal(key: Uint8Array, secret: string, binding: Buffer): SealedSecret {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(binding);
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return {
    ciphertext: ciphertext.toString('base64'),
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    keyId: keyIdOf(key),
  };
}

/** The secret in clear, or undefined when this key cannot open it (another key, another row, tampered). */
export function unseal(key: Uint8Array, sealed: SealedSecret, binding: Buffer): string | undefined {
  try {
    const iv = Buffer.from(sealed.iv, 'base64');
    const tag = Buffer.from(sealed.tag, 'base64');
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return undefined;
    const decipher = createDecipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(binding);
    decipher.setAuthTag(tag);
    const clear = Buffer.concat([
      decipher.update(Buffer.from(sealed.ciphertext, 'base64')),
      decipher.final(),
    ]);
    return clear.toString('utf8');
  } catch {
    return undefined;
  }
}

/** Each key by its ID: the current one first. */
export function keyring(keys: SecretKeys): Map<string, Uint8Array> {
  const ring = new Map<string, Uint8Array>();
  for (const key of [keys.current, ...keys.previous])
    if (!ring.has(keyIdOf(key))) ring.set(keyIdOf(key), key);
  return ring;
}
