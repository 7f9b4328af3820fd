import { describe, expect, it } from 'vitest';
import type { PersonToken, SealedSecret } from '../../src/store/index.js';
import { type StoreLocation, storesForEachTest } from './fixtures/store.js';

const T0 = Date.UTC(2026, 10, 22, 9, 0, 0);

const sealed = (n: number, keyId = 'aaaaaaaaaaaaaaaa'): SealedSecret => ({
  ciphertext: `Y2lwaGVy${n}`,
  iv: `aXZpdml2aXZpdml2${n}`,
  tag: `dGFndGFndGFndGFn${n}`,
  keyId,
});

export const personToken = (over: Partial<PersonToken> = {}): PersonToken => ({
  teamId: 'T0TEAM',
  userId: 'U0ALICE',
  sealed: sealed(1),
  accountId: '1000000000000000001',
  role: null,
  serviceUser: null,
  connectedAt: T0,
  ...over,
});

/** What every Store keeps of people's own tokens (the vault encrypts them before they get here). */
export function personTokenConformance(name: string, createLocation: () => Promise<StoreLocation>): void {
  describe(`Store conformance, people's own tokens: ${name}`, () => {
    const open = storesForEachTest(createLocation);

    it('keeps one token per person and team, replaced on reconnecting, across handles', async () => {
      const [a, b] = [await open(), await open()];
      expect(await a.getPersonToken('T0TEAM', 'U0ALICE')).toBeNull();
      await a.savePersonToken(personToken());
      await a.savePersonToken(personToken({ teamId: 'T0OTHER', sealed: sealed(2) }));
      expect(await b.getPersonToken('T0TEAM', 'U0ALICE')).toEqual(personToken());
      const again = personToken({
        sealed: sealed(3),
        role: 'Manager',
        serviceUser: 'alice',
        connectedAt: T0 + 5,
      });
      await b.savePersonToken(again);
      expect(await a.getPersonToken('T0TEAM', 'U0ALICE')).toEqual(again);
      expect((await a.getPersonToken('T0OTHER', 'U0ALICE'))?.sealed).toEqual(sealed(2));
      expect(await a.getPersonToken('T0TEAM', 'U0BOB')).toBeNull();
    });

    it('deletes a token once: true when there was one', async () => {
      const s = await open();
      await s.savePersonToken(personToken());
      expect(await s.deletePersonToken('T0TEAM', 'U0ALICE')).toBe(true);
      expect(await s.deletePersonToken('T0TEAM', 'U0ALICE')).toBe(false);
      expect(await s.getPersonToken('T0TEAM', 'U0ALICE')).toBeNull();
    });

    it('re-seals only the row still under the old key and connection', async () => {
      const s = await open();
      await s.savePersonToken(personToken({ sealed: sealed(1, 'old0old0old0old0') }));
      const from = { teamId: 'T0TEAM', userId: 'U0ALICE', fromKeyId: 'old0old0old0old0', connectedAt: T0 };
      // A reconnection in between (another connectedAt) wins over the re-encryption of the older token.
      expect(await s.resealPersonToken({ ...from, connectedAt: T0 - 1 }, sealed(9, 'new0new0new0new0'))).toBe(
        false,
      );
      expect(await s.resealPersonToken(from, sealed(2, 'new0new0new0new0'))).toBe(true);
      expect(await s.resealPersonToken(from, sealed(3, 'new0new0new0new0'))).toBe(false);
      const row = await s.getPersonToken('T0TEAM', 'U0ALICE');
      expect(row?.sealed).toEqual(sealed(2, 'new0new0new0new0'));
      expect(row?.connectedAt).toBe(T0);
    });
  });
}
