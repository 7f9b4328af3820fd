import { describe, expect, it } from 'vitest';
import type { SealedSecret, TenantSecret } from '../../src/store/index.js';
import { type StoreLocation, storesForEachTest } from './fixtures/store.js';

const T0 = Date.UTC(2026, 10, 22, 9, 0, 0);

const sealed = (n: number, keyId = 'aaaaaaaaaaaaaaaa'): SealedSecret => ({
  ciphertext: `Y2lwaGVy${n}`,
  iv: `aXZpdml2aXZpdml2${n}`,
  tag: `dGFndGFndGFndGFn${n}`,
  keyId,
});

const secret = (over: Partial<TenantSecret> = {}): TenantSecret => ({
  tenant: 'T0ACME',
  kind: 'installation',
  facts: {
    teamId: 'T0ACME',
    teamName: 'Acme "ops" <&>',
    botUserId: 'U0BOT',
    enterprise: null,
    scopes: ['a', 'b'],
  },
  sealed: sealed(1),
  savedAt: T0,
  version: 1,
  ...over,
});

const stored = (t: TenantSecret, latestVersion = t.version) => ({ ...t, latestVersion });

/** What every Store keeps of tenants' secrets (installations' bot tokens, service accounts), sealed by the caller. */
export function tenantSecretConformance(name: string, createLocation: () => Promise<StoreLocation>): void {
  describe(`Store conformance, tenants' secrets: ${name}`, () => {
    const open = storesForEachTest(createLocation);

    it('keeps one secret per tenant and kind, its facts as given, replaced by a newer version, across handles', async () => {
      const [a, b] = [await open(), await open()];
      expect(await a.getTenantSecret('T0ACME', 'installation')).toBeNull();
      expect(await a.latestTenantSecretVersion('T0ACME', 'installation')).toBe(0);
      expect(await a.saveTenantSecret(secret())).toBe(true);
      const account = secret({ kind: 'service-account', facts: { accountId: '1000' }, sealed: sealed(2) });
      expect(await a.saveTenantSecret(account)).toBe(true);
      expect(await a.saveTenantSecret(secret({ tenant: 'E0ORG', sealed: sealed(3) }))).toBe(true);
      expect(await b.getTenantSecret('T0ACME', 'installation')).toEqual(stored(secret()));
      expect(await b.getTenantSecret('T0ACME', 'service-account')).toEqual(stored(account));
      expect(await b.countTenantSecrets('installation')).toBe(2);
      expect(await b.countTenantSecrets('service-account')).toBe(1);
      const again = secret({
        facts: { teamId: 'T0ACME', reinstalled: true },
        sealed: sealed(4),
        savedAt: T0 + 9,
        version: 2,
      });
      expect(await b.saveTenantSecret(again)).toBe(true);
      expect(await a.getTenantSecret('T0ACME', 'installation')).toEqual(stored(again));
      // A write of a version already taken changes nothing: another write won.
      expect(await a.saveTenantSecret(secret({ sealed: sealed(5), version: 2 }))).toBe(false);
      expect(await a.getTenantSecret('T0ACME', 'installation')).toEqual(stored(again));
      expect(await a.countTenantSecrets('installation')).toBe(2);
    });

    it('deletes once and moves the mark past the row, so that row put back is seen as old', async () => {
      const s = await open();
      await s.saveTenantSecret(secret({ version: 3 }));
      expect(await s.deleteTenantSecret('T0ACME', 'installation')).toBe(true);
      expect(await s.deleteTenantSecret('T0ACME', 'installation')).toBe(false);
      expect(await s.getTenantSecret('T0ACME', 'installation')).toBeNull();
      expect(await s.latestTenantSecretVersion('T0ACME', 'installation')).toBeGreaterThan(3);
      expect(await s.saveTenantSecret(secret({ version: 4 }))).toBe(false);
      expect(await s.countTenantSecrets('installation')).toBe(0);
      // A secret never kept still gets a mark, so no copy from elsewhere can be put under it.
      expect(await s.deleteTenantSecret('T0NEVER', 'service-account')).toBe(false);
      expect(await s.latestTenantSecretVersion('T0NEVER', 'service-account')).toBe(1);
    });

    it('re-seals only the row still at the version it was read at, and moves the mark with it', async () => {
      const s = await open();
      await s.saveTenantSecret(secret({ sealed: sealed(1, 'old0old0old0old0') }));
      const from = { tenant: 'T0ACME', kind: 'installation' as const, fromVersion: 1, version: 2 };
      expect(await s.resealTenantSecret({ ...from, fromVersion: 0 }, sealed(9, 'new0new0new0new0'))).toBe(
        false,
      );
      expect(await s.resealTenantSecret(from, sealed(2, 'new0new0new0new0'))).toBe(true);
      expect(await s.resealTenantSecret(from, sealed(3, 'new0new0new0new0'))).toBe(false);
      const row = await s.getTenantSecret('T0ACME', 'installation');
      expect(row).toMatchObject({
        sealed: sealed(2, 'new0new0new0new0'),
        savedAt: T0,
        version: 2,
        latestVersion: 2,
      });
      expect(row?.facts).toEqual(secret().facts);
    });
  });
}
