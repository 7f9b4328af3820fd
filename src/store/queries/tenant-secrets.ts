import type { Row } from '../sql.js';
import { one, run, statements, transaction } from '../sql.js';
import type { SealedSecret, StoredTenantSecret, TenantSecret, TenantSecretKind } from '../types.js';

function toTenantSecret(r: Row): StoredTenantSecret {
  return {
    tenant: String(r.tenant),
    kind: String(r.kind) as TenantSecretKind,
    facts: JSON.parse(String(r.facts)) as Record<string, unknown>,
    sealed: {
      ciphertext: String(r.ciphertext),
      iv: String(r.iv),
      tag: String(r.tag),
      keyId: String(r.key_id),
    },
    savedAt: Number(r.saved_at),
    version: Number(r.version),
    latestVersion: r.latest_version === null || r.latest_version === undefined ? 0 : Number(r.latest_version),
  };
}

export const getTenantSecret = (tenant: string, kind: TenantSecretKind) =>
  statements(function* () {
    const row = yield* one(
      `SELECT s.*, v.version AS latest_version FROM tenant_secrets s
       LEFT JOIN tenant_secret_versions v ON v.tenant = s.tenant AND v.kind = s.kind
       WHERE s.tenant = ? AND s.kind = ?`,
      [tenant, kind],
    );
    return row ? toTenantSecret(row) : null;
  });

export const latestTenantSecretVersion = (tenant: string, kind: TenantSecretKind) =>
  statements(function* () {
    const row = yield* one('SELECT version FROM tenant_secret_versions WHERE tenant = ? AND kind = ?', [
      tenant,
      kind,
    ]);
    return row ? Number(row.version) : 0;
  });

/** Moves the mark up to `version`; false when it is already there or past it (another write won). */
function* raiseMark(tenant: string, kind: TenantSecretKind, version: number) {
  return (
    (yield* run(
      `INSERT INTO tenant_secret_versions AS v (tenant, kind, version) VALUES (?, ?, ?)
       ON CONFLICT (tenant, kind) DO UPDATE SET version = excluded.version
       WHERE v.version < excluded.version`,
      [tenant, kind, version],
    )) > 0
  );
}

export const saveTenantSecret = (t: TenantSecret) =>
  transaction(function* () {
    if (!(yield* raiseMark(t.tenant, t.kind, t.version))) return false;
    const s = t.sealed;
    yield* run(
      `INSERT INTO tenant_secrets (tenant, kind, facts, ciphertext, iv, tag, key_id, saved_at, version)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (tenant, kind) DO UPDATE SET facts = excluded.facts, ciphertext = excluded.ciphertext,
         iv = excluded.iv, tag = excluded.tag, key_id = excluded.key_id, saved_at = excluded.saved_at,
         version = excluded.version`,
      [t.tenant, t.kind, JSON.stringify(t.facts), s.ciphertext, s.iv, s.tag, s.keyId, t.savedAt, t.version],
    );
    return true;
  });

/** The mark moves past the deleted row's version, so that row put back later is seen as old. */
export const deleteTenantSecret = (tenant: string, kind: TenantSecretKind) =>
  transaction(function* () {
    const mark = yield* one('SELECT version FROM tenant_secret_versions WHERE tenant = ? AND kind = ?', [
      tenant,
      kind,
    ]);
    const row = yield* one('SELECT version FROM tenant_secrets WHERE tenant = ? AND kind = ?', [
      tenant,
      kind,
    ]);
    yield* raiseMark(tenant, kind, Math.max(Number(mark?.version ?? 0), Number(row?.version ?? 0)) + 1);
    return (yield* run('DELETE FROM tenant_secrets WHERE tenant = ? AND kind = ?', [tenant, kind])) > 0;
  });

export const resealTenantSecret = (
  o: { tenant: string; kind: TenantSecretKind; fromVersion: number; version: number },
  s: SealedSecret,
) =>
  transaction(function* () {
    const changed = yield* run(
      `UPDATE tenant_secrets SET ciphertext = ?, iv = ?, tag = ?, key_id = ?, version = ?
       WHERE tenant = ? AND kind = ? AND version = ?`,
      [s.ciphertext, s.iv, s.tag, s.keyId, o.version, o.tenant, o.kind, o.fromVersion],
    );
    if (changed === 0) return false;
    yield* raiseMark(o.tenant, o.kind, o.version);
    return true;
  });

export const countTenantSecrets = (kind: TenantSecretKind) =>
  statements(function* () {
    const row = yield* one('SELECT COUNT(*) AS n FROM tenant_secrets WHERE kind = ?', [kind]);
    return row ? Number(row.n) : 0;
  });
