import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createLockedVault, createVault, keyIdOf, type SecretKeys } from '../../src/core/identity/index.js';
import { rowBinding, seal } from '../../src/core/identity/keys.js';
import type { Store } from '../../src/store/index.js';
import { storeForEachTest } from '../support/fixtures/store.js';

const key = () => new Uint8Array(randomBytes(32));
const ALICE = { teamId: 'T0TEAM', userId: 'U0ALICE' };
const BOB = { teamId: 'T0TEAM', userId: 'U0BOB' };
const SINCE = Date.UTC(2026, 10, 22, 9);
const CONNECTION = { since: SINCE, accountId: '1000000000000000001' };

let store: Store;
storeForEachTest((s) => {
  store = s;
});

describe('the vault over a real SQLite store', () => {
  it('gives back the token and what was learnt of it; forgets it once', async () => {
    const vault = createVault(store, { current: key(), previous: [] });
    expect(await vault.tokenOf(ALICE)).toBeUndefined();
    expect(await vault.connection(ALICE)).toBeUndefined();
    await vault.save(ALICE, 'alice-token-1', { ...CONNECTION, role: 'Manager', serviceUser: 'alice' });
    expect(await vault.tokenOf(ALICE)).toBe('alice-token-1');
    expect(await vault.connection(ALICE)).toEqual({ ...CONNECTION, role: 'Manager', serviceUser: 'alice' });
    expect(await vault.tokenOf(BOB)).toBeUndefined();
    await vault.save(ALICE, 'alice-token-2', CONNECTION);
    expect(await vault.tokenOf(ALICE)).toBe('alice-token-2');
    expect(await vault.connection(ALICE)).toEqual(CONNECTION);
    expect(await vault.forget(ALICE)).toBe(true);
    expect(await vault.forget(ALICE)).toBe(false);
    expect(await vault.tokenOf(ALICE)).toBeUndefined();
  });

  it('encrypts with a fresh IV each time, and names the key by an ID that is not the key', async () => {
    const keys: SecretKeys = { current: key(), previous: [] };
    const vault = createVault(store, keys);
    await vault.save(ALICE, 'same-token', CONNECTION);
    const first = (await store.getPersonToken(ALICE.teamId, ALICE.userId))!.sealed;
    await vault.save(ALICE, 'same-token', CONNECTION);
    const second = (await store.getPersonToken(ALICE.teamId, ALICE.userId))!.sealed;
    expect(Buffer.from(first.iv, 'base64')).toHaveLength(12);
    expect(Buffer.from(first.tag, 'base64')).toHaveLength(16);
    expect(second.iv).not.toBe(first.iv);
    expect(second.ciphertext).not.toBe(first.ciphertext);
    expect(first.keyId).toBe(keyIdOf(keys.current));
    expect(first.keyId).toMatch(/^[0-9a-f]{16}$/);
    expect(Buffer.from(keys.current).toString('hex')).not.toContain(first.keyId);
  });

  it("binds a ciphertext to its row: copied to another person's row, it does not decrypt", async () => {
    const vault = createVault(store, { current: key(), previous: [] });
    await vault.save(ALICE, 'alice-secret', CONNECTION);
    const row = (await store.getPersonToken(ALICE.teamId, ALICE.userId))!;
    await store.savePersonToken({ ...row, userId: BOB.userId, version: 1 });
    expect(await vault.tokenOf(BOB)).toBeUndefined();
    expect(await vault.tokenOf(ALICE)).toBe('alice-secret');
  });

  it('a tampered ciphertext, tag or fact beside them does not decrypt, and the person is not connected', async () => {
    const vault = createVault(store, { current: key(), previous: [] });
    await vault.save(ALICE, 'alice-secret', CONNECTION);
    const row = (await store.getPersonToken(ALICE.teamId, ALICE.userId))!;
    // Each tampered row is written as the next write, so only its contents can give it away.
    const put = async (over: Partial<typeof row>) =>
      store.savePersonToken({
        ...row,
        ...over,
        version: (await store.latestPersonTokenVersion(ALICE.teamId, ALICE.userId)) + 1,
      });
    const flipped = Buffer.from(row.sealed.ciphertext, 'base64');
    flipped[0] = flipped[0]! ^ 1;
    await put({ sealed: { ...row.sealed, ciphertext: flipped.toString('base64') } });
    expect(await vault.tokenOf(ALICE)).toBeUndefined();
    await put({ sealed: { ...row.sealed, tag: Buffer.alloc(16).toString('base64') } });
    expect(await vault.tokenOf(ALICE)).toBeUndefined();
    for (const fact of [
      { role: 'Owner' },
      { accountId: '1000000000000000009' },
      { connectedAt: SINCE + 1 },
    ]) {
      await put(fact);
      expect(await vault.tokenOf(ALICE), JSON.stringify(fact)).toBeUndefined();
      expect(await vault.connection(ALICE), JSON.stringify(fact)).toBeUndefined();
    }
  });

  it('an older copy of the same person put back is not read', async () => {
    const vault = createVault(store, { current: key(), previous: [] });
    await vault.save(ALICE, 'alice-old', CONNECTION);
    const old = (await store.getPersonToken(ALICE.teamId, ALICE.userId))!;
    await vault.save(ALICE, 'alice-new', { ...CONNECTION, since: SINCE + 1 });
    expect(await vault.tokenOf(ALICE)).toBe('alice-new');
    // The store takes no write below the mark, as the old row would be put back by hand.
    expect(await store.savePersonToken(old)).toBe(false);
    await vault.forget(ALICE);
    expect(await store.savePersonToken(old)).toBe(false);
    expect(await vault.tokenOf(ALICE)).toBeUndefined();
  });

  it('a row from before versions is read with its old binding, then sealed again with the next version', async () => {
    const keys = { current: key(), previous: [] };
    await store.savePersonToken({
      ...ALICE,
      sealed: seal(keys.current, 'alice-first', rowBinding(ALICE.teamId, ALICE.userId)),
      accountId: CONNECTION.accountId,
      role: null,
      serviceUser: null,
      connectedAt: SINCE,
      version: 0,
    });
    const vault = createVault(store, keys);
    expect(await vault.connection(ALICE)).toEqual(CONNECTION);
    expect(await store.getPersonToken(ALICE.teamId, ALICE.userId)).toMatchObject({
      version: 1,
      latestVersion: 1,
    });
    expect(await vault.tokenOf(ALICE)).toBe('alice-first');
  });

  it('rotation: an old key still decrypts, and the token moves to the new key when read', async () => {
    const [oldKey, newKey] = [key(), key()];
    await createVault(store, { current: oldKey, previous: [] }).save(ALICE, 'alice-secret', CONNECTION);
    const rotated = createVault(store, { current: newKey, previous: [oldKey] });
    expect((await store.getPersonToken(ALICE.teamId, ALICE.userId))!.sealed.keyId).toBe(keyIdOf(oldKey));
    // Whoami's question reads the row through the key too, and moves it on the way.
    expect(await rotated.connection(ALICE)).toEqual(CONNECTION);
    expect(await rotated.tokenOf(ALICE)).toBe('alice-secret');
    const row = (await store.getPersonToken(ALICE.teamId, ALICE.userId))!;
    expect(row.sealed.keyId).toBe(keyIdOf(newKey));
    expect(row.connectedAt).toBe(SINCE);
    // Once every row was read again, the old key can go.
    const newOnly = createVault(store, { current: newKey, previous: [] });
    expect(await newOnly.tokenOf(ALICE)).toBe('alice-secret');
  });

  it('a token under a key the bot no longer has counts as not connected', async () => {
    await createVault(store, { current: key(), previous: [] }).save(ALICE, 'alice-secret', CONNECTION);
    const other = createVault(store, { current: key(), previous: [] });
    expect(await other.connection(ALICE)).toBeUndefined();
    expect(await other.tokenOf(ALICE)).toBeUndefined();
    expect(await other.forget(ALICE)).toBe(true);
  });

  it('without a key nobody is connected, nothing can be saved, and forgetting still deletes', async () => {
    await createVault(store, { current: key(), previous: [] }).save(ALICE, 'alice-secret', CONNECTION);
    const locked = createLockedVault(store);
    expect(await locked.connection(ALICE)).toBeUndefined();
    expect(await locked.tokenOf(ALICE)).toBeUndefined();
    await expect(locked.save(BOB, 'bob-secret', CONNECTION)).rejects.toThrow(/TSAI_SECRET_KEY/);
    expect(await locked.forget(ALICE)).toBe(true);
  });
});
