import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createLockedVault, createVault, keyIdOf, type SecretKeys } from '../../src/core/identity/index.js';
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
    await store.savePersonToken({ ...row, userId: BOB.userId });
    expect(await vault.tokenOf(BOB)).toBeUndefined();
    expect(await vault.tokenOf(ALICE)).toBe('alice-secret');
  });

  it('a tampered ciphertext or tag does not decrypt', async () => {
    const vault = createVault(store, { current: key(), previous: [] });
    await vault.save(ALICE, 'alice-secret', CONNECTION);
    const row = (await store.getPersonToken(ALICE.teamId, ALICE.userId))!;
    const flipped = Buffer.from(row.sealed.ciphertext, 'base64');
    flipped[0] = flipped[0]! ^ 1;
    await store.savePersonToken({
      ...row,
      sealed: { ...row.sealed, ciphertext: flipped.toString('base64') },
    });
    expect(await vault.tokenOf(ALICE)).toBeUndefined();
    await store.savePersonToken({
      ...row,
      sealed: { ...row.sealed, tag: Buffer.alloc(16).toString('base64') },
    });
    expect(await vault.tokenOf(ALICE)).toBeUndefined();
    await store.savePersonToken(row);
    expect(await vault.tokenOf(ALICE)).toBe('alice-secret');
  });

  it('rotation: an old key still decrypts, and the token moves to the new key when read', async () => {
    const [oldKey, newKey] = [key(), key()];
    await createVault(store, { current: oldKey, previous: [] }).save(ALICE, 'alice-secret', CONNECTION);
    const rotated = createVault(store, { current: newKey, previous: [oldKey] });
    expect(await rotated.connection(ALICE)).toEqual(CONNECTION);
    expect((await store.getPersonToken(ALICE.teamId, ALICE.userId))!.sealed.keyId).toBe(keyIdOf(oldKey));
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
