import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { PoolCheckout } from '../../src/store/pg-checkout.js';
import { describePg, TEST_DATABASE_URL } from '../support/fixtures/store.js';

/** A gate a test opens by hand. */
function gate(): { wait: Promise<void>; open(): void } {
  let open!: () => void;
  const wait = new Promise<void>((ok) => {
    open = ok;
  });
  return { wait, open };
}

/** Resolves once `check` holds, checked as the pool hands out clients and on each turn of the loop. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((ok) => setImmediate(ok));
}

describePg('a full pool is told from a stuck one', () => {
  const pools: pg.Pool[] = [];
  /** A pool of one client whose queue gives up after 200 ms, and how often it was asked for a client. */
  const onePool = () => {
    const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 1, connectionTimeoutMillis: 200 });
    pool.on('error', () => {});
    pools.push(pool);
    const asked = { n: 0 };
    const connect = pool.connect.bind(pool);
    pool.connect = (() => {
      asked.n++;
      return connect();
    }) as typeof pool.connect;
    return { pool, asked };
  };
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((p) => p.end()));
  });

  /**
   * A holds the only client; C, then B, queue for it. A gives it back (to C) while B waits, and C keeps it
   * until B's wait has run out once: the pool moved during B's wait. Then C gives it back.
   */
  async function busyPool(busyWaitMs?: number) {
    const { pool, asked } = onePool();
    const checkout = new PoolCheckout(pool, busyWaitMs);
    const [a, c] = [gate(), gate()];
    const holderA = checkout.with(() => a.wait);
    await until(() => pool.totalCount === 1 && pool.idleCount === 0);
    const holderC = checkout.with(() => c.wait);
    await until(() => pool.waitingCount === 1);
    const b = checkout.query('SELECT 41 + 1 AS answer', []).then(
      (r) => ({ ok: true as const, answer: r.rows[0].answer as number }),
      (e: unknown) => ({ ok: false as const, err: e instanceof Error ? e.message : String(e) }),
    );
    await until(() => pool.waitingCount === 2);
    a.open();
    await holderA;
    let settled = false;
    void b.then(() => {
      settled = true;
    });
    // B asks again once its first wait ran out (the fourth request for a client), or gives up.
    await until(() => asked.n >= 4 || settled);
    c.open();
    await holderC;
    return b;
  }

  it('a checkout that timed out while other clients were given back waits again, and gets its client', async () => {
    expect(await busyPool()).toEqual({ ok: true, answer: 42 });
  });

  it('past the longest wait for a busy pool, the checkout fails as pg-pool failed it', async () => {
    expect(await busyPool(0)).toEqual({ ok: false, err: 'timeout exceeded when trying to connect' });
  });

  it('a pool whose only client is never given back fails the checkout after the connect timeout', async () => {
    const { pool } = onePool();
    const checkout = new PoolCheckout(pool);
    const held = gate();
    const holder = checkout.with(() => held.wait);
    await until(() => pool.totalCount === 1 && pool.idleCount === 0);
    await expect(checkout.query('SELECT 1', [])).rejects.toThrow('timeout exceeded when trying to connect');
    held.open();
    await holder;
  });

  it('an error a client emits in the very tick it is handed out does not escape as an unheard event', async () => {
    const { pool } = onePool();
    const checkout = new PoolCheckout(pool);
    // As a server shutting down does: its FATAL read in one go with the new connection's ready message,
    // so the client emits it right after pg-pool took off its idle listener, before the caller has it.
    pool.once('acquire', (client) => {
      const remove = client.removeListener.bind(client);
      client.removeListener = ((event: string, listener: (...a: unknown[]) => void) => {
        const out = remove(event, listener);
        if (event === 'error') {
          client.removeListener = remove;
          client.emit('error', new Error('terminating connection'));
        }
        return out;
      }) as typeof client.removeListener;
    });
    expect((await checkout.query('SELECT 3 AS three', [])).rows[0].three).toBe(3);
  });

  it('a connection broken while its client is out fails the call using it, and the pool goes on', async () => {
    const { pool } = onePool();
    const checkout = new PoolCheckout(pool);
    const broken = checkout.with(async (client) => {
      const pid = (await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
      const killer = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await killer.connect();
      await killer.query('SELECT pg_terminate_backend($1)', [pid]);
      await killer.end();
      await client.query('SELECT 1');
    });
    await expect(broken).rejects.toThrow();
    expect((await checkout.query('SELECT 2 AS two', [])).rows[0].two).toBe(2);
  });
});
