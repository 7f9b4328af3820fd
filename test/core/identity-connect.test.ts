import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkServiceToken, type TokenCheck } from '../../src/api/index.js';
import { AuditLog } from '../../src/core/audit.js';
import {
  CONNECT_UNAVAILABLE,
  Connections,
  createLockedVault,
  createVault,
  type IdentityVault,
} from '../../src/core/identity/index.js';
import type { Store } from '../../src/store/index.js';
import { startEmulator } from '../../standins/emulator/index.js';
import { storeForEachTest } from '../support/fixtures/store.js';

/**
 * Connecting through core, with a real SQLite store and the real emulator answering the token check:
 * what is kept, what is audited (never the token), and what happens without a key or a service answer.
 */
const ALICE = { teamId: 'T0TEAM', userId: 'U0ALICE', channelId: 'C0OPS' };
const NOW = new Date(Date.UTC(2026, 10, 22, 9));

let store: Store;
storeForEachTest((s) => {
  store = s;
});

async function withEmulator(use: (o: { url: string; accountId: string; token: string }) => Promise<void>) {
  const emulator = await startEmulator({ host: '127.0.0.1', port: 0 });
  try {
    await use({ url: emulator.url, accountId: emulator.accountId, token: emulator.token });
  } finally {
    await emulator.close();
  }
}

const SERVICE = { baseUrl: 'http://127.0.0.1:9', accountId: '1000000000000000001', since: 0 };

function connections(o: {
  check: (t: string) => Promise<TokenCheck>;
  locked?: boolean;
  require?: boolean;
  place?: typeof SERVICE;
  vault?: IdentityVault;
}) {
  const vault =
    o.vault ??
    (o.locked
      ? createLockedVault(store)
      : createVault(store, { current: new Uint8Array(randomBytes(32)), previous: [] }));
  return new Connections({
    vault,
    canConnect: !o.locked,
    requireUserToken: o.require ?? false,
    serviceOf: async () => ({ place: o.place ?? SERVICE, checkToken: o.check }),
    audit: new AuditLog(store),
    now: () => NOW,
  });
}

describe('connecting a token through core', () => {
  it('checks it against the real service first: refused is kept nowhere, accepted is kept and audited', async () => {
    await withEmulator(async (svc) => {
      const check = (t: string) => checkServiceToken({ baseUrl: svc.url, accountId: svc.accountId }, t, 2000);
      const c = connections({ check, place: { baseUrl: svc.url, accountId: svc.accountId, since: 0 } });
      const refused = await c.connect(ALICE, 'tok-wrong-1234567890');
      expect(refused).toEqual({ ok: false, problem: expect.stringMatching(/refused this token/) });
      expect(await c.standing(ALICE)).toEqual({ kind: 'shared' });
      const ok = await c.connect(ALICE, `Bearer ${svc.token}`);
      const connection = { since: NOW.getTime(), accountId: svc.accountId, serviceUrl: svc.url };
      expect(ok).toEqual({ ok: true, connection });
      expect(await c.standing(ALICE)).toEqual({ kind: 'connected', connection });
      expect(await c.disconnect(ALICE)).toBe(true);
      expect(await c.disconnect(ALICE)).toBe(false);
      const audit = await store.listAudit({ operationPrefixes: ['identity.'] });
      expect(audit.map((a) => [a.operation, a.outcome])).toEqual([
        ['identity.disconnect', 'ok'],
        ['identity.connect', 'ok'],
        ['identity.connect', 'refused'],
      ]);
      expect(JSON.stringify(audit)).not.toContain(svc.token);
      expect(JSON.stringify(audit)).not.toContain('tok-wrong-1234567890');
    });
  });

  it('a token is bound to the account and URL it was checked against: for another it is set aside', async () => {
    const vault = createVault(store, { current: new Uint8Array(randomBytes(32)), previous: [] });
    const c = connections({ check: async () => ({ ok: true }), vault });
    expect((await c.connect(ALICE, 'tok-some-token-123')).ok).toBe(true);
    expect(await vault.tokenFor(ALICE, SERVICE)).toEqual({ kind: 'token', token: 'tok-some-token-123' });
    expect((await c.standing(ALICE)).kind).toBe('connected');
    for (const moved of [
      { ...SERVICE, baseUrl: 'https://elsewhere.example.com', since: NOW.getTime() + 1 },
      { ...SERVICE, accountId: '1000000000000000999', since: NOW.getTime() + 1 },
    ]) {
      expect(await vault.tokenFor(ALICE, moved)).toMatchObject({ kind: 'set-aside' });
      const there = connections({ check: async () => ({ ok: true }), vault, place: moved });
      expect((await there.standing(ALICE)).kind).toBe('set-aside');
    }
    // The same URL written another way is the same place.
    expect(await vault.tokenFor(ALICE, { ...SERVICE, baseUrl: `${SERVICE.baseUrl}/` })).toMatchObject({
      kind: 'token',
    });
  });

  it('a 403, a 404 or a redirect is no working token: only the read itself is', async () => {
    for (const status of [403, 404, 302]) {
      const c = connections({
        check: async () => ({ ok: false, reason: 'not-read', status, message: `HTTP ${status}.` }),
      });
      const out = await c.connect(ALICE, 'tok-some-token-123');
      expect(out, String(status)).toEqual({ ok: false, problem: expect.stringContaining(String(status)) });
      expect(await store.getPersonToken(ALICE.teamId, ALICE.userId)).toBeNull();
    }
  });

  it('without an answer from the service nothing is kept, and the person is told to try again', async () => {
    const c = connections({
      check: async () => ({
        ok: false,
        reason: 'unanswered',
        message: 'The service did not answer in time.',
      }),
    });
    const out = await c.connect(ALICE, 'tok-some-token-123');
    expect(out).toEqual({
      ok: false,
      problem: expect.stringMatching(/could not be checked, so it was not saved/),
    });
    expect(await store.getPersonToken(ALICE.teamId, ALICE.userId)).toBeNull();
  });

  it('without a key: connecting is unavailable, the service is never asked; required tokens leave nobody acting', async () => {
    const asked: string[] = [];
    const c = connections({
      locked: true,
      require: true,
      check: async (t) => {
        asked.push(t);
        return { ok: true };
      },
    });
    expect(c.canConnect).toBe(false);
    expect(await c.connect(ALICE, 'tok-some-token-123')).toEqual({ ok: false, problem: CONNECT_UNAVAILABLE });
    expect(CONNECT_UNAVAILABLE).toContain('TSAI_SECRET_KEY');
    expect(asked).toEqual([]);
    expect(await c.standing(ALICE)).toEqual({ kind: 'none' });
  });
});
