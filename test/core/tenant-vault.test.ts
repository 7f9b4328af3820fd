import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, keyIdOf } from '../../src/core/identity/keys.js';
import { createLockedTenantVault, createTenantVault } from '../../src/core/tenancy/vault.js';
import type { Store } from '../../src/store/index.js';
import { storeForEachTest } from '../support/fixtures/store.js';

const key = () => new Uint8Array(randomBytes(32));
const AT = Date.UTC(2026, 10, 22, 9);
const FACTS = { teamId: 'T0ACME', teamName: 'Acme', botUserId: 'U0BOT', scopes: ['commands', 'chat:write'] };

let store: Store;
storeForEachTest((s) => {
  store = s;
});

describe("a tenant's secrets, over a real SQLite store", () => {
  it('gives back the secret and its facts; a new keep replaces it with the next version; forgets it once', async () => {
    const vault = createTenantVault(store, { current: key(), previous: [] });
    expect(await vault.open('T0ACME', 'installation')).toBeUndefined();
    expect(await vault.keep('T0ACME', 'installation', FACTS, 'xoxb-acme-1', AT)).toBe(1);
    expect(await vault.open('T0ACME', 'installation')).toEqual({
      facts: FACTS,
      secret: 'xoxb-acme-1',
      savedAt: AT,
      version: 1,
    });
    expect(await vault.open('T0ACME', 'service-account')).toBeUndefined();
    expect(await vault.open('T0OTHER', 'installation')).toBeUndefined();
    expect(
      await vault.keep('T0ACME', 'installation', { ...FACTS, teamName: 'Acme Inc' }, 'xoxb-acme-2', AT + 1),
    ).toBe(2);
    expect((await vault.open('T0ACME', 'installation'))?.secret).toBe('xoxb-acme-2');
    expect(await vault.forget('T0ACME', 'installation')).toBe(true);
    expect(await vault.forget('T0ACME', 'installation')).toBe(false);
    expect(await vault.open('T0ACME', 'installation')).toBeUndefined();
  });

  it('keeps only ciphertext in the store, under a fresh IV each time, named by a key ID that is not the key', async () => {
    const keys = { current: key(), previous: [] };
    const vault = createTenantVault(store, keys);
    await vault.keep('T0ACME', 'installation', FACTS, 'xoxb-same', AT);
    const first = (await store.getTenantSecret('T0ACME', 'installation'))!;
    await vault.keep('T0ACME', 'installation', FACTS, 'xoxb-same', AT);
    const second = (await store.getTenantSecret('T0ACME', 'installation'))!;
    expect(JSON.stringify(first)).not.toContain('xoxb-same');
    expect(JSON.stringify(first)).not.toContain(Buffer.from('xoxb-same').toString('base64'));
    expect(second.sealed.iv).not.toBe(first.sealed.iv);
    expect(first.sealed.keyId).toBe(keyIdOf(keys.current));
  });

  it("binds a ciphertext to its row: another tenant's, another kind's, or with a fact changed beside it, it does not open", async () => {
    const vault = createTenantVault(store, { current: key(), previous: [] });
    await vault.keep('T0ACME', 'installation', FACTS, 'xoxb-acme', AT);
    const row = (await store.getTenantSecret('T0ACME', 'installation'))!;
    await store.saveTenantSecret({ ...row, tenant: 'T0EVIL', version: 1 });
    await store.saveTenantSecret({ ...row, kind: 'service-account', version: 1 });
    expect(await vault.open('T0EVIL', 'installation')).toBeUndefined();
    expect(await vault.open('T0ACME', 'service-account')).toBeUndefined();
    // The bot user the requests are authorised as, changed beside the token: not read.
    await store.saveTenantSecret({ ...row, facts: { ...row.facts, botUserId: 'U0EVIL' }, version: 2 });
    expect(await vault.open('T0ACME', 'installation')).toBeUndefined();
  });

  it('does not read an older row put back, nor one under a key it no longer has', async () => {
    const vault = createTenantVault(store, { current: key(), previous: [] });
    await vault.keep('T0ACME', 'installation', FACTS, 'xoxb-old', AT);
    const { latestVersion: _l, ...old } = (await store.getTenantSecret('T0ACME', 'installation'))!;
    await vault.keep('T0ACME', 'installation', FACTS, 'xoxb-new', AT + 1);
    // The store takes no write below the mark, as the old row would be put back by hand.
    expect(await store.saveTenantSecret(old)).toBe(false);
    await vault.forget('T0ACME', 'installation');
    expect(await store.saveTenantSecret(old)).toBe(false);
    expect(await vault.open('T0ACME', 'installation')).toBeUndefined();
    await vault.keep('T0NEXT', 'installation', FACTS, 'xoxb-next', AT);
    expect(
      await createTenantVault(store, { current: key(), previous: [] }).open('T0NEXT', 'installation'),
    ).toBeUndefined();
  });

  it('reads a row under a previous key and seals it again with the current one', async () => {
    const old = key();
    await createTenantVault(store, { current: old, previous: [] }).keep(
      'T0ACME',
      'service-account',
      { accountId: '1' },
      'svc',
      AT,
    );
    const current = key();
    const vault = createTenantVault(store, { current, previous: [old] });
    expect(await vault.open('T0ACME', 'service-account')).toMatchObject({ secret: 'svc', version: 2 });
    expect((await store.getTenantSecret('T0ACME', 'service-account'))?.sealed.keyId).toBe(keyIdOf(current));
    expect(
      await createTenantVault(store, { current, previous: [] }).open('T0ACME', 'service-account'),
    ).toMatchObject({
      secret: 'svc',
    });
  });

  it('binds facts whatever the order of their keys', () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: [3, { f: 4, e: 5 }] } })).toBe(
      canonicalJson({ a: { c: [3, { e: 5, f: 4 }], d: 2 }, b: 1 }),
    );
  });

  it('without a key keeps nothing and reads nothing, but forgets what a run with a key left', async () => {
    await createTenantVault(store, { current: key(), previous: [] }).keep(
      'T0ACME',
      'installation',
      FACTS,
      'x',
      AT,
    );
    const locked = createLockedTenantVault(store);
    expect(locked.canKeep).toBe(false);
    expect(await locked.open('T0ACME', 'installation')).toBeUndefined();
    await expect(locked.keep('T0ACME', 'installation', FACTS, 'y', AT)).rejects.toThrow(/TSAI_SECRET_KEY/);
    expect(await locked.forget('T0ACME', 'installation')).toBe(true);
  });
});
