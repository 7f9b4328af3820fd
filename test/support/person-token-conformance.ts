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
  serviceUrl: null,
  role: null,
  serviceUser: null,
  connectedAt: T0,
  version: 1,
  ...over,
});

/** A row as read back: the person's mark is the row's own version when nothing came after it. */
const stored = (t: PersonToken, latestVersion = t.version) => ({ ...t, latestVersion });

/** What every Store keeps of people's own tokens (the vault encrypts them before they get here). */
export function personTokenConformance(name: string, createLocation: () => Promise<StoreLocation>): void {
  describe(`Store conformance, people's own tokens: ${name}`, () => {
    const open = storesForEachTest(createLocation);

    it('keeps one token per person and team, replaced on reconnecting with a newer version, across handles', async () => {
      const [a, b] = [await open(), await open()];
      expect(await a.getPersonToken('T0TEAM', 'U0ALICE')).toBeNull();
      expect(await a.latestPersonTokenVersion('T0TEAM', 'U0ALICE')).toBe(0);
      expect(await a.savePersonToken(personToken())).toBe(true);
      expect(await a.savePersonToken(personToken({ teamId: 'T0OTHER', sealed: sealed(2) }))).toBe(true);
      expect(await b.getPersonToken('T0TEAM', 'U0ALICE')).toEqual(stored(personToken()));
      const again = personToken({
        sealed: sealed(3),
        role: 'Manager',
        serviceUser: 'alice',
        connectedAt: T0 + 5,
        version: 2,
      });
      expect(await b.savePersonToken(again)).toBe(true);
      expect(await a.getPersonToken('T0TEAM', 'U0ALICE')).toEqual(stored(again));
      expect(await a.latestPersonTokenVersion('T0TEAM', 'U0ALICE')).toBe(2);
      // A write of a version already taken changes nothing: another write won.
      expect(await a.savePersonToken(personToken({ sealed: sealed(4), version: 2 }))).toBe(false);
      expect(await a.getPersonToken('T0TEAM', 'U0ALICE')).toEqual(stored(again));
      expect((await a.getPersonToken('T0OTHER', 'U0ALICE'))?.sealed).toEqual(sealed(2));
      expect(await a.getPersonToken('T0TEAM', 'U0BOB')).toBeNull();
    });

    it('deletes a token once, and moves the mark past it, so the row put back is seen as old', async () => {
      const s = await open();
      await s.savePersonToken(personToken());
      expect(await s.deletePersonToken('T0TEAM', 'U0ALICE')).toBe(true);
      expect(await s.deletePersonToken('T0TEAM', 'U0ALICE')).toBe(false);
      expect(await s.getPersonToken('T0TEAM', 'U0ALICE')).toBeNull();
      expect(await s.latestPersonTokenVersion('T0TEAM', 'U0ALICE')).toBeGreaterThan(1);
    });

    it('re-seals only the row still at the version it was read at, and moves the mark with it', async () => {
      const s = await open();
      await s.savePersonToken(personToken({ sealed: sealed(1, 'old0old0old0old0') }));
      const from = { teamId: 'T0TEAM', userId: 'U0ALICE', fromVersion: 1, version: 2 };
      // A reconnection in between (another version) wins over the re-encryption of the older token.
      expect(await s.resealPersonToken({ ...from, fromVersion: 0 }, sealed(9, 'new0new0new0new0'))).toBe(
        false,
      );
      expect(await s.resealPersonToken(from, sealed(2, 'new0new0new0new0'))).toBe(true);
      expect(await s.resealPersonToken(from, sealed(3, 'new0new0new0new0'))).toBe(false);
      const row = await s.getPersonToken('T0TEAM', 'U0ALICE');
      expect(row?.sealed).toEqual(sealed(2, 'new0new0new0new0'));
      expect(row).toMatchObject({ connectedAt: T0, version: 2, latestVersion: 2 });
    });

    it("keeps the service URL a token was checked against, and lists a team's tokens by person", async () => {
      const s = await open();
      const url = 'https://tsai.example.com';
      await s.savePersonToken(personToken({ serviceUrl: url }));
      await s.savePersonToken(personToken({ userId: 'U0BOB', version: 3 }));
      await s.savePersonToken(personToken({ teamId: 'T0OTHER', serviceUrl: 'https://other.example.com' }));
      expect((await s.getPersonToken('T0TEAM', 'U0ALICE'))?.serviceUrl).toBe(url);
      const team = await s.listTeamPersonTokens('T0TEAM');
      expect(team.map((t) => [t.userId, t.serviceUrl, t.version, t.latestVersion])).toEqual([
        ['U0ALICE', url, 1, 1],
        ['U0BOB', null, 3, 3],
      ]);
      expect(await s.listTeamPersonTokens('T0NONE')).toEqual([]);
    });

    it("deletes the tokens of a whole team at once, each person's mark past their row, other teams untouched", async () => {
      const s = await open();
      await s.savePersonToken(personToken());
      await s.savePersonToken(personToken({ userId: 'U0BOB', version: 4 }));
      await s.savePersonToken(personToken({ teamId: 'T0OTHER' }));
      expect(await s.deleteTeamPersonTokens('T0TEAM')).toBe(2);
      expect(await s.deleteTeamPersonTokens('T0TEAM')).toBe(0);
      expect(await s.getPersonToken('T0TEAM', 'U0ALICE')).toBeNull();
      expect(await s.getPersonToken('T0TEAM', 'U0BOB')).toBeNull();
      expect(await s.latestPersonTokenVersion('T0TEAM', 'U0ALICE')).toBe(2);
      expect(await s.latestPersonTokenVersion('T0TEAM', 'U0BOB')).toBe(5);
      // The old rows put back are below their marks, so they are not read.
      expect(await s.savePersonToken(personToken())).toBe(false);
      expect((await s.getPersonToken('T0OTHER', 'U0ALICE'))?.sealed).toEqual(sealed(1));
    });
  });
}
