import { randomBytes } from 'node:crypto';
import type { Installation } from '@slack/oauth';
import { describe, expect, it } from 'vitest';
import { createTenantVault, type TenantVault } from '../../src/core/tenancy/vault.js';
import { Installations } from '../../src/slack/install/installations.js';
import type { Store } from '../../src/store/index.js';
import { storeForEachTest } from '../support/fixtures/store.js';
import { waitUntil } from '../support/patience.js';

// Installations held in memory over a real SQLite store and the tenants' vault: two handles stand for two
// replicas (or the two threads) of one deployment.

const TTL = 60_000;

let store: Store;
storeForEachTest((s) => {
  store = s;
});

function installation(token: string): Installation {
  return {
    team: { id: 'T0ACME', name: 'Acme' },
    enterprise: undefined,
    isEnterpriseInstall: false,
    user: { id: 'U0ADMIN', token: undefined, scopes: undefined },
    bot: { id: 'B0ACME', userId: 'U0ACMEBOT', token, scopes: ['commands'] },
    appId: 'A0TSAI',
    tokenType: 'bot',
  } as Installation;
}

/** A vault whose reads are counted and can be made to fail. */
function counted(vault: TenantVault) {
  const c = { opens: 0, failing: false };
  const wrapped: TenantVault = {
    ...vault,
    open: async (...args: Parameters<TenantVault['open']>) => {
      c.opens++;
      if (c.failing) throw new Error('the store is not answering');
      return vault.open(...args);
    },
  };
  return { c, wrapped };
}

describe('installations held in memory', () => {
  it('an old record answers at once and is read again beside it, once, so a reinstall elsewhere is seen', async () => {
    const vault = createTenantVault(store, { current: new Uint8Array(randomBytes(32)), previous: [] });
    const { c, wrapped } = counted(vault);
    let now = Date.UTC(2026, 10, 29, 9);
    const here = new Installations({ vault: wrapped, now: () => now, ttlMs: TTL });
    const elsewhere = new Installations({ vault, now: () => now, ttlMs: TTL });
    await elsewhere.store.storeInstallation(installation('xoxb-acme-first'));
    expect((await here.find('T0ACME'))?.token).toBe('xoxb-acme-first');
    expect(c.opens).toBe(1);

    await elsewhere.store.storeInstallation(installation('xoxb-acme-again'));
    now += TTL - 1;
    expect((await here.find('T0ACME'))?.token).toBe('xoxb-acme-first');
    expect(c.opens).toBe(1);

    now += 2;
    const answers = await Promise.all([1, 2, 3].map(() => here.find('T0ACME')));
    expect(answers.map((b) => b?.token)).toEqual(['xoxb-acme-first', 'xoxb-acme-first', 'xoxb-acme-first']);
    await waitUntil(async () => expect((await here.find('T0ACME'))?.token).toBe('xoxb-acme-again'));
    expect(c.opens).toBe(2);
  });

  it('a store that cannot be read keeps what was held; a removal is seen at the next reading', async () => {
    const vault = createTenantVault(store, { current: new Uint8Array(randomBytes(32)), previous: [] });
    const { c, wrapped } = counted(vault);
    let now = Date.UTC(2026, 10, 29, 9);
    const here = new Installations({ vault: wrapped, now: () => now, ttlMs: TTL });
    await here.store.storeInstallation(installation('xoxb-acme-first'));
    expect(c.opens).toBe(0);

    c.failing = true;
    now += TTL + 1;
    expect((await here.find('T0ACME'))?.token).toBe('xoxb-acme-first');
    await waitUntil(() => expect(c.opens).toBe(1));
    expect((await here.find('T0ACME'))?.token).toBe('xoxb-acme-first');

    c.failing = false;
    await vault.forget('T0ACME', 'installation');
    await waitUntil(async () => expect(await here.find('T0ACME')).toBeUndefined());
    await expect(here.authorize({ teamId: 'T0ACME', isEnterpriseInstall: false })).rejects.toThrow(
      /not installed/,
    );
  });
});
